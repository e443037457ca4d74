// Choosing and applying a page's character encoding: byte-order mark, then the Content-Type
// charset, then (HTML only) a <meta> declaration near the start, then UTF-8.

/** How far into an HTML page a <meta charset> is looked for (the HTML standard's prescan uses 1024 bytes). */
const META_PRESCAN_BYTES = 1024;
const META_CHARSET = /<meta\b[^>]*?\bcharset\s*=\s*["']?\s*([A-Za-z0-9_:.+-]+)/i;

function bomEncoding(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  return undefined;
}

/** The encoding a label names, or undefined when TextDecoder does not know it. */
export function knownEncoding(label: string | undefined): string | undefined {
  if (!label) return undefined;
  try {
    return new TextDecoder(label.trim()).encoding;
  } catch {
    return undefined;
  }
}

/** The charset parameter of a Content-Type header value. */
export function headerCharset(contentType: string): string | undefined {
  return /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1];
}

/** A <meta charset> or <meta http-equiv="content-type" content="...; charset=..."> in the first bytes. */
export function metaCharset(bytes: Uint8Array): string | undefined {
  const head = Buffer.from(bytes.subarray(0, META_PRESCAN_BYTES)).toString('latin1');
  const found = knownEncoding(META_CHARSET.exec(head)?.[1]);
  // A page that reached us as bytes cannot be UTF-16 by its own ASCII declaration (HTML standard).
  return found?.startsWith('utf-16') ? 'utf-8' : found;
}

/** The encoding to decode a body with. */
export function chooseEncoding(bytes: Uint8Array, contentType: string, html: boolean): string {
  return bomEncoding(bytes) ?? knownEncoding(headerCharset(contentType)) ?? (html ? metaCharset(bytes) : undefined) ?? 'utf-8';
}

/** windows-1252 at 0x80..0x9F (the rest is Latin-1); the five unassigned bytes map to themselves, as in the Encoding standard. */
const CP1252_HIGH = '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

/** Decodes without ever throwing: invalid sequences become U+FFFD; a byte-order mark is dropped. */
export function decodeBody(bytes: Uint8Array, encoding: string): string {
  // Node 20's TextDecoder decodes windows-1252 (the web's "latin1" too) as ISO-8859-1, losing curly quotes and the euro sign.
  if (encoding === 'windows-1252') return Buffer.from(bytes).toString('latin1').replace(/[\x80-\x9f]/g, (c) => CP1252_HIGH[c.charCodeAt(0) - 0x80]!);
  return new TextDecoder(encoding).decode(bytes);
}

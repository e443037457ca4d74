import { readFileSync, statSync } from 'node:fs';
import { TroveError } from '../../errors.js';
import { cleanTitle, webUrl } from './collect.js';

// Netscape bookmark files (exported by every browser): <DT><H3>folder</H3> followed by a <DL> of its
// entries, <DT><A HREF="..." ADD_DATE="...">title</A> for a bookmark. The format is loose HTML (DT and
// p are never closed), so a small tokenizer reads it more predictably than an HTML parser.

export interface Bookmark {
  url: string;
  title: string;
  /** Unix ms, when the file says. */
  addedAt: number | undefined;
  /** Folder path below the root, e.g. "Dev/Rust"; null at the top level. */
  label: string | null;
}

export interface BookmarkFile {
  bookmarks: Bookmark[];
  /** Entries whose url is not http(s) (bookmarklets, place: queries, files). */
  skipped: number;
}

export const MAX_BOOKMARKS_BYTES = 256 * 1024 * 1024;

const TOKENS = /<dl\b[^>]*>|<\/dl\s*>|<h3\b([^>]*)>([\s\S]*?)<\/h3\s*>|<a\b([^>]*)>([\s\S]*?)<\/a\s*>/gi;
const ATTRS = /([a-z_:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

function attributes(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of text.matchAll(ATTRS)) out.set(m[1]!.toUpperCase(), decodeEntities(m[2] ?? m[3] ?? m[4] ?? ''));
  return out;
}

/** Inner text of a tag: markup dropped, entities decoded. */
function innerText(html: string): string {
  return cleanTitle(decodeEntities(html.replace(/<[^>]*>/g, '')));
}

/** ADD_DATE is seconds since 1970 in every browser's export; a few tools write milliseconds or microseconds. */
function addDate(raw: string | undefined): number | undefined {
  if (!raw || !/^\d{1,20}$/.test(raw)) return undefined;
  const n = Number(raw);
  if (n <= 0) return undefined;
  return n > 1e14 ? Math.floor(n / 1000) : n > 1e11 ? n : n * 1000;
}

/** The browsers' own top-level containers (toolbar, "Other bookmarks") are not part of a label. */
function isRootContainer(attrs: Map<string, string>): boolean {
  return attrs.get('PERSONAL_TOOLBAR_FOLDER') === 'true' || attrs.get('UNFILED_BOOKMARKS_FOLDER') === 'true';
}

export function parseBookmarks(html: string, path: string): BookmarkFile {
  if (!/<!doctype\s+netscape-bookmark-file/i.test(html) && !/<dl\b/i.test(html)) {
    throw new TroveError('MALFORMED_INPUT', `${path} is not a Netscape bookmarks file (no <!DOCTYPE NETSCAPE-Bookmark-file-1> and no <DL> list)`, { path });
  }
  const out: BookmarkFile = { bookmarks: [], skipped: 0 };
  const folders: Array<string | null> = [];
  let pending: string | null | undefined;
  for (const m of html.matchAll(TOKENS)) {
    const token = m[0].slice(0, 4).toLowerCase();
    if (token.startsWith('<dl')) {
      folders.push(pending ?? null);
      pending = undefined;
    } else if (token.startsWith('</dl')) {
      folders.pop();
    } else if (token.startsWith('<h3')) {
      const name = innerText(m[2]!);
      pending = isRootContainer(attributes(m[1]!)) || !name ? null : name;
    } else {
      const attrs = attributes(m[3]!);
      const url = webUrl(attrs.get('HREF')?.trim());
      if (url === undefined) {
        out.skipped++;
        continue;
      }
      const names = folders.filter((f): f is string => f !== null);
      out.bookmarks.push({ url, title: innerText(m[4]!), addedAt: addDate(attrs.get('ADD_DATE')), label: names.length ? names.join('/') : null });
    }
  }
  return out;
}

/** Reads and parses a bookmarks file; a missing, binary, non-UTF-8 or non-Netscape file is a coded error. */
export function readBookmarksFile(path: string): BookmarkFile {
  let bytes: Buffer;
  try {
    const stats = statSync(path);
    if (!stats.isFile()) throw new TroveError('FILE_NOT_FOUND', `${path} is not a file`, { path });
    if (stats.size > MAX_BOOKMARKS_BYTES) throw new TroveError('TOO_LARGE', `${path} is larger than ${MAX_BOOKMARKS_BYTES} bytes`, { path });
    bytes = readFileSync(path);
  } catch (err) {
    if (err instanceof TroveError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    throw new TroveError('FILE_NOT_FOUND', code === 'ENOENT' ? `no such file: ${path}` : `cannot read ${path} (${code ?? 'error'})`, { path });
  }
  if (bytes.includes(0)) throw new TroveError('MALFORMED_INPUT', `${path} is binary, not a bookmarks file`, { path });
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new TroveError('MALFORMED_INPUT', `${path} is not UTF-8 text`, { path });
  }
  return parseBookmarks(text, path);
}

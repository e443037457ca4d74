// Pages of text in Unicode code points and of files in lines, each kept within a byte bound on its
// JSON encoding so a page always fits the result envelope it travels in.

/** Bytes a code point takes inside a JSON string (JSON.stringify's escaping, UTF-8). */
export function jsonBytes(cp: number): number {
  if (cp === 0x22 || cp === 0x5c) return 2;
  if (cp < 0x20) return cp === 8 || cp === 9 || cp === 10 || cp === 12 || cp === 13 ? 2 : 6;
  if (cp < 0x80) return 1;
  if (cp < 0x800) return 2;
  if (cp >= 0xd800 && cp <= 0xdfff) return 6;
  return cp < 0x10000 ? 3 : 4;
}

/** Bytes of a whole string inside a JSON string. */
export function jsonStringBytes(s: string): number {
  let n = 0;
  for (const ch of s) n += jsonBytes(ch.codePointAt(0)!);
  return n;
}

const CHECKPOINT = 4096;
const SURROGATE = /[\uD800-\uDFFF]/;

/** Maps code-point offsets of one text to UTF-16 indexes without walking the whole text each time. */
export interface CodePointIndex {
  /** Length in code points. */
  length: number;
  /** UTF-16 index of every CHECKPOINT-th code point; empty when the text has no surrogates (index = offset). */
  checkpoints: number[];
}

export function indexCodePoints(text: string): CodePointIndex {
  if (!SURROGATE.test(text)) return { length: text.length, checkpoints: [] };
  const checkpoints: number[] = [];
  let cp = 0;
  let i = 0;
  while (i < text.length) {
    if (cp % CHECKPOINT === 0) checkpoints.push(i);
    const c = text.charCodeAt(i);
    i += c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
    cp++;
  }
  return { length: cp, checkpoints };
}

/** UTF-16 index of code point `offset` (0..length). */
export function utf16Index(text: string, index: CodePointIndex, offset: number): number {
  if (index.checkpoints.length === 0) return offset;
  const k = Math.min(Math.floor(offset / CHECKPOINT), index.checkpoints.length - 1);
  let i = index.checkpoints[k]!;
  for (let cp = k * CHECKPOINT; cp < offset && i < text.length; cp++) {
    const c = text.charCodeAt(i);
    i += c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
  }
  return i;
}

export interface TextPage {
  text: string;
  /** Code points returned. */
  count: number;
  /** Fewer than asked because of the byte bound. */
  shortened: boolean;
}

/** Up to `limit` code points from `offset`, no more than `maxBytes` once JSON-encoded. */
export function textPage(text: string, index: CodePointIndex, offset: number, limit: number, maxBytes: number): TextPage {
  const start = utf16Index(text, index, offset);
  let i = start;
  let count = 0;
  let bytes = 0;
  while (count < limit && i < text.length) {
    const cp = text.codePointAt(i)!;
    const b = jsonBytes(cp);
    if (bytes + b > maxBytes) return { text: text.slice(start, i), count, shortened: true };
    bytes += b;
    i += cp > 0xffff ? 2 : 1;
    count++;
  }
  return { text: text.slice(start, i), count, shortened: false };
}

/** Lines with their original endings (\n, \r\n, \r); a terminal line ending adds no empty line. */
export function splitLines(text: string): string[] {
  const lines: string[] = [];
  const ending = /\r\n|\r|\n/g;
  let start = 0;
  for (let m = ending.exec(text); m; m = ending.exec(text)) {
    lines.push(text.slice(start, m.index + m[0].length));
    start = m.index + m[0].length;
  }
  if (start < text.length) lines.push(text.slice(start));
  return lines;
}

export interface LinePage {
  text: string;
  /** Lines returned. */
  count: number;
  shortened: boolean;
}

/** Up to `count` whole lines from 0-based `first`, no more than `maxBytes` once JSON-encoded. */
export function linePage(lines: readonly string[], first: number, count: number, maxBytes: number): LinePage {
  let bytes = 0;
  let n = 0;
  while (n < count && first + n < lines.length) {
    const b = jsonStringBytes(lines[first + n]!);
    if (bytes + b > maxBytes) return { text: lines.slice(first, first + n).join(''), count: n, shortened: true };
    bytes += b;
    n++;
  }
  return { text: lines.slice(first, first + n).join(''), count: n, shortened: false };
}

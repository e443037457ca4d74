import type { ChunkInput } from '../store/types.js';

export interface ChunkOptions {
  /** Target passage length in characters. */
  size: number;
  /** Hard cap on the number of passages; the size grows to fit. */
  maxChunks: number;
}

/** Best place to end a passage inside text[from, to): paragraph, then sentence, then word boundary. */
function cutPoint(text: string, from: number, to: number): number {
  const floor = from + Math.floor((to - from) / 2);
  const para = text.lastIndexOf('\n\n', to);
  if (para >= floor) return para + 2;
  for (let i = to - 1; i >= floor; i--) {
    const c = text[i];
    if ((c === '.' || c === '!' || c === '?' || c === '\n') && (i + 1 >= text.length || /\s/.test(text[i + 1]!))) return i + 1;
  }
  const space = text.lastIndexOf(' ', to);
  if (space >= floor) return space + 1;
  // Never split a surrogate pair.
  const code = text.charCodeAt(to - 1);
  return code >= 0xd800 && code <= 0xdbff ? to - 1 : to;
}

/** Splits text into passages with code-point offsets; empty text gives no passages. */
export function chunkText(text: string, opts: ChunkOptions): ChunkInput[] {
  if (!text.trim()) return [];
  const size = Math.max(opts.size, Math.ceil(text.length / (opts.maxChunks - 1)));
  const out: ChunkInput[] = [];
  let start = 0;
  let startCp = 0;
  while (start < text.length) {
    const end = start + size >= text.length ? text.length : cutPoint(text, start, start + size);
    const piece = text.slice(start, end);
    const cp = countCodePoints(piece);
    if (piece.trim()) out.push({ ordinal: out.length, start: startCp, end: startCp + cp, text: piece });
    startCp += cp;
    start = end;
  }
  return out;
}

export function countCodePoints(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

import { fold, stem } from './text/tokenize.js';

const TOKEN = /[\p{L}\p{N}\p{Co}]+/gu;
export const SNIPPET_CHARS = 240;
const LEAD = 60;
export const MARK_OPEN = '**';
export const MARK_CLOSE = '**';

interface Hit {
  start: number;
  end: number;
  stem: string;
}

const ASCII = /^[\x00-\x7f]*$/;
// Two letters, not three: porter may change the third ("day" -> "dai").
const prefix = (word: string): string => word.slice(0, 2);

/** True when `i` falls between the halves of a surrogate pair. */
function insidePair(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return c >= 0xdc00 && c <= 0xdfff && i > 0;
}

function findHits(text: string, stems: ReadonlySet<string>): Hit[] {
  const roots = [...new Set([...stems].map(prefix))];
  const simple = ASCII.test(text) && roots.every((r) => /^[a-z0-9]+$/.test(r));
  // ASCII text: let the regex engine find candidate words by their first letters; otherwise fold word by word.
  const pattern = simple ? new RegExp(`(?<![A-Za-z0-9])(?:${roots.join('|')})[A-Za-z0-9]*`, 'gi') : TOKEN;
  const prefixes = new Set([...stems].map(prefix));
  const hits: Hit[] = [];
  for (const m of text.matchAll(pattern)) {
    const word = fold(m[0]);
    if (!prefixes.has(prefix(word))) continue;
    const s = stem(word);
    if (stems.has(s)) hits.push({ start: m.index, end: m.index + m[0].length, stem: s });
  }
  return hits;
}

/** The window start that covers the most distinct matched words. */
function bestStart(hits: Hit[], width: number): number {
  let best = 0;
  let bestCount = -1;
  for (let i = 0; i < hits.length; i++) {
    const seen = new Set<string>();
    for (let j = i; j < hits.length && hits[j]!.end - hits[i]!.start <= width; j++) seen.add(hits[j]!.stem);
    if (seen.size > bestCount) {
      bestCount = seen.size;
      best = hits[i]!.start;
    }
  }
  return best;
}

/** A short passage around the matched words with each match wrapped in ** marks; whitespace collapsed. */
export function makeSnippet(text: string, stems: readonly string[], width: number = SNIPPET_CHARS): string {
  const hits = stems.length ? findHits(text, new Set(stems)) : [];
  let from = hits.length ? Math.max(0, bestStart(hits, width - LEAD) - LEAD) : 0;
  if (from > 0) {
    const space = text.indexOf(' ', from);
    from = space >= 0 && space < from + 20 ? space + 1 : from;
  }
  let to = Math.min(text.length, from + width);
  if (to < text.length) {
    const space = text.lastIndexOf(' ', to);
    if (space > from + width / 2) to = space;
  }
  if (insidePair(text, from)) from++;
  if (insidePair(text, to)) to--;
  let out = '';
  let at = from;
  for (const h of hits) {
    if (h.start < from || h.end > to) continue;
    out += text.slice(at, h.start) + MARK_OPEN + text.slice(h.start, h.end) + MARK_CLOSE;
    at = h.end;
  }
  out += text.slice(at, to);
  out = out.replace(/\s+/g, ' ').trim();
  return (from > 0 ? '… ' : '') + out + (to < text.length ? ' …' : '');
}

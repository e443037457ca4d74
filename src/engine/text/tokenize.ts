import { stemmer } from 'stemmer';

// Mirrors FTS5's `unicode61 remove_diacritics 2` so the engine sees the tokens the index sees.
const TOKEN = /[\p{L}\p{N}\p{Co}]+/gu;
const MARKS = /\p{M}+/gu;
// FTS5 strips diacritics from Latin letters only: Greek "έ", Cyrillic "й" and Hangul syllables stay whole.
const LATIN = /[\u00c0-\u024f\u1e00-\u1eff]/g;

/** Lower-cases and strips diacritics from Latin letters: "Café" -> "cafe". */
export function fold(text: string): string {
  if (/^[\x00-\x7f]*$/.test(text)) return text.toLowerCase();
  return text.replace(LATIN, (c) => c.normalize('NFD').replace(MARKS, '')).toLowerCase();
}

export interface Token {
  /** Folded token text. */
  term: string;
  /** Code-unit offsets into the original string. */
  start: number;
  end: number;
}

/** Folded tokens with their offsets in `text` (offsets are approximate where folding changes length). */
export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(TOKEN)) {
    const term = fold(m[0]);
    if (term) out.push({ term, start: m.index, end: m.index + m[0].length });
  }
  return out;
}

/** Just the folded terms; split before folding, as FTS5 does, so combining marks separate tokens. */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(TOKEN)) out.push(fold(m[0]));
  return out;
}

/** Porter stem as FTS5's porter tokenizer applies it (short and very long tokens pass through). */
export function stem(term: string): string {
  if (term.length < 3 || term.length > 64 || !/^[a-z]+$/.test(term)) return term;
  return stemmer(term);
}

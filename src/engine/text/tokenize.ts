import { stemmer } from 'stemmer';

// Mirrors FTS5's `unicode61 remove_diacritics 2` so the engine sees the tokens the index sees.
const TOKEN = /[\p{L}\p{N}\p{Co}]+/gu;
const MARKS = /\p{M}+/gu;

/** Lower-cases and strips diacritics: "Café" -> "cafe". */
export function fold(text: string): string {
  return text.normalize('NFD').replace(MARKS, '').toLowerCase();
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

/** Just the folded terms. */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const m of fold(text).matchAll(TOKEN)) out.push(m[0]);
  return out;
}

/** Porter stem as FTS5's porter tokenizer applies it (short and very long tokens pass through). */
export function stem(term: string): string {
  if (term.length < 3 || term.length > 64 || !/^[a-z]+$/.test(term)) return term;
  return stemmer(term);
}

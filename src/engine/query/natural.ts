import { isStopWord } from '../text/stopwords.js';
import { fold, terms } from '../text/tokenize.js';

// Natural-language questions ("What are the user's programming language preferences?") as keyword input:
// the content words, any of which may match; BM25 then favours passages holding more and rarer ones.

/** Words a question keeps at most; more add cost, not recall. */
export const MAX_CONTENT_WORDS = 32;

/**
 * How many times a name counts in a question ("Where does Mateo live?"): a question is about its names, while
 * BM25 alone lets a rarer ordinary word ("morning") outweigh a name that many memories share. Tuned on the
 * conversational benchmark (recall@5 0.821 -> 0.834 alone); statements (SciFact claims) are left as they are.
 */
export const NAME_WEIGHT = 2;

const keep = (t: string): boolean => (t.length >= 2 || /\d/.test(t)) && t.length <= 64;

/**
 * Folded content words of `text` in first-occurrence order: stop words and one-letter leftovers ("user's" -> s)
 * dropped; a text of stop words only keeps them ("who are you" still searches for something).
 */
export function contentWords(text: string): string[] {
  const all = terms(text).filter(keep);
  const content = all.filter((t) => !isStopWord(t));
  return [...new Set(content.length ? content : all)].slice(0, MAX_CONTENT_WORDS);
}

const QUESTION_START = /^\s*(?:who|whom|whose|what|when|where|which|why|how|do|does|did|is|are|was|were|can|could|should|will|would|have|has|had)\b/i;

/** A question rather than a statement: ends with "?" or opens with a question word or an auxiliary verb. */
export function isQuestion(text: string): boolean {
  return /\?\s*$/.test(text) || QUESTION_START.test(text);
}

const WORD = /[\p{L}\p{N}]+/gu;

/** Folded words written like names: capitalised or with inner capitals ("Mateo", "iPhone"), the text's first word excepted. */
export function nameWords(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(WORD)) {
    if (m.index === 0 || !/\p{Lu}/u.test(m[0])) continue;
    out.add(fold(m[0]));
  }
  return out;
}

/** The words to search for, a question's names repeated NAME_WEIGHT times (each repetition adds its BM25 share). */
export function weightedWords(text: string): string[] {
  const words = contentWords(text);
  if (!isQuestion(text)) return words;
  const names = nameWords(text);
  return words.flatMap((w) => (names.has(w) ? Array<string>(NAME_WEIGHT).fill(w) : [w]));
}

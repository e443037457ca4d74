// What kind of answer a question asks for (a time, a place, a person) and whether a passage holds one:
// "When is Noor's birthday?" prefers the memory with a date in it over other memories about Noor.
import { fold, terms } from '../text/tokenize.js';
import { isQuestion } from './natural.js';

export type AnswerKind = 'date' | 'place' | 'person';

/** Score factor of a passage that holds the kind of answer asked for; tuned on the conversational benchmark. */
export const ANSWER_BOOST = 1.2;

const ASKS_DATE = /\bwhen\b|\bwhat (?:date|day|time|year|month)\b|\bhow long ago\b/i;
const ASKS_PLACE = /\bwhere\b|\b(?:which|what) (?:city|town|country|place|address|company|street)\b/i;
const ASKS_PERSON = /\b(?:who|whom|whose)\b|\bwhich (?:friend|person|colleague|relative|one of (?:my|our)|of (?:my|our))\b/i;

/** The kind of answer `question` asks for, or null (other questions, and statements: "… when insulin is low."). */
export function expectedAnswer(question: string): AnswerKind | null {
  if (!isQuestion(question)) return null;
  if (ASKS_DATE.test(question)) return 'date';
  if (ASKS_PLACE.test(question)) return 'place';
  if (ASKS_PERSON.test(question)) return 'person';
  return null;
}

const MONTHS = 'January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec';
const DAYS = '(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)days?';
const CALENDAR = new RegExp(`^(?:${MONTHS}|${DAYS})$`, 'u');
const DATE = new RegExp(
  `\\b(?:${MONTHS}|${DAYS})\\b|\\b(?:1[89]|2[01])\\d\\d\\b|\\b\\d{1,2}[/.-]\\d{1,2}\\b|\\b(?:today|tomorrow|yesterday|tonight|next (?:week|month|year))\\b`,
  'u',
);
// A capitalised word after a place preposition ("in Porto", "from Globex"), or anywhere but a sentence start.
const PLACE = /\b(?:in|at|to|from|near)\s+(?:the\s+)?(\p{Lu}\p{Ll}+)/gu;
const NAME = /(?<=[^.!?\s][ \t]+)\p{Lu}\p{Ll}+/gu;

/** True when `passage` holds an answer of `kind` that is not one of the question's own words. */
export function holdsAnswer(kind: AnswerKind, passage: string, questionWords: ReadonlySet<string>): boolean {
  if (kind === 'date') return DATE.test(passage);
  for (const m of passage.matchAll(kind === 'place' ? PLACE : NAME)) {
    const word = m[1] ?? m[0];
    if (!questionWords.has(fold(word)) && !CALENDAR.test(word)) return true;
  }
  return false;
}

/**
 * Passages holding the kind of answer the question asks for gain ANSWER_BOOST; the order is otherwise kept
 * (scores are higher-is-better). Returns `ranked` itself when the question asks for no particular kind.
 */
export function boostAnswers<T extends { text: string; score: number }>(question: string, ranked: readonly T[]): T[] {
  const kind = expectedAnswer(question);
  if (!kind) return [...ranked];
  const own = new Set(terms(question));
  const boosted = ranked.map((h, i) => ({ h, i, score: holdsAnswer(kind, h.text, own) ? h.score * ANSWER_BOOST : h.score }));
  boosted.sort((a, b) => b.score - a.score || a.i - b.i);
  return boosted.map(({ h, score }) => ({ ...h, score }));
}

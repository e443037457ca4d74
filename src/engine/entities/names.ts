// Names of people, organisations and places from runs of capitalised words, by heuristics (no model).
import { isStopWord } from '../text/stopwords.js';
import { cueBefore, type CueKind, SENTENCE_END } from './cues.js';
import {
  ACRONYM_EXCEPTIONS, AMBIGUOUS_NAMES, CALENDAR_WORDS, COMMON_CAPITALS, COMPANY_SUFFIXES, GENERIC_NOUNS, GIVEN_NAMES,
  MULTI_WORD_PLACES, ORG_FIRST_OF, ORG_LAST, PLACES, PLACE_FIRST, PLACE_LAST,
} from './lexicon.js';

export type NameKind = 'person' | 'organization' | 'place' | 'topic';

export interface NameMention {
  kind: NameKind;
  name: string;
  /** A guess (a topic, or a name opening a sentence or alone on a line): counts only if the text names it again. */
  weak: boolean;
}

// A run alone on its line is a heading: only names with a cue of their own count from it.
const LINE_END = /^[ \t.:!?]*(?:\n|$)/;

interface Word {
  text: string;
  start: number;
}

interface Piece {
  words: Word[];
  atStart: boolean;
}

const WORD = /[^\s,]+/gu;
const POSSESSIVE = /['’]s$/u;
const NAME_SHAPED = /^(?:\p{Lu}['’])?\p{Lu}\p{Ll}+(?:\p{Lu}\p{Ll}+)?(?:-\p{Lu}?\p{Ll}+)*$/u;
const ACRONYM = /^\p{Lu}{2,6}$/u;
const ALL_CAPS = /^[\p{Lu}\p{N}'-]+$/u;
const OPENERS = new Set([' ', '\t', '"', "'", '“', '‘', '(', '[', '*', '•', '·', '-', '–', '—', '>', '#', '_']);

// Word endings of ordinary nouns and verbs, never of a person's name: "Making", "Analytics", "Toolbar" is left to GENERIC_NOUNS.
const NOT_A_NAME = /(?:ing|tion|sion|ment|ness|ity|ology|ics|ism|ware|able)$/;
// The same without -ing, which surnames have too ("Manning"): after a first name it still says "not a person".
const NOUN_ENDING = /(?:tion|sion|ment|ness|ity|ology|ics|ism|ware|able)$/;

const lower = (w: string) => w.toLowerCase();
const isSuffix = (w: string) => COMPANY_SUFFIXES.has(lower(w).replace(/\.$/, ''));

/** True when text[index] opens a sentence, a line or a heading (looks back over at most 64 characters). */
function atSentenceStart(text: string, index: number): boolean {
  const floor = Math.max(0, index - 64);
  let i = index - 1;
  while (i >= floor && OPENERS.has(text[i]!)) i--;
  return i < floor || SENTENCE_END.has(text[i]!);
}

/** "ACME" -> "Acme" inside a longer name; keeps "McDonald", "IBM" and particles as written. */
function canonicalWord(word: string, multi: boolean): string {
  const w = word.replace(/’/g, "'");
  const suffix = COMPANY_SUFFIXES.get(lower(w));
  if (multi && suffix) return suffix;
  if (multi && w.length >= 4 && ALL_CAPS.test(w)) return w[0] + w.slice(1).toLowerCase();
  return w;
}

function canonicalName(words: readonly Word[]): string {
  return words.map((w) => canonicalWord(w.text, words.length > 1)).join(' ').normalize('NFC');
}

function isBreakWord(w: string): boolean {
  const l = lower(w);
  return /^\p{Lu}/u.test(w) && (isStopWord(l) || COMMON_CAPITALS.has(l) || CALENDAR_WORDS.has(l));
}

/** Splits a capitalised run at words that are never part of a name ("When", "The", "Monday"). */
function pieces(words: readonly Word[], runAtStart: boolean): { pieces: Piece[]; heading: boolean } {
  const out: Piece[] = [];
  let current: Word[] = [];
  let breaks = 0;
  const flush = () => {
    while (current.length && /^\p{Ll}|^&$/u.test(current[current.length - 1]!.text)) current.pop();
    if (current.length) out.push({ words: current, atStart: runAtStart && current[0] === words[0] });
    current = [];
  };
  words.forEach((w, i) => {
    if (isBreakWord(w.text)) {
      if (i > 0) breaks++;
      flush();
      return;
    }
    if (!current.length && /^\p{Ll}|^&$/u.test(w.text)) return;
    current.push(w);
    if (POSSESSIVE.test(w.text)) {
      current[current.length - 1] = { text: w.text.replace(POSSESSIVE, ''), start: w.start };
      flush();
    }
  });
  flush();
  return { pieces: out, heading: breaks > 0 };
}

function classifyOne(word: string, honorific: boolean, cue: () => CueKind | null): NameKind | null {
  const l = lower(word);
  if (isSuffix(word)) return null;
  if (ACRONYM.test(word)) {
    if (PLACES.has(l)) return 'place';
    return ACRONYM_EXCEPTIONS.has(l) || isStopWord(l) ? null : 'organization';
  }
  if (!NAME_SHAPED.test(word)) return null;
  if (honorific) return 'person';
  if (PLACES.has(l)) return 'place';
  if (GIVEN_NAMES.has(l) && !AMBIGUOUS_NAMES.has(l)) return 'person';
  return cue();
}

function classifyMany(words: readonly string[], honorific: boolean, cue: () => CueKind | null, heading: boolean): NameKind | null {
  const ls = words.map(lower);
  const first = ls[0]!;
  const last = ls[ls.length - 1]!;
  if (isSuffix(last) || ORG_LAST.has(last) || ls.includes('&') || (ORG_FIRST_OF.has(first) && ls.includes('of'))) return 'organization';
  const capitalised = words.filter((w) => /^\p{Lu}/u.test(w));
  if (honorific) return capitalised.every((w) => NAME_SHAPED.test(w)) ? 'person' : null;
  if (ls.includes('of')) return null;
  if (MULTI_WORD_PLACES.has(ls.join(' ')) || PLACE_LAST.has(last) || (PLACE_FIRST.has(first) && !GENERIC_NOUNS.has(ls[1]!))) return 'place';
  if (!capitalised.every((w) => NAME_SHAPED.test(w))) return heading || capitalised.every((w) => ALL_CAPS.test(w)) ? null : 'topic';
  if (GIVEN_NAMES.has(first) && !ls.slice(1).some((w) => GENERIC_NOUNS.has(w) || NOUN_ENDING.test(w))) return 'person';
  if (ls.some((w) => GENERIC_NOUNS.has(w) || NOT_A_NAME.test(w))) return heading ? null : 'topic';
  const hint = cue();
  if (hint === 'organization' || hint === 'place') return hint;
  if (heading || capitalised.length > 3) return null;
  return 'person';
}

/**
 * Names found in one run of capitalised words (`run` starts at `start` in `text`); `honorific` when
 * a title such as "Dr." came just before it.
 */
export function namesInRun(text: string, run: string, start: number, honorific: boolean): NameMention[] {
  if (!honorific && !/\s/.test(run) && isBreakWord(run)) {
    // "my friend June": a month that is also a first name, with a cue that it is a person.
    const person = AMBIGUOUS_NAMES.has(lower(run)) && cueBefore(text, start) === 'person';
    return person ? [{ kind: 'person', name: run, weak: false }] : [];
  }
  const words: Word[] = [];
  for (const m of run.matchAll(WORD)) words.push({ text: m[0], start: start + m.index });
  const runAtStart = !honorific && atSentenceStart(text, start);
  const lineOnly = runAtStart && LINE_END.test(text.slice(start + run.length, start + run.length + 16));
  const split = pieces(words, runAtStart);
  const out: NameMention[] = [];
  for (const piece of split.pieces) {
    const texts = piece.words.map((w) => w.text);
    const first = piece.words[0]!;
    const title = honorific && first === words[0];
    let cached: CueKind | null | undefined;
    const cue = () => (cached === undefined ? (cached = cueBefore(text, first.start)) : cached);
    const kind = texts.length === 1 ? classifyOne(texts[0]!, title, cue) : classifyMany(texts, title, cue, split.heading);
    if (!kind) continue;
    const unproven = kind === 'person' && !title && !GIVEN_NAMES.has(lower(texts[0]!)) && !cue();
    const weak = kind === 'topic' || (unproven && (lineOnly || (piece.atStart && texts.length > 1)));
    out.push({ kind, name: canonicalName(piece.words), weak });
  }
  return out;
}

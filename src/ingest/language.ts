// Natural-language detection for document.language: an ISO 639-1 code such as 'en', or 'unknown'.
//
// eld (its extra-small n-gram set) was picked over tinyld and franc-min: on the 47 readability test pages
// that declare a language it named all 47 correctly (tinyld 44, franc-min 41), it answers in ISO 639-1
// codes (franc-min uses 639-3), says when a guess is unreliable, and detects in about 0.3 ms per page.
// Its tables take ~0.4 s and ~90 MB to load, so it is imported on first use, never at start-up.

type Eld = (typeof import('eld/extrasmall'))['eld'];

/** Fewer letters than this is too little text to judge: the declared language, else unknown. */
const MIN_LETTERS = 40;
/** Text judged: the start of the document, cut into up to WINDOWS parts that must agree. */
const SAMPLE_CHARS = 3000;
const WINDOWS = 3;
const MIN_WINDOW_CHARS = 200;
/** A whole-sample detection this far (relative) ahead of the runner-up needs no vote. */
const CLEAR_MARGIN = 0.1;

export const UNKNOWN_LANGUAGE = 'unknown';

export interface LanguageDetector {
  /** The language of `text`; `declared` is what the page says about itself (e.g. 'en-US'). */
  detect(text: string, declared?: string): string;
}

/** The primary subtag of a declared language tag ('en-US' -> 'en'), or undefined for none/undetermined. */
export function declaredCode(tag: string | undefined): string | undefined {
  const m = /^\s*([a-z]{2,3})(?:[-_][a-z0-9]{1,8})*\s*$/i.exec(tag ?? '');
  const code = m?.[1]?.toLowerCase();
  return code && !['und', 'mul', 'zxx', 'mis'].includes(code) ? code : undefined;
}

/** At least `n` letters in `s` (stops counting there). */
function hasLetters(s: string, n: number): boolean {
  const run = /\p{L}+/gu;
  let count = 0;
  for (let m = run.exec(s); m; m = run.exec(s)) if ((count += m[0].length) >= n) return true;
  return false;
}

/** Up to WINDOWS consecutive parts of the sample, cut at spaces. */
function windows(sample: string): string[] {
  const n = Math.max(1, Math.min(WINDOWS, Math.floor(sample.length / MIN_WINDOW_CHARS)));
  const size = Math.ceil(sample.length / n);
  const out: string[] = [];
  let start = 0;
  while (start < sample.length) {
    let end = Math.min(sample.length, start + size);
    const space = sample.indexOf(' ', end);
    if (end < sample.length && space !== -1 && space - end < 50) end = space;
    out.push(sample.slice(start, end));
    start = end;
  }
  return out;
}

/** The language most windows agree on (two thirds or more), undefined when none is reliable or they disagree. */
function vote(eld: Eld, parts: string[]): string | undefined {
  const votes = new Map<string, number>();
  let counted = 0;
  for (const part of parts) {
    if (!hasLetters(part, MIN_LETTERS)) continue;
    const r = eld.detect(part);
    if (!r.language || !r.isReliable()) continue;
    counted++;
    votes.set(r.language, (votes.get(r.language) ?? 0) + 1);
  }
  let best: [string, number] | undefined;
  for (const entry of votes) if (!best || entry[1] > best[1]) best = entry;
  return best && best[1] * 3 >= counted * 2 ? best[0] : undefined;
}

/** The sample's language when one detection is reliable and clearly ahead of the runner-up. */
function clearWinner(eld: Eld, sample: string): string | undefined {
  const r = eld.detect(sample);
  if (!r.language || !r.isReliable()) return undefined;
  const [first = 0, second = 0] = Object.values(r.getScores()).sort((a, b) => b - a);
  return first > 0 && (first - second) / first >= CLEAR_MARGIN ? r.language : undefined;
}

export function detectWith(eld: Eld, text: string, declared?: string): string {
  const stated = declaredCode(declared);
  const sample = text.slice(0, SAMPLE_CHARS);
  if (!hasLetters(sample, MIN_LETTERS)) return stated ?? UNKNOWN_LANGUAGE;
  // One detection settles most texts; a close call is judged part by part, which exposes mixed text.
  return clearWinner(eld, sample) ?? vote(eld, windows(sample)) ?? stated ?? UNKNOWN_LANGUAGE;
}

/** Loads the detector (once per process: the module cache keeps it). */
export async function createLanguageDetector(): Promise<LanguageDetector> {
  const { eld } = await import('eld/extrasmall');
  return { detect: (text, declared) => detectWith(eld, text, declared) };
}

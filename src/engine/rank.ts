import type { Candidate } from '../store/types.js';
import type { Sort } from './query/ast.js';
import { fold, stem } from './text/tokenize.js';

export interface RankOptions {
  phraseBoost: number;
  domainBoost: number;
}

export interface Ranked extends Candidate {
  /** Final score after boosts; full matches always rank before partial ones. */
  finalScore: number;
}

// Second-level labels under a country code, as in bbc.co.uk or abc.net.au: the site is the label before them.
const SECOND_LEVEL = new Set(['ac', 'co', 'com', 'edu', 'gov', 'ne', 'net', 'or', 'org']);

/** Index of the label naming the site: github in gist.github.com, bbc in bbc.co.uk. */
function siteLabel(labels: readonly string[]): number {
  const n = labels.length;
  if (n >= 3 && labels[n - 1]!.length === 2 && SECOND_LEVEL.has(labels[n - 2]!)) return n - 3;
  return Math.max(0, n - 2);
}

/** True when a bare word names the site: "github" for github.com or gist.github.com, or the whole domain. */
export function namesDomain(words: readonly string[], domain: string): boolean {
  if (!domain || words.length === 0) return false;
  const labels = domain.toLowerCase().split('.');
  const site = siteLabel(labels);
  const joined = words.join('.');
  return words.includes(labels[site]!) || joined === domain.toLowerCase() || joined === labels.slice(site).join('.');
}

const WORD_CHAR = /[\p{L}\p{N}]/u;

/** Stem roots of the words, for matching them in order (so "error handling" finds "errors handled"). */
export function phraseRoots(words: readonly string[]): string[] {
  return words.map((w) => {
    const s = stem(w);
    return s.endsWith('i') && !w.endsWith('i') ? s.slice(0, -1) : s;
  });
}

/** Tests folded text for words starting with each root, in order, separated only by non-word characters. */
export function phraseTester(roots: readonly string[]): (text: string) => boolean {
  const [first, ...rest] = roots;
  if (!first) return () => false;
  const tail = new RegExp(`^[\\p{L}\\p{N}]*${rest.map((r) => `[^\\p{L}\\p{N}]+${r}[\\p{L}\\p{N}]*`).join('')}`, 'u');
  return (text) => {
    for (let at = text.indexOf(first); at >= 0; at = text.indexOf(first, at + 1)) {
      if (at > 0 && WORD_CHAR.test(text[at - 1]!)) continue;
      if (tail.test(text.slice(at + first.length, at + first.length + 200))) return true;
    }
    return false;
  };
}

/** Applies the phrase and domain boosts, then orders by tier, score and recency. */
export function rerank(candidates: readonly Candidate[], bareWords: readonly string[], phrase: readonly string[] | null, opts: RankOptions, sort: Sort): Ranked[] {
  const relevance = sort.key === 'relevance';
  const hasPhrase = relevance && phrase ? phraseTester(phraseRoots(phrase)) : undefined;
  const ranked = candidates.map((c) => {
    let finalScore = c.score;
    if (relevance && c.score > 0) {
      if (hasPhrase?.(fold(c.chunkText))) finalScore *= opts.phraseBoost;
      if (namesDomain(bareWords, c.document.domain)) finalScore *= opts.domainBoost;
    }
    return { ...c, finalScore };
  });
  if (!relevance) return ranked;
  const tier = (c: Candidate) => (c.match === 'full' ? 0 : 1);
  const dir = sort.reverse ? -1 : 1;
  return ranked.sort((a, b) => tier(a) - tier(b) || dir * (b.finalScore - a.finalScore) || dir * (b.document.updatedAt - a.document.updatedAt));
}

import type { Candidate } from '../store/types.js';
import type { Sort } from './query/ast.js';

export interface RankOptions {
  phraseBoost: number;
  domainBoost: number;
}

export interface Ranked extends Candidate {
  /** Final score after boosts; full matches always rank before partial ones. */
  finalScore: number;
}

/** True when a bare word names the site: "github" for github.com or gist.github.com, or the whole domain. */
export function namesDomain(words: readonly string[], domain: string): boolean {
  if (!domain || words.length === 0) return false;
  const labels = domain.toLowerCase().split('.');
  const site = labels.length >= 2 ? labels[labels.length - 2]! : labels[0]!;
  const joined = words.join('.');
  return words.includes(site) || joined === domain.toLowerCase() || joined === labels.slice(-2).join('.');
}

/** Applies the phrase and domain boosts, then orders by tier, score and recency. */
export function rerank(candidates: readonly Candidate[], bareWords: readonly string[], opts: RankOptions, sort: Sort): Ranked[] {
  const relevance = sort.key === 'relevance';
  const ranked = candidates.map((c) => {
    let finalScore = c.score;
    if (relevance && c.score > 0) {
      if (c.phraseMatch) finalScore *= opts.phraseBoost;
      if (namesDomain(bareWords, c.document.domain)) finalScore *= opts.domainBoost;
    }
    return { ...c, finalScore };
  });
  if (!relevance) return ranked;
  const tier = (c: Candidate) => (c.match === 'full' ? 0 : 1);
  const dir = sort.reverse ? -1 : 1;
  return ranked.sort((a, b) => tier(a) - tier(b) || dir * (b.finalScore - a.finalScore) || dir * (b.document.updatedAt - a.document.updatedAt));
}

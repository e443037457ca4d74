// Ranking quality and latency figures shared by the quality benchmarks (SciFact, memory recall).

/** Relevance grades of one query's judged documents: id -> gain (> 0 relevant). */
export type Judgments = ReadonlyMap<string, number>;

/** nDCG@k with graded gains (linear gain, log2 discount), as BEIR and trec_eval compute it; 0 when nothing is relevant. */
export function ndcgAt(k: number, ranked: readonly string[], judged: Judgments): number {
  const dcg = (gains: number[]) => gains.reduce((sum, g, i) => sum + g / Math.log2(i + 2), 0);
  const seen = new Set<string>();
  const gains: number[] = [];
  for (const id of ranked) {
    if (gains.length === k) break;
    if (seen.has(id)) continue;
    seen.add(id);
    gains.push(Math.max(0, judged.get(id) ?? 0));
  }
  const ideal = [...judged.values()].filter((g) => g > 0).sort((a, b) => b - a).slice(0, k);
  const best = dcg(ideal);
  return best === 0 ? 0 : dcg(gains) / best;
}

/** Share of the relevant documents found in the first k distinct results; 0 when nothing is relevant. */
export function recallAt(k: number, ranked: readonly string[], judged: Judgments): number {
  const relevant = [...judged].filter(([, g]) => g > 0).map(([id]) => id);
  if (relevant.length === 0) return 0;
  const top = new Set<string>();
  for (const id of ranked) {
    if (top.size === k) break;
    top.add(id);
  }
  return relevant.filter((id) => top.has(id)).length / relevant.length;
}

export const mean = (xs: readonly number[]): number => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

/** The q-quantile (0..1) of xs by the nearest-rank method. */
export function quantile(xs: readonly number[], q: number): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!;
}

/** Rounds to `digits` decimals for reports. */
export const fixed = (n: number, digits = 3): number => Number(n.toFixed(digits));

// Reciprocal rank fusion (Cormack, Clarke and Büttcher, SIGIR 2009): an item's fused score is the sum
// over the lists that hold it of weight / (k + rank), rank starting at 1. Scores of different rankers
// (BM25, cosine) are never compared, only ranks, so no calibration is needed.

export const RRF_K = 60;

export interface RankedList<T> {
  items: readonly T[];
  /** Multiplies this list's contributions; default 1. */
  weight?: number;
}

export interface Fused<T> {
  /** The first occurrence of the item, from the earliest list that holds it. */
  item: T;
  key: string;
  score: number;
  /** 1-based rank in each list (undefined where absent), in the order the lists were given. */
  ranks: Array<number | undefined>;
}

/**
 * Fuses ranked lists into one, best first. Items are identified by `key`; a key repeated within one list
 * counts at its best rank only. Ties keep the order of first appearance (list order, then rank).
 */
export function reciprocalRankFusion<T>(lists: ReadonlyArray<RankedList<T>>, key: (item: T) => string, k = RRF_K): Array<Fused<T>> {
  if (!(k >= 0)) throw new RangeError('k must be a non-negative number');
  const byKey = new Map<string, Fused<T> & { order: number }>();
  lists.forEach((list, li) => {
    const weight = list.weight ?? 1;
    list.items.forEach((item, i) => {
      const id = key(item);
      let entry = byKey.get(id);
      if (!entry) {
        entry = { item, key: id, score: 0, ranks: new Array<number | undefined>(lists.length).fill(undefined), order: byKey.size };
        byKey.set(id, entry);
      }
      if (entry.ranks[li] !== undefined) return;
      entry.ranks[li] = i + 1;
      entry.score += weight / (k + i + 1);
    });
  });
  return [...byKey.values()]
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .map(({ order: _order, ...fused }) => fused);
}

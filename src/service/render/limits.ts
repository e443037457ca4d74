// Bounds of rendered-inspection results (seed 004: the serialized result stays within 60 KiB).

export const INSPECTION_RESULT_BYTES = 60 * 1024;
/** Room kept for the trusted facts around the page-derived part. */
const RESERVE_BYTES = 2048;

const jsonBytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value), 'utf8');

/** The first `max` code points of `text`, shortened further until its JSON fits the byte bound. */
export function fitCodePoints(text: string, max: number, maxBytes: number): { text: string; total: number; kept: number; truncated: boolean } {
  const points = [...text];
  let keep = Math.min(points.length, max);
  let out = points.slice(0, keep).join('');
  const budget = maxBytes - RESERVE_BYTES;
  for (let size = jsonBytes(out); size > budget; size = jsonBytes(out)) {
    keep = Math.floor((keep * budget) / size) - 1;
    out = points.slice(0, Math.max(0, keep)).join('');
  }
  return { text: out, total: points.length, kept: Math.max(0, keep), truncated: keep < points.length };
}

/** The longest prefix of `items` whose JSON fits the byte bound (DOM nodes: parents come before children). */
export function fitItems<T>(items: T[], maxBytes: number): { items: T[]; truncated: boolean } {
  const budget = maxBytes - RESERVE_BYTES;
  let used = 2;
  for (let i = 0; i < items.length; i++) {
    used += jsonBytes(items[i]) + 1;
    if (used > budget) return { items: items.slice(0, i), truncated: true };
  }
  return { items, truncated: false };
}

import { createHash } from 'node:crypto';

// Request-key fingerprints: canonical JSON (object keys sorted, undefined members dropped) hashed.

export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** Same kind and same normalized parameters give the same fingerprint. */
export function fingerprint(kind: string, params: Record<string, unknown>): string {
  return createHash('sha256').update(canonicalJson({ kind, params })).digest('hex');
}

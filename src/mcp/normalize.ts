// Normalization of untrusted values before they reach a client (DESIGN.md, "One result envelope").

// Cc, Cf, Co, Cs except \n and \t; lone surrogates are made well-formed first, so Cs only catches leftovers.
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Co}\p{Cs}]/gu;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Well-formed UTF-16 (lone surrogates -> U+FFFD), CRLF/CR -> LF, control/format/private-use removed except \n and \t. */
export function normalizeText(s: string): string {
  const lf = s.replace(LONE_SURROGATE, '\uFFFD').replace(/\r\n?/g, '\n');
  return lf.replace(INVISIBLE, (c: string) => (c === '\n' || c === '\t' ? c : ''));
}

/** Deep copy with every string (object keys included) normalized; non-finite numbers become null. */
export function normalizeUntrusted(value: unknown): unknown {
  if (typeof value === 'string') return normalizeText(value);
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (value === null || typeof value !== 'object') return typeof value === 'boolean' ? value : value === undefined ? undefined : null;
  if (Array.isArray(value)) return value.map((v) => normalizeUntrusted(v) ?? null);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const nv = normalizeUntrusted(v);
    if (nv !== undefined) out[normalizeText(k)] = nv;
  }
  return out;
}

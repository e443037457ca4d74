// trove:// resource URIs, built from raw ids by percent-encoding each part (never by concatenating raw ids).

export const SCHEME = 'trove://';

/**
 * One path segment or query value, percent-encoded with encodeURIComponent; a segment of only dots
 * is encoded too (%2E), so no URI library ever resolves it as `.` or `..`.
 */
export function encodeComponent(value: string): string {
  const encoded = encodeURIComponent(value);
  return /^\.+$/.test(encoded) ? encoded.replaceAll('.', '%2E') : encoded;
}

/** A trove URI from raw (unencoded) path segments and query values; undefined values are left out. */
export function troveUri(instanceId: string, segments: readonly string[], query: Record<string, string | number | undefined> = {}): string {
  const path = segments.map(encodeComponent).join('/');
  const pairs = Object.entries(query).filter(([, v]) => v !== undefined).map(([k, v]) => `${encodeComponent(k)}=${encodeComponent(String(v))}`);
  return `${SCHEME}${encodeComponent(instanceId)}/${path}${pairs.length ? `?${pairs.join('&')}` : ''}`;
}

type Query = Record<string, string | number | undefined>;

/** The catalog's resources (templates in mcp/resources-catalog.ts). */
export const catalogUri = {
  status: (instanceId: string) => troveUri(instanceId, ['status']),
  document: (instanceId: string, documentId: string, query: Query = {}) => troveUri(instanceId, ['documents', documentId], query),
  text: (instanceId: string, documentId: string, query: Query = {}) => troveUri(instanceId, ['documents', documentId, 'text'], query),
  source: (instanceId: string, documentId: string, query: Query = {}) => troveUri(instanceId, ['documents', documentId, 'source'], query),
};

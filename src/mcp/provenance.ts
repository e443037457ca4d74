// Client provenance (seed 001): the source label write tools record.

/** Trimmed, lower-cased, each run of non-ASCII-alphanumerics one '-', '-' trimmed; '' when nothing is left. */
export function normalizeClientName(name: unknown): string {
  if (typeof name !== 'string') return '';
  return name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** `mcp:<client>`, or the bare `mcp` when the client gave no usable name. */
export function clientSource(name: unknown): string {
  const client = normalizeClientName(name);
  return client ? `mcp:${client}` : 'mcp';
}

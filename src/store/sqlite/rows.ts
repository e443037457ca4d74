import type { DocumentKind, DocumentRecord, Scope } from '../types.js';

export interface DocumentRow {
  seq: number;
  id: string;
  kind: DocumentKind;
  url: string;
  title: string;
  domain: string;
  language: string;
  label: string | null;
  owner_id: number | null;
  bank_id: number | null;
  source: string;
  metadata: string;
  added_at: number;
  updated_at: number;
  version_count: number;
  current_version_id: number | null;
}

/** A metadata column as an object; anything else (corrupt JSON, an array) as {}. */
export function parseMetadata(text: string): Record<string, unknown> {
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** SQL condition (on documents alias `d`) and its parameters for a scope. */
export function scopeCondition(scope: Scope | undefined, alias = 'd'): { sql: string; params: unknown[] } | undefined {
  if (!scope || scope.all) return undefined;
  if (scope.userId === null) return { sql: `${alias}.owner_id IS NULL`, params: [] };
  return { sql: `(${alias}.owner_id IS NULL OR ${alias}.owner_id = ?)`, params: [scope.userId] };
}

export function toRecord(row: DocumentRow): DocumentRecord {
  return {
    id: row.id,
    kind: row.kind,
    url: row.url,
    title: row.title,
    domain: row.domain,
    language: row.language,
    label: row.label,
    source: row.source,
    metadata: parseMetadata(row.metadata),
    addedAt: row.added_at,
    updatedAt: row.updated_at,
    versionCount: row.version_count,
    ownerId: row.owner_id,
    bankId: row.bank_id,
  };
}

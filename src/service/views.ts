import type { DocumentRecord, VersionRecord } from '../store/types.js';

// The JSON shapes every transport returns: ISO times, snake_case keys.

export interface DocumentView {
  id: string;
  type: string;
  url: string;
  title: string;
  domain: string;
  language: string;
  label: string | null;
  source: string;
  metadata: Record<string, unknown>;
  added: string;
  updated: string;
  version_count: number;
}

export interface VersionView {
  id: number;
  sha256: string;
  captured: string;
  text_length: number;
}

export const iso = (ms: number): string => new Date(ms).toISOString();

export function toDocumentView(d: DocumentRecord): DocumentView {
  return {
    id: d.id,
    type: d.kind,
    url: d.url,
    title: d.title,
    domain: d.domain,
    language: d.language,
    label: d.label,
    source: d.source,
    metadata: d.metadata,
    added: iso(d.addedAt),
    updated: iso(d.updatedAt),
    version_count: d.versionCount,
  };
}

export function toVersionView(v: VersionRecord): VersionView {
  return { id: v.id, sha256: v.sha256, captured: iso(v.capturedAt), text_length: v.textLength };
}

/** True for a memory kept in a bank: it is read and removed through its bank, never by id from outside it. */
export function inBank(doc: DocumentRecord): boolean {
  return doc.bankId !== null && doc.bankId !== undefined;
}

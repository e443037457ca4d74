import { createHash } from 'node:crypto';
import type { App } from '../app.js';
import { TroveError } from '../errors.js';
import type { CatalogAccess, CatalogDocument, VersionRecord } from '../store/types.js';
import { type Grant, authorize } from './access.js';
import type { TextFacts } from './catalog-state.js';
import { catalogUri } from './catalog-uris.js';
import { indexCodePoints, textPage } from './paging.js';

// The catalog read tools (seed 004 applied to trove): documents are its stories, versions its variants.

export const MAX_ID_BYTES = 2048;
export const TEXT_PAGE = { default: 8192, max: 32_768 } as const;
/** Versions get_document lists at most: the latest ones. */
export const MAX_VERSIONS_LISTED = 100;

/**
 * Bytes a text or source page may take once JSON-encoded: the result bound (mcp.max_result_bytes) less a
 * reserve for the rest of the envelope (ids, hashes, the echoed request).
 */
export function pageBudget(app: App): number {
  const max = app.config.mcp.max_result_bytes;
  return max - Math.min(16_384, Math.floor(max / 2));
}

/** IDs are exact strings of 1..2048 UTF-8 bytes, compared as they are (never normalized as paths). */
export function checkId(value: string, field: string): string {
  if (value === '') throw new TroveError('INVALID_ARGUMENT', `${field} is empty`, { field });
  const bytes = Buffer.byteLength(value, 'utf8');
  if (bytes > MAX_ID_BYTES) throw new TroveError('INVALID_ARGUMENT', `${field} is ${bytes} UTF-8 bytes; ids are at most ${MAX_ID_BYTES}`, { field, max_bytes: MAX_ID_BYTES });
  return value;
}

function mayReadMemories(grant: Grant): boolean {
  try {
    authorize(grant.principal, 'memory.read');
    return true;
  } catch {
    return false;
  }
}

/** What the caller sees: its grant's scope, and memories only of the connection's bank (its own bank of that name). */
export async function catalogAccess(app: App, grant: Grant, bank?: string): Promise<CatalogAccess> {
  if (bank === undefined || !mayReadMemories(grant)) return { scope: grant.scope, bankId: null };
  const record = await app.store.getBank(grant.writeOwner, bank);
  return { scope: grant.scope, bankId: record?.id ?? null };
}

/** An optional whole-number argument within [min, max]; INVALID_ARGUMENT otherwise. */
export function checkRange(value: number | undefined, field: string, min: number, max: number): number | undefined {
  if (value !== undefined && !(Number.isSafeInteger(value) && value >= min && value <= max)) {
    throw new TroveError('INVALID_ARGUMENT', `${field} must be a whole number from ${min} to ${max}`, { field, min, max });
  }
  return value;
}

/** STALE_REVISION when the caller pinned a revision and the catalog is at any other one now. */
export function checkRevision(expected: number | undefined, current: number): void {
  if (expected !== undefined && expected !== current) {
    throw new TroveError('STALE_REVISION', `the catalog is at revision ${current}, not ${expected}; read it again`, { expectedRevision: expected, revision: current });
  }
}

/** A visible document by ULID or exact url; NOT_FOUND (also for what the caller may not see). */
export async function requireDocument(app: App, access: CatalogAccess, documentId: string): Promise<CatalogDocument> {
  const doc = await app.store.findCatalogDocument(checkId(documentId, 'documentId'), access);
  if (!doc) throw new TroveError('NOT_FOUND', 'no document with that id or url', { field: 'documentId' });
  return doc;
}

export interface DocumentUris {
  document: string;
  text: string;
  /** Only local documents have a source. */
  source?: string;
}

export function documentUris(instanceId: string, doc: CatalogDocument): DocumentUris {
  const uris: DocumentUris = { document: catalogUri.document(instanceId, doc.id), text: catalogUri.text(instanceId, doc.id) };
  if (doc.kind === 'local') uris.source = catalogUri.source(instanceId, doc.id);
  return uris;
}

export interface DocumentDetail {
  instanceId: string;
  revision: number;
  document: CatalogDocument;
  /** Oldest first; the latest MAX_VERSIONS_LISTED when there are more. */
  versions: VersionRecord[];
  versionsTruncated: boolean;
  uris: DocumentUris;
}

export async function getCatalogDocument(app: App, access: CatalogAccess, input: { documentId: string; expectedRevision?: number | undefined }): Promise<DocumentDetail> {
  const state = await app.store.instanceState();
  checkRevision(input.expectedRevision, state.revision);
  const document = await requireDocument(app, access, input.documentId);
  const all = await app.store.listVersions(document.id);
  const versions = all.slice(-MAX_VERSIONS_LISTED);
  return { instanceId: state.instanceId, revision: state.revision, document, versions, versionsTruncated: versions.length < all.length, uris: documentUris(state.instanceId, document) };
}

export interface TextRead {
  instanceId: string;
  revision: number;
  documentId: string;
  versionId: number;
  offset: number;
  /** Code points returned. */
  count: number;
  /** Code points in the whole text. */
  length: number;
  /** Hex SHA-256 of the whole text's UTF-8 bytes. */
  sha256: string;
  /** Where the next page starts; absent at the end. */
  nextOffset?: number;
  /** Fewer than `limit` code points because of the result bound. */
  shortened: boolean;
  text: string;
  uri: string;
}

export interface TextInput {
  documentId: string;
  versionId?: number | undefined;
  offset?: number | undefined;
  limit?: number | undefined;
  expectedRevision?: number | undefined;
}

function textFacts(app: App, key: string, text: string): TextFacts {
  let facts = app.catalog.texts.get(key);
  if (!facts) {
    facts = { sha256: createHash('sha256').update(text, 'utf8').digest('hex'), index: indexCodePoints(text) };
    app.catalog.texts.set(key, facts);
  }
  return facts;
}

/** A page of a version's stored text in code points, within `maxBytes` once JSON-encoded. */
export async function readDocumentText(app: App, access: CatalogAccess, input: TextInput, maxBytes: number): Promise<TextRead> {
  checkRange(input.offset, 'offset', 0, Number.MAX_SAFE_INTEGER);
  checkRange(input.limit, 'limit', 1, TEXT_PAGE.max);
  checkRange(input.versionId, 'versionId', 1, Number.MAX_SAFE_INTEGER);
  const state = await app.store.instanceState();
  checkRevision(input.expectedRevision, state.revision);
  const doc = await requireDocument(app, access, input.documentId);
  const versionId = input.versionId ?? doc.currentVersionId;
  const text = versionId === null ? undefined : await app.store.getText(doc.id, versionId);
  if (versionId === null || text === undefined) throw new TroveError('TEXT_NOT_FOUND', 'the document has no stored text for that version', { field: 'versionId' });
  const facts = textFacts(app, `${doc.id}:${versionId}`, text);
  const offset = input.offset ?? 0;
  if (offset > facts.index.length) throw new TroveError('INVALID_ARGUMENT', `offset ${offset} is past the end of the text (${facts.index.length} code points)`, { field: 'offset', length: facts.index.length });
  const page = textPage(text, facts.index, offset, input.limit ?? TEXT_PAGE.default, maxBytes);
  if (page.count === 0 && offset < facts.index.length) throw new TroveError('RESULT_TOO_LARGE', 'not even one character of the text fits the result bound', { max_bytes: maxBytes });
  const end = offset + page.count;
  const read: TextRead = {
    instanceId: state.instanceId, revision: state.revision, documentId: doc.id, versionId, offset, count: page.count, length: facts.index.length,
    sha256: facts.sha256, shortened: page.shortened, text: page.text, uri: catalogUri.text(state.instanceId, doc.id, { offset, limit: input.limit, versionId: input.versionId }),
  };
  if (end < facts.index.length) read.nextOffset = end;
  return read;
}

import type { App } from '../app.js';
import { TroveError } from '../errors.js';
import type { ChunkFilter, ChunkHit, DocumentKind, EntityRef } from '../store/types.js';
import type { Grant } from './access.js';
import { visibleChunks } from './banks.js';
import { rankChunks } from './keyword.js';
import { type RecallMode, rankedChunks } from './memory.js';

// The memory tree (seed 001) over every chunk the caller may see: web and local documents of their scope and
// the memories of their current bank. Ids: a chunk is its row id as a decimal string; an entity its row id as
// a decimal string; a source is `<kind>:<label>` (web:extension, web:import:firefox, memory:mcp:claude-desktop,
// local:<folder label>, local:cli), where the label is the document's source, or a local document's label.

export const DEFAULT_K = 10;
export const MAX_K = 50;
export const SOURCE_KINDS: readonly DocumentKind[] = ['web', 'local', 'memory'];
const ID = /^\d{1,16}$/;

export interface TreeCaller {
  grant: Grant;
  /** The connection's bank; its memories are the only ones visible. */
  bank: string;
}

export interface ChunkView {
  chunk_id: string;
  document_id: string;
  source_kind: DocumentKind;
  source_id: string;
  title: string;
  url: string;
  ordinal: number;
  text: string;
  score: number;
  updated_ms: number;
}

export interface EntityView {
  id: string;
  kind: string;
  name: string;
  mentions: number;
}

export const sourceId = (kind: string, label: string): string => `${kind}:${label}`;

/** k as seed 001 has it: default 10, capped at 50 (zod has refused non-integers and k < 1 already). */
export const effectiveK = (k: number | undefined): number => Math.min(k ?? DEFAULT_K, MAX_K);

export function parseSourceId(id: string): { kind: DocumentKind; label: string } {
  const at = id.indexOf(':');
  const kind = id.slice(0, at) as DocumentKind;
  if (at < 0 || !SOURCE_KINDS.includes(kind) || at === id.length - 1) {
    throw new TroveError('INVALID_ARGUMENT', 'a source id is <kind>:<label> with kind web, local or memory (see tree.list_sources)', { field: 'source_ids' });
  }
  return { kind, label: id.slice(at + 1) };
}

function numericId(id: string, field: string): number {
  if (!ID.test(id)) throw new TroveError('INVALID_ARGUMENT', `${field} must be an id as returned by trove (decimal digits)`, { field });
  return Number(id);
}

export function toChunkView(h: ChunkHit): ChunkView {
  return {
    chunk_id: String(h.chunkId), document_id: h.documentId, source_kind: h.kind, source_id: sourceId(h.kind, h.sourceLabel),
    title: h.title, url: h.url, ordinal: h.ordinal, text: h.text, score: Math.round(h.score * 1e4) / 1e4, updated_ms: h.updatedAt,
  };
}

const entityView = (e: EntityRef): EntityView => ({ id: String(e.id), kind: e.kind, name: e.name, mentions: e.mentions });

function checkQuery(query: string): void {
  if (!query.trim()) throw new TroveError('INVALID_ARGUMENT', 'query is empty', { field: 'query' });
}

/** memory.search: keyword ranking over the visible chunks. */
export async function searchTree(app: App, c: TreeCaller, p: { query: string; k?: number | undefined }): Promise<ChunkView[]> {
  checkQuery(p.query);
  const hits = await rankChunks(app, p.query, await visibleChunks(app, c.grant, c.bank), effectiveK(p.k));
  return hits.map(toChunkView);
}

/** memory.recall: the recall ranking (hybrid with embeddings, else keyword, said so) over the visible chunks. */
export async function recallTree(app: App, c: TreeCaller, p: { query: string; k?: number | undefined }): Promise<{ chunks: ChunkView[]; mode: RecallMode; notice?: string | undefined }> {
  checkQuery(p.query);
  const r = await rankedChunks(app, p.query, await visibleChunks(app, c.grant, c.bank), effectiveK(p.k));
  return { chunks: r.hits.map(toChunkView), mode: r.mode, notice: r.notice };
}

/** tree.read_chunk: one visible chunk with its entities; NOT_FOUND for a missing chunk and for one the caller may not see alike. */
export async function readChunk(app: App, c: TreeCaller, chunkId: string): Promise<ChunkView & { start: number; end: number; entities: EntityView[] }> {
  const id = numericId(chunkId, 'chunk_id');
  const hit = await app.store.getChunk(id, await visibleChunks(app, c.grant, c.bank));
  if (!hit) throw new TroveError('NOT_FOUND', `no chunk ${chunkId}`, { field: 'chunk_id' });
  const entities = (await app.store.chunkEntities([id])).get(id) ?? [];
  return { ...toChunkView(hit), start: hit.start, end: hit.end, entities: entities.map(entityView) };
}

export interface BrowseParams {
  source_kinds?: DocumentKind[] | undefined;
  source_ids?: string[] | undefined;
  entity_ids?: string[] | undefined;
  since_ms?: number | undefined;
  until_ms?: number | undefined;
  query?: string | undefined;
  k?: number | undefined;
  offset?: number | undefined;
}

/** tree.browse: visible chunks by source, entity and time, newest first, or best first for a query. */
export async function browseTree(app: App, c: TreeCaller, p: BrowseParams): Promise<{ chunks: ChunkView[]; next_offset: number | null }> {
  const k = effectiveK(p.k);
  const offset = p.offset ?? 0;
  const filter: ChunkFilter = {
    ...(await visibleChunks(app, c.grant, c.bank)),
    kinds: p.source_kinds,
    sources: p.source_ids?.map(parseSourceId),
    entityIds: p.entity_ids?.map((id) => numericId(id, 'entity_ids')),
    since: p.since_ms,
    until: p.until_ms,
  };
  const query = p.query?.trim();
  // One more than asked says whether a next page exists.
  const hits = query ? await rankChunks(app, query, filter, k + 1, offset) : await app.store.searchChunks({ filter, limit: k + 1, offset, weights: { title: 0, domain: 0, url: 0, text: 1 } });
  return { chunks: hits.slice(0, k).map(toChunkView), next_offset: hits.length > k ? offset + k : null };
}

/** tree.top_entities: entities most mentioned in the visible chunks (another user's mentions never count). */
export async function topEntities(app: App, c: TreeCaller, p: { kind?: string | undefined; k?: number | undefined }): Promise<Array<EntityView & { chunk_count: number; last_seen_ms: number }>> {
  const rows = await app.store.topEntities(await visibleChunks(app, c.grant, c.bank), { kind: p.kind, limit: effectiveK(p.k) });
  return rows.map((e) => ({ id: String(e.id), kind: e.kind, name: e.name, mentions: e.mentions, chunk_count: e.chunkCount, last_seen_ms: e.lastSeen }));
}

export interface SourceView {
  id: string;
  kind: DocumentKind;
  label: string;
  document_count: number;
  chunk_count: number;
  last_activity: number;
}

/** tree.list_sources; user_email_hint keeps the sources whose chunks mention that email address. */
export async function listSources(app: App, c: TreeCaller, p: { user_email_hint?: string | undefined }): Promise<SourceView[]> {
  const email = p.user_email_hint?.trim().toLowerCase() || undefined;
  const rows = await app.store.listSources(await visibleChunks(app, c.grant, c.bank), { email });
  return rows.map((s) => ({ id: sourceId(s.kind, s.label), kind: s.kind, label: s.label, document_count: s.documentCount, chunk_count: s.chunkCount, last_activity: s.lastActivity }));
}

import { createHash } from 'node:crypto';
import type { App } from '../app.js';
import { chunkText } from '../engine/chunk.js';
import { extractEntities } from '../engine/entities.js';
import { TroveError } from '../errors.js';
import { redactText } from '../ingest/redact.js';
import { type ChunkFilter, type ChunkHit, MAX_CHUNKS } from '../store/types.js';
import type { Grant } from './access.js';
import { bankOwner, checkBankName, findBank } from './banks.js';
import { hybridChunks } from './hybrid.js';
import { rankChunks } from './keyword.js';

// retain and recall (seed 003): facts an assistant keeps in a bank and finds again, with no model needed.

/** Hindsight's memory types; see memoryType for how one is chosen. */
export type MemoryType = 'world' | 'experience' | 'opinion' | 'observation';

export interface MemoryHit {
  id: string;
  text: string;
  type: MemoryType;
  context: string;
  event_date: string | null;
  score: number;
}

export type RecallMode = 'keyword' | 'hybrid';

export const DEFAULT_CONTEXT = 'general';
/** Longest memory kept, in characters after normalization (a fact, not a document). */
export const MAX_MEMORY_CHARS = 16_384;
export const MAX_CONTEXT_CHARS = 200;
export const DEFAULT_MAX_RESULTS = 10;
export const MAX_RESULTS = 50;
export const KEYWORD_NOTICE = 'no embeddings endpoint is configured ([semantic]); keyword ranking was used';

/** NFC, whitespace runs collapsed to one space, trimmed: the form duplicates are compared (and memories stored) in. */
export function normalizeMemory(text: string): string {
  return text.normalize('NFC').replace(/\s+/gu, ' ').trim();
}

const OPINION = /\b(i|we) (think|believe|feel|guess|suspect|doubt)\b|\bin (my|our) (opinion|view)\b/i;
const FIRST_PERSON = /\b(i|i'm|i've|i'd|i'll|me|my|mine|myself|we|we're|we've|us|our|ours)\b/i;

/**
 * The memory's type without a model: a first-person belief ("I think ...") is an opinion, another first-person
 * statement ("I moved to Lyon") an experience, anything else a fact about the world ("User prefers Python").
 * `observation` is never chosen by this rule.
 */
export function memoryType(text: string): MemoryType {
  if (OPINION.test(text)) return 'opinion';
  return FIRST_PERSON.test(text) ? 'experience' : 'world';
}

/** The first date the text mentions (as the entity extractor writes it), else null. */
export function eventDate(text: string): string | null {
  return extractEntities(text).find((e) => e.kind === 'date')?.name ?? null;
}

function checkContext(context: string | undefined): string {
  const c = normalizeMemory(context ?? '') || DEFAULT_CONTEXT;
  if (c.length > MAX_CONTEXT_CHARS) throw new TroveError('INVALID_ARGUMENT', `context is longer than ${MAX_CONTEXT_CHARS} characters`, { field: 'context' });
  return c;
}

export interface RetainParams {
  bank: string;
  content: string;
  context?: string | undefined;
  /** Provenance: `mcp:<client>`, `api`, `cli`. */
  source: string;
  grant: Grant;
  now?: number | undefined;
}

export interface RetainResult {
  id: string;
  merged: boolean;
  retained_count: number;
}

/** Stores a memory in the caller's bank (made on first use); the same text again is merged, not stored twice. */
export async function retain(app: App, p: RetainParams): Promise<RetainResult> {
  const bank = checkBankName(p.bank);
  if (p.grant.principal.kind === 'anonymous') throw new TroveError('UNAUTHORIZED', 'this needs an access token');
  const text = normalizeMemory(redactText(app.rules.redactor, p.content));
  if (!text) throw new TroveError('INVALID_ARGUMENT', 'content is empty', { field: 'content' });
  if (text.length > MAX_MEMORY_CHARS) throw new TroveError('TOO_LARGE', `a memory holds at most ${MAX_MEMORY_CHARS} characters`, { field: 'content', max: MAX_MEMORY_CHARS });
  const context = checkContext(p.context === undefined ? undefined : redactText(app.rules.redactor, p.context));
  const at = p.now ?? Date.now();
  const r = await app.store.retainMemory({
    ownerId: bankOwner(p.grant),
    bank,
    document: {
      title: text.length > 120 ? `${text.slice(0, 119)}…` : text,
      domain: '',
      language: 'unknown',
      label: null,
      source: p.source,
      metadata: { context, type: memoryType(text), event_date: eventDate(text), retained_count: 1 },
      text,
      html: null,
      rawHtml: null,
      sha256: createHash('sha256').update(text).digest('hex'),
      capturedAt: at,
      chunks: chunkText(text, { size: app.config.indexer.chunk_chars, maxChunks: MAX_CHUNKS }),
    },
  });
  app.log.info(r.merged ? 'memory merged' : 'memory stored', { id: r.document.id, bank, source: p.source });
  return { id: r.document.id, merged: r.merged, retained_count: r.retainedCount };
}

export interface RankedChunks {
  hits: ChunkHit[];
  mode: RecallMode;
  notice?: string | undefined;
}

/**
 * The one ranking recall, reflect and memory.recall use. Fusing a vector list into it (reciprocal rank
 * fusion, when app.embeddings is configured) happens here; without embeddings it is keyword ranking, said so.
 */
export async function rankedChunks(app: App, query: string, filter: ChunkFilter, k: number): Promise<RankedChunks> {
  const hits = await rankChunks(app, query, filter, k);
  if (!app.embeddings) return { hits, mode: 'keyword', notice: KEYWORD_NOTICE };
  // The vector list fused in; an endpoint failing now falls back to these keyword hits, with a notice.
  return hybridChunks(app, query, filter, hits, k);
}

/** A memory chunk as seed 003's result: the whole memory's text, type, context and event date. */
export function toMemoryHit(hit: ChunkHit, text: string = hit.text): MemoryHit {
  const m = hit.metadata;
  const type = (['world', 'experience', 'opinion', 'observation'] as const).find((t) => t === m.type) ?? 'world';
  return {
    id: hit.documentId,
    text,
    type,
    context: typeof m.context === 'string' ? m.context : DEFAULT_CONTEXT,
    event_date: typeof m.event_date === 'string' ? m.event_date : null,
    score: Math.round(hit.score * 1e4) / 1e4,
  };
}

/** max_results: absent -> 10; above 50 -> 50; below 1 or not a whole number -> INVALID_ARGUMENT. */
export function checkMaxResults(n: number | undefined, field = 'max_results'): number {
  if (n === undefined) return DEFAULT_MAX_RESULTS;
  if (!Number.isInteger(n) || n < 1) throw new TroveError('INVALID_ARGUMENT', `${field} must be a whole number of at least 1`, { field });
  return Math.min(n, MAX_RESULTS);
}

export interface RecallParams {
  bank: string;
  query: string;
  maxResults?: number | undefined;
  grant: Grant;
}

export interface RecallResult {
  results: MemoryHit[];
  mode: RecallMode;
  notice?: string | undefined;
}

export interface MemoryEvidence {
  items: Array<{ memory: MemoryHit; chunkId: number }>;
  mode: RecallMode;
  notice?: string | undefined;
}

/** The `max` best memories of the caller's bank for `query`, one per memory, with the chunk that matched. */
export async function memoryEvidence(app: App, p: { bank: string; query: string; max: number; grant: Grant }): Promise<MemoryEvidence> {
  if (!p.query.trim()) throw new TroveError('INVALID_ARGUMENT', 'query is empty', { field: 'query' });
  const bank = await findBank(app, p.grant, p.bank);
  if (!bank) return { items: [], mode: 'keyword', notice: app.embeddings ? undefined : KEYWORD_NOTICE };
  const filter: ChunkFilter = { scope: p.grant.scope, bankId: bank.id, kinds: ['memory'] };
  // A long memory has several chunks: ask for a few more and keep each memory's best.
  const ranked = await rankedChunks(app, p.query, filter, p.max * 2);
  const seen = new Set<string>();
  const best = ranked.hits.filter((h) => !seen.has(h.documentId) && seen.add(h.documentId)).slice(0, p.max);
  const items: MemoryEvidence['items'] = [];
  for (const h of best) items.push({ memory: toMemoryHit(h, (await app.store.getText(h.documentId)) ?? h.text), chunkId: h.chunkId });
  return { items, mode: ranked.mode, notice: ranked.notice };
}

/** Memories of the caller's bank best first, one per memory; a bank that does not exist yet holds none. */
export async function recall(app: App, p: RecallParams): Promise<RecallResult> {
  const max = checkMaxResults(p.maxResults);
  const r = await memoryEvidence(app, { bank: p.bank, query: p.query, max, grant: p.grant });
  return { results: r.items.map((i) => i.memory), mode: r.mode, notice: r.notice };
}

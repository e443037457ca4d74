import type { App } from '../app.js';
import { reciprocalRankFusion } from '../engine/fusion.js';
import { toPublicError } from '../errors.js';
import type { ChunkFilter, ChunkHit } from '../store/types.js';

// The vector half of hybrid ranking: the query's nearest chunks, fused with a keyword list by
// reciprocal rank fusion. Whatever goes wrong on the vector side, the keyword list still answers.

export const NOT_CONFIGURED_NOTICE = 'semantic search is not configured on this server ([semantic] enabled = false); keyword ranking was used';

export type VectorList = { ok: true; hits: ChunkHit[] } | { ok: false; notice: string };

/** The query's nearest visible chunks, best first (score = cosine similarity), or a notice saying why there are none. */
export async function vectorChunks(app: App, query: string, filter: ChunkFilter, k: number, signal?: AbortSignal): Promise<VectorList> {
  const provider = app.embeddings;
  if (!provider) return { ok: false, notice: NOT_CONFIGURED_NOTICE };
  if (!query.trim()) return { ok: true, hits: [] };
  let vector: Float32Array;
  try {
    [vector] = (await provider.embed([query], signal, { timeoutMs: app.config.semantic.query_timeout_ms })) as [Float32Array];
  } catch (err) {
    if (signal?.aborted) throw err;
    const pub = toPublicError(err);
    app.log.warn('semantic search fell back to keywords', { code: pub.code, message: pub.message });
    return { ok: false, notice: `the embeddings endpoint failed (${pub.code}); keyword ranking was used` };
  }
  let hits: ChunkHit[] | undefined;
  try {
    hits = await app.store.searchVectors({ space: { model: provider.model, dimensions: vector.length }, vector, filter, limit: k });
  } catch (err) {
    const pub = toPublicError(err);
    app.log.error('vector search failed', { code: pub.code, error: String((err as Error)?.stack ?? err) });
    return { ok: false, notice: `vector search failed (${pub.code}); keyword ranking was used` };
  }
  if (!hits) return { ok: false, notice: `no passages are embedded with ${provider.model} yet; keyword ranking was used` };
  return { ok: true, hits };
}

/** Keyword and vector chunk lists fused by chunk, best first; score becomes the fused score. */
export function fuseChunks(keyword: readonly ChunkHit[], vector: readonly ChunkHit[], k: number): ChunkHit[] {
  return reciprocalRankFusion([{ items: keyword }, { items: vector }], (h) => String(h.chunkId))
    .slice(0, k)
    .map((f) => ({ ...f.item, score: f.score }));
}

export interface HybridChunks {
  hits: ChunkHit[];
  mode: 'keyword' | 'hybrid';
  notice?: string | undefined;
}

/** Hybrid ranking of chunks over a keyword list already made: the vector list fused in, or the keyword list with a notice. */
export async function hybridChunks(app: App, query: string, filter: ChunkFilter, keyword: ChunkHit[], k: number, signal?: AbortSignal): Promise<HybridChunks> {
  const vector = await vectorChunks(app, query, filter, k, signal);
  if (!vector.ok) return { hits: keyword.slice(0, k), mode: 'keyword', notice: vector.notice };
  return { hits: fuseChunks(keyword, vector.hits, k), mode: 'hybrid' };
}

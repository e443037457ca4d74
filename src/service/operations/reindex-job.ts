import type { App } from '../../app.js';
import { principalLabel } from '../access.js';
import type { JobSpec } from './jobs.js';

// reindex: the keyword index rebuilt from the stored passages; then the vector index, when there is one.

/** Queues every passage for embedding again and wakes the worker; null when semantic search is off. */
export async function requeueEmbeddings(app: App): Promise<number | null> {
  if (!app.embeddings) return null;
  const queued = await app.store.requeueEmbeddings();
  app.embedder?.kick();
  return queued;
}

export const REINDEX_JOB: JobSpec = {
  async check() {},

  async run(app, caller, _params, ctx) {
    ctx.progress({ phase: 'keyword' });
    const keyword = await app.store.rebuildKeywordIndex();
    ctx.signal.throwIfAborted();
    ctx.progress({ phase: 'vectors' });
    const requeued = await requeueEmbeddings(app);
    app.log.info('audit', { action: 'operation reindex', principal: principalLabel(caller.grant.principal), source: caller.source });
    return { trusted: { documents: keyword.documents, chunks: keyword.chunks, embeddingsRequeued: requeued }, untrusted: [] };
  },
};

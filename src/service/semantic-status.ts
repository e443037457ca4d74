import type { App } from '../app.js';
import { displayUrl } from '../providers/http.js';

// The [semantic], [llm] and [searxng] parts of `trove status` and GET /api/status.

export interface SemanticStatus {
  enabled: boolean;
  model?: string;
  endpoint?: string;
  /** Vector length of the stored vectors of this model; null until known. */
  dimensions?: number | null;
  /** Passages with a vector of this model, waiting for one, refused by the endpoint. */
  embedded?: number;
  queued?: number;
  failed?: number;
  /** The background embedder runs in this process (`trove serve`, `trove mcp`). */
  worker?: { running: boolean; last_error: { code: string; message: string; at: string } | null };
}

export interface ProvidersStatus {
  semantic: SemanticStatus;
  llm: { enabled: boolean; model?: string; endpoint?: string };
  searxng: { enabled: boolean; endpoint?: string };
}

async function semanticStatus(app: App, chunks: number): Promise<SemanticStatus> {
  const cfg = app.config.semantic;
  if (!app.embeddings) return { enabled: false };
  const counts = await app.store.embeddingCounts();
  // Vectors of another model are dropped when the embedder starts: every passage waits for this one.
  const same = counts.space?.model === cfg.model && (cfg.dimensions === 0 || counts.space.dimensions === cfg.dimensions);
  const e = app.embedder?.state;
  const out: SemanticStatus = {
    enabled: true,
    model: cfg.model,
    endpoint: displayUrl(cfg.base_url),
    dimensions: same ? counts.space!.dimensions : cfg.dimensions || null,
    embedded: same ? counts.embedded : 0,
    queued: same ? counts.queued : chunks,
    failed: same ? counts.failed : 0,
  };
  if (e) out.worker = { running: e.running, last_error: e.lastError && { code: e.lastError.code, message: e.lastError.message, at: e.lastError.at } };
  return out;
}

export async function providersStatus(app: App, chunks: number): Promise<ProvidersStatus> {
  const { llm, searxng } = app.config;
  return {
    semantic: await semanticStatus(app, chunks),
    llm: app.llm ? { enabled: true, model: llm.model, endpoint: displayUrl(llm.base_url) } : { enabled: false },
    searxng: app.searxng ? { enabled: true, endpoint: displayUrl(searxng.base_url) } : { enabled: false },
  };
}

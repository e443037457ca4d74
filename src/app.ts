import { join } from 'node:path';
import type { TroveConfig } from './config/schema.js';
import { type ExtractionPool, createExtractionPool } from './ingest/extract/pool.js';
import { type IngestRules, createIngestRules } from './ingest/rules.js';
import { type Logger, createLogger } from './log.js';
import { SqliteStore } from './store/sqlite/store.js';
import { createProviders } from './providers/create.js';
import type { SearxngClient } from './providers/searxng.js';
import type { ChatProvider, EmbeddingsProvider } from './providers/types.js';
import { CatalogState } from './service/catalog-state.js';
import { EmbeddingWorker } from './service/embedding-worker.js';
import { Lifecycle } from './service/lifecycle.js';
import { createOperationRunner } from './service/operations/jobs.js';
import { OperationManager } from './service/operations/manager.js';
import { closeRenderer } from './service/render/browser.js';
import { type RenderHost, createRenderHost } from './service/render/host.js';
import type { Store } from './store/types.js';

export const VERSION = '0.1.0';

/** Everything a request needs, built once from the config and passed down (no module singletons). */
export interface App {
  config: TroveConfig;
  store: Store;
  log: Logger;
  /** Skip and redaction rules every input passes before it is stored. */
  rules: IngestRules;
  /** HTML extraction on worker threads, started when a batch first needs them (see ingest/extract/pool.ts). */
  extraction: ExtractionPool;
  /** The `[semantic]` embeddings endpoint; undefined when none is configured. */
  embeddings?: EmbeddingsProvider | undefined;
  /** The `[llm]` chat endpoint; undefined when none is configured. */
  llm?: ChatProvider | undefined;
  /** The `[searxng]` instance; undefined unless searxng.enabled. */
  searxng?: SearxngClient | undefined;
  /** Embeds queued passages in the background once started (`trove serve`, `trove mcp`); undefined without embeddings. */
  embedder?: EmbeddingWorker | undefined;
  /** Request-keyed long work (imports, refresh, reindex, rendering): one per process, so a restart invalidates old ids. */
  operations: OperationManager;
  /** The Chromium that renders stored pages. */
  render: RenderHost;
  /** Phase and running catalog work (folder syncs, imports) for get_status. */
  lifecycle: Lifecycle;
  /** list_documents cursors and snapshots, read caches, the catalog clock. */
  catalog: CatalogState;
  close(): Promise<void>;
}

export interface AppOptions {
  /** Extraction worker threads at most; 0 or 1 extracts in-process. Default: the available cores, at most 4. */
  extractionWorkers?: number | undefined;
  /** Time source of what expires (catalog cursors); default Date.now. Tests move it instead of sleeping. */
  clock?: (() => number) | undefined;
}

export function storePath(config: TroveConfig): string {
  return join(config.dataDir, 'trove.db');
}

export function createApp(config: TroveConfig, log: Logger = createLogger(config.log.level as never), options: AppOptions = {}): App {
  const rules = createIngestRules(config);
  const providers = createProviders(config);
  const store = new SqliteStore({ path: storePath(config), busyTimeoutMs: config.store.busy_timeout_ms });
  const extraction = createExtractionPool({ size: options.extractionWorkers, log });
  const embedder = providers.embeddings && new EmbeddingWorker(store, providers.embeddings, log, { batchSize: config.semantic.batch_size });
  const operations = new OperationManager({
    runner: createOperationRunner(() => app),
    now: options.clock,
    onInternalError: (op, err) => log.error('operation failed', { kind: op.kind, error: String((err as Error)?.stack ?? err) }),
  });
  const app: App = {
    config,
    store,
    log,
    rules,
    extraction,
    ...providers,
    embedder,
    operations,
    render: createRenderHost(config),
    lifecycle: new Lifecycle(),
    catalog: new CatalogState({ now: options.clock }),
    close: async () => {
      app.lifecycle.close();
      await operations.close();
      await closeRenderer(app);
      await embedder?.close();
      await extraction.close();
      await store.close();
    },
  };
  return app;
}

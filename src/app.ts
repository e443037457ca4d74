import { join } from 'node:path';
import type { TroveConfig } from './config/schema.js';
import { type ExtractionPool, createExtractionPool } from './ingest/extract/pool.js';
import { type IngestRules, createIngestRules } from './ingest/rules.js';
import { type Logger, createLogger } from './log.js';
import { SqliteStore } from './store/sqlite/store.js';
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
  close(): Promise<void>;
}

export interface AppOptions {
  /** Extraction worker threads at most; 0 or 1 extracts in-process. Default: the available cores, at most 4. */
  extractionWorkers?: number | undefined;
}

export function storePath(config: TroveConfig): string {
  return join(config.dataDir, 'trove.db');
}

export function createApp(config: TroveConfig, log: Logger = createLogger(config.log.level as never), options: AppOptions = {}): App {
  const rules = createIngestRules(config);
  const store = new SqliteStore({ path: storePath(config), busyTimeoutMs: config.store.busy_timeout_ms });
  const extraction = createExtractionPool({ size: options.extractionWorkers, log });
  return {
    config,
    store,
    log,
    rules,
    extraction,
    close: async () => {
      await extraction.close();
      await store.close();
    },
  };
}

import { join } from 'node:path';
import type { TroveConfig } from './config/schema.js';
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
  close(): Promise<void>;
}

export function storePath(config: TroveConfig): string {
  return join(config.dataDir, 'trove.db');
}

export function createApp(config: TroveConfig, log: Logger = createLogger(config.log.level as never)): App {
  const rules = createIngestRules(config);
  const store = new SqliteStore({ path: storePath(config), busyTimeoutMs: config.store.busy_timeout_ms });
  return {
    config,
    store,
    log,
    rules,
    close: () => store.close(),
  };
}

import { createHash } from 'node:crypto';
import { type App, createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/load.js';
import { createLogger } from '../../src/log.js';
import { OWNER, type Principal, authorize } from '../../src/service/access.js';
import { catalogAccess } from '../../src/service/catalog.js';
import type { CatalogAccess, DocumentKind, WriteResult } from '../../src/store/types.js';
import { tempDir } from '../helpers.js';

// A real app on a real SQLite file with a clock the test moves, for the catalog services.

export const T0 = Date.parse('2026-05-01T10:00:00Z');

export interface CatalogFixture {
  app: App;
  dir: string;
  /** Moves the app's clock forward. */
  advance(ms: number): void;
  access(principal?: Principal, bank?: string): Promise<CatalogAccess>;
  cleanup(): Promise<void>;
}

export function catalogFixture(overrides: Record<string, string> = {}): CatalogFixture {
  const t = tempDir('trove-catalog-');
  const config = loadConfig({ dataDir: t.dir, env: { XDG_CONFIG_HOME: t.dir }, overrides });
  let now = T0;
  const app = createApp(config, createLogger('silent'), { clock: () => now, extractionWorkers: 0 });
  return {
    app,
    dir: t.dir,
    advance: (ms) => {
      now += ms;
    },
    access: (principal = OWNER, bank) => catalogAccess(app, authorize(principal, 'documents.read'), bank),
    cleanup: async () => {
      await app.close();
      t.cleanup();
    },
  };
}

/** Stores a document exactly as given (no URL parsing): ids and urls with any characters. */
export async function storeRaw(app: App, doc: { url: string; text: string; title?: string; kind?: DocumentKind; label?: string | null; ownerId?: number | null; metadata?: Record<string, unknown> }): Promise<WriteResult> {
  return app.store.writeDocument({
    kind: doc.kind ?? 'web',
    url: doc.url,
    title: doc.title ?? doc.url,
    domain: '',
    language: 'en',
    label: doc.label ?? null,
    source: 'test',
    metadata: doc.metadata ?? {},
    text: doc.text,
    html: null,
    rawHtml: null,
    sha256: createHash('sha256').update(doc.text).digest('hex'),
    capturedAt: T0,
    chunks: [],
    ownerId: doc.ownerId ?? null,
  });
}

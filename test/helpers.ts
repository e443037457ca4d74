import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { type App, createApp } from '../src/app.js';
import { loadConfig } from '../src/config/load.js';
import { createLogger } from '../src/log.js';

/** A fresh temporary directory, removed by the returned cleanup. */
export function tempDir(prefix = 'trove-test-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A real app on a real SQLite file in a temporary data directory. */
export function testApp(overrides: Record<string, string> = {}): { app: App; dir: string; cleanup: () => Promise<void> } {
  const t = tempDir();
  const config = loadConfig({ dataDir: t.dir, env: { XDG_CONFIG_HOME: t.dir }, overrides });
  const app = createApp(config, createLogger('silent'));
  return {
    app,
    dir: t.dir,
    cleanup: async () => {
      await app.close();
      t.cleanup();
    },
  };
}

/** One temp dir per test file (made before, removed after) with fresh numbered sub-directories. */
export function suiteDirs(prefix: string): { root: () => string; fresh: () => string } {
  let t: ReturnType<typeof tempDir> | undefined;
  let n = 0;
  before(() => {
    t = tempDir(prefix);
  });
  after(() => t?.cleanup());
  return {
    root: () => t!.dir,
    fresh: () => {
      const d = join(t!.dir, `case-${++n}`);
      mkdirSync(d, { recursive: true });
      return d;
    },
  };
}

/** Runs `fn` with a fresh test app, always cleaning up. */
export async function withTestApp(fn: (app: App) => Promise<void>): Promise<void> {
  const t = testApp();
  try {
    await fn(t.app);
  } finally {
    await t.cleanup();
  }
}

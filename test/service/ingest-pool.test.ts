import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, test } from 'node:test';
import { type App, createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/load.js';
import { TroveError } from '../../src/errors.js';
import { createLogger } from '../../src/log.js';
import { ADD_BATCH, type ContentInput, addContents, addTargets, showDocument } from '../../src/service/documents.js';
import { syncDirectories } from '../../src/service/folders.js';
import { FIXTURE_PAGES, fixture } from '../ingest/extract/fixtures.js';
import { suiteDirs } from '../helpers.js';

// Ingest through the app's extraction workers: what is stored, how failures surface, and that
// app.close() leaves no thread behind.

const dirs = suiteDirs('trove-ingest-pool-');
const BINARY = `<html>${'\u0000\u0001\u0002'.repeat(200)}</html>`;

async function withApp(workers: number, fn: (app: App) => Promise<void>, overrides: Record<string, string> = {}): Promise<App> {
  const dir = dirs.fresh();
  const app = createApp(loadConfig({ dataDir: dir, env: { XDG_CONFIG_HOME: dir }, overrides }), createLogger('silent'), { extractionWorkers: workers });
  try {
    await fn(app);
  } finally {
    await app.close();
  }
  return app;
}

const fixtureInputs = (): ContentInput[] => FIXTURE_PAGES.map(({ file, url }) => ({ url, html: fixture(file), source: 'test' }));

/** What a stored document says, without ids and times. */
async function stored(app: App, url: string): Promise<unknown> {
  const d = await showDocument(app, url);
  const { id: _id, added: _a, updated: _u, ...doc } = d.document as unknown as Record<string, unknown>;
  return { doc, text: d.text };
}

/** A directory of `n` small article pages. */
function pagesDir(n: number): string {
  const root = dirs.fresh();
  mkdirSync(join(root, 'pages'));
  for (let i = 0; i < n; i++) {
    const body = `<h1>Page ${i}</h1><p>Otter number ${i} floats on its back, cracking sea urchins on a stone, while the kelp holds it in place.</p>`;
    writeFileSync(join(root, 'pages', `p${String(i).padStart(3, '0')}.html`), `<html><head><title>Page ${i}</title></head><body><article>${body.repeat(3)}</article></body></html>`);
  }
  return root;
}

describe('ingest on extraction workers', () => {
  test('a batch stores what in-process extraction stores; app.close() ends the workers', async () => {
    const inputs = fixtureInputs();
    const expected: unknown[] = [];
    await withApp(1, async (app) => {
      await addContents(app, inputs);
      assert.equal(app.extraction.workers, 0);
      for (const i of inputs) expected.push(await stored(app, i.url));
    });
    const app = await withApp(2, async (app) => {
      const results = await addContents(app, inputs);
      assert.deepEqual(results.map((r) => r.status), inputs.map(() => 'added'));
      assert.ok(app.extraction.workers > 0, 'the batch went to the workers');
      for (const [n, i] of inputs.entries()) assert.deepEqual(await stored(app, i.url), expected[n], i.url);
    });
    assert.equal(app.extraction.workers, 0, 'closed');
  });

  test('a refused page fails the batch with its own code and nothing is stored', async () => {
    await withApp(2, async (app) => {
      const inputs = [...fixtureInputs(), { url: 'https://binary.example/', html: BINARY, source: 'test' }, { url: 'https://bank.example/x', text: 'skipped', source: 'test' }];
      await assert.rejects(addContents(app, inputs), (e: unknown) => e instanceof TroveError && e.code === 'UNSUPPORTED_TYPE');
      assert.equal((await app.store.info()).counts.documents, 0);
    });
  });

  test('the first failing input in order is the one reported, skip rules before extraction', async () => {
    await withApp(
      2,
      async (app) => {
        const inputs = [...fixtureInputs(), { url: 'https://bank.example/x', html: '<p>x</p>', source: 'test' }, { url: 'https://binary.example/', html: BINARY, source: 'test' }];
        await assert.rejects(addContents(app, inputs), (e: unknown) => e instanceof TroveError && e.code === 'SKIPPED');
      },
      { 'indexer.skip_domains': '["bank.example"]' },
    );
  });

  test('adding a directory of more than a batch: every page stored, a binary one refused on its own', async () => {
    const root = pagesDir(ADD_BATCH + 10);
    writeFileSync(join(root, 'pages', 'zz-binary.html'), BINARY);
    await withApp(2, async (app) => {
      const outcomes = await addTargets(app, [join(root, 'pages')], { source: 'test' });
      assert.equal(outcomes.length, ADD_BATCH + 11);
      assert.equal(outcomes.filter((o) => o.result?.status === 'added').length, ADD_BATCH + 10);
      const refused = outcomes.filter((o) => o.error);
      assert.deepEqual(refused.map((o) => [o.target.endsWith('zz-binary.html'), o.error!.code]), [[true, 'UNSUPPORTED_TYPE']]);
      const doc = await showDocument(app, pathToFileURL(join(root, 'pages', 'p070.html')).href);
      assert.equal(doc.document.title, 'Page 70');
      assert.match(doc.text, /Otter number 70 floats/);
    });
  });

  test('a folder sync of more than a batch, with a refused file among them', async () => {
    const root = pagesDir(ADD_BATCH * 2 + 5);
    writeFileSync(join(root, 'pages', 'p001-binary.html'), BINARY);
    await withApp(
      2,
      async (app) => {
        const report = await syncDirectories(app);
        assert.equal(report.added, ADD_BATCH * 2 + 5);
        assert.deepEqual(report.errors.map((e) => [e.path.endsWith('p001-binary.html'), e.code]), [[true, 'UNSUPPORTED_TYPE']]);
        assert.equal((await app.store.info()).counts.documents, ADD_BATCH * 2 + 5);
      },
      { 'indexer.directories': JSON.stringify([{ path: join(root, 'pages') }]) },
    );
  });
});

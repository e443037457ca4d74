import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { App } from '../../../src/app.js';
import { describe, test } from 'node:test';
import { OWNER } from '../../../src/service/access.js';
import { addContent } from '../../../src/service/documents.js';
import { cancelOperation, getOperation } from '../../../src/service/operations/service.js';
import { searchDocuments } from '../../../src/service/search.js';
import { createUser, resolveToken } from '../../../src/service/users.js';
import type { SqliteStore } from '../../../src/store/sqlite/store.js';
import { suiteDirs, testApp, withTestApp } from '../../helpers.js';
import { writeHistoryDb } from '../../ingest/importers/browsers.js';
import { page, startPageServer } from '../../page-server.js';
import { startOpenAiServer } from '../../providers/openai-server.js';
import { callerFor, codeOf, run, settled, start } from './helpers.js';

// The operation kinds that write, run through the app's own manager and runner on a real store.

const { fresh } = suiteDirs('trove-operations-');
const T = Date.UTC(2025, 2, 10, 9, 30);

describe('import_history', () => {
  test('imports a browser history as an operation, with its progress and summary', async () => {
    await withTestApp(async (app) => {
      const profile = writeHistoryDb(join(fresh(), 'places.sqlite'), 'firefox-new', [
        { url: 'https://example.org/rust', title: 'Rust error handling', at: T },
        { url: 'https://example.org/go', title: 'Go generics', at: T + 1000 },
      ]);
      const d = await run(app, 'import_history', { browser: 'firefox', profile });
      assert.equal(d.view.state, 'completed', JSON.stringify(d.view.error));
      assert.equal(d.result?.trusted.visitsRead, 2);
      assert.equal(d.result?.trusted.documentsCreated, 2);
      assert.deepEqual(d.view.progress, { phase: 'visits', done: 2, total: 2 });
      assert.equal((await searchDocuments(app, { query: 'generics' })).results.length, 1);
      const again = await run(app, 'import_history', { browser: 'firefox', profile });
      assert.equal(again.result?.trusted.visitsNew, 0, 'a repeated import adds nothing');
    });
  });

  test('a bad since is refused before admission; a missing profile fails the operation', async () => {
    await withTestApp(async (app) => {
      assert.equal(await codeOf(start(app, 'import_history', { browser: 'firefox', since: '2025-13-40' })), 'INVALID_ARGUMENT');
      const d = await run(app, 'import_history', { browser: 'firefox', profile: join(fresh(), 'missing.sqlite') });
      assert.equal(d.view.state, 'failed');
      assert.equal(d.view.error?.code, 'FILE_NOT_FOUND');
    });
  });
});

describe('refresh_document', () => {
  test('a changed page becomes a new version; an unchanged one adds none', async () => {
    let body = '<html><head><title>Otters</title></head><body><p>Sea otters hold hands while they sleep.</p></body></html>';
    const server = await startPageServer({ '/otters': (_req, res) => page(body)(_req, res) });
    try {
      await withTestApp(async (app) => {
        const url = `${server.base}/otters`;
        const added = await addContent(app, { url, html: body, source: 'test' });
        const same = await run(app, 'refresh_document', { documentId: added.document.id });
        assert.equal(same.view.state, 'completed', JSON.stringify(same.view.error));
        assert.equal(same.result?.trusted.status, 'unchanged');
        body = body.replace('hold hands', 'float on their backs');
        const changed = await run(app, 'refresh_document', { documentId: added.document.id });
        assert.equal(changed.result?.trusted.status, 'updated');
        assert.equal(changed.result?.trusted.versionCount, 2);
        assert.equal((await searchDocuments(app, { query: 'float backs' })).results[0]?.url, url);
      });
    } finally {
      await server.close();
    }
  });

  test('unknown documents, local documents and stale revisions are refused before admission', async () => {
    await withTestApp(async (app) => {
      assert.equal(await codeOf(start(app, 'refresh_document', { documentId: '01ARZ3NDEKTSV4RRFFQ69G5FAV' })), 'NOT_FOUND');
      const local = await addContent(app, { url: 'file:///notes/a.txt', text: 'a note', source: 'test' });
      assert.equal(await codeOf(start(app, 'refresh_document', { documentId: local.document.id })), 'INVALID_ARGUMENT');
      const web = await addContent(app, { url: 'https://example.org/x', text: 'x', source: 'test' });
      const { revision } = await app.store.instanceState();
      assert.equal(await codeOf(start(app, 'refresh_document', { documentId: web.document.id, expectedRevision: revision - 1 })), 'STALE_REVISION');
    });
  });

  test('a user may refresh their own documents, not global ones', async () => {
    const t = testApp({ 'app.user_handling': 'true' });
    try {
      const alice = await resolveToken(t.app, (await createUser(t.app, { name: 'alice', admin: false })).token);
      assert.ok(alice);
      const global = await addContent(t.app, { url: 'https://example.org/global', text: 'g', source: 'test' });
      const caller = callerFor(alice, 'documents.write');
      assert.equal(await codeOf(start(t.app, 'refresh_document', { documentId: global.document.id }, caller)), 'FORBIDDEN');
    } finally {
      await t.cleanup();
    }
  });
});

describe('reindex', () => {
  test('rebuilds a lost keyword index from the stored passages', async () => {
    await withTestApp(async (app) => {
      await addContent(app, { url: 'https://example.org/pangolin', title: 'Pangolins', text: 'Pangolins eat ants and termites.', source: 'test' });
      await addContent(app, { url: 'https://example.org/aardvark', title: 'Aardvarks', text: 'Aardvarks dig burrows.', source: 'test' });
      (app.store as SqliteStore).database.prepare("INSERT INTO chunk_fts (chunk_fts) VALUES ('delete-all')").run();
      assert.equal((await searchDocuments(app, { query: 'termites' })).results.length, 0);
      const d = await run(app, 'reindex', {});
      assert.equal(d.view.state, 'completed', JSON.stringify(d.view.error));
      assert.deepEqual({ documents: d.result?.trusted.documents, chunks: d.result?.trusted.chunks }, { documents: 2, chunks: 2 });
      assert.equal((await searchDocuments(app, { query: 'termites' })).results[0]?.url, 'https://example.org/pangolin');
      assert.equal((await searchDocuments(app, { query: 'aardvarks' })).results.length, 1);
      assert.equal(d.result?.trusted.embeddingsRequeued, null, 'no vectors to rebuild without semantic search');
    });
  });

  test('with semantic search on, every passage is embedded again', async () => {
    const embed = await startOpenAiServer({ dimensions: 16 });
    const { app, cleanup } = testApp({ 'semantic.enabled': 'true', 'semantic.base_url': embed.url, 'semantic.model': 'fake-embed' });
    try {
      await addContent(app, { url: 'https://example.org/pangolin', title: 'Pangolins', text: 'Pangolins eat ants and termites.', source: 'test' });
      await addContent(app, { url: 'https://example.org/aardvark', title: 'Aardvarks', text: 'Aardvarks dig burrows.', source: 'test' });
      assert.equal(await app.embedder!.drain(), 2);
      const before = embed.embeddingRequests().length;
      const d = await run(app, 'reindex', {});
      assert.equal(d.view.state, 'completed', JSON.stringify(d.view.error));
      assert.equal(d.result?.trusted.embeddingsRequeued, 2);
      assert.equal(await app.embedder!.drain(), 2);
      assert.ok(embed.embeddingRequests().length > before, 'the endpoint was asked again');
      assert.deepEqual(await app.store.embeddingCounts().then((c) => [c.embedded, c.queued]), [2, 0]);
    } finally {
      await cleanup();
      await embed.close();
    }
  });
});

/** A page server whose one page answers only when released: an import with fetch stays running until then. */
async function gatedImport(app: App) {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const server = await startPageServer({ '/slow': (req, res) => void gate.then(() => page('<title>Slow</title><p>slow page</p>')(req, res)) });
  const profile = writeHistoryDb(join(fresh(), 'places.sqlite'), 'firefox-new', [{ url: `${server.base}/slow`, title: 'Slow', at: T }]);
  const op = await start(app, 'import_history', { browser: 'firefox', profile, fetch: true });
  // Running once the fetch phase began: the visits are stored (the revision moved), the page is awaited.
  while ((await getOperation(app, OWNER, op.view.operationId)).view.progress?.phase !== 'fetch') await new Promise((r) => setTimeout(r, 10));
  return { op, release, close: () => server.close() };
}

describe('operations on the app', () => {
  test('a queued operation whose expectedRevision went stale fails STALE_REVISION when it starts', async () => {
    await withTestApp(async (app) => {
      const web = await addContent(app, { url: 'https://example.org/x', text: 'x', source: 'test' });
      const { revision } = await app.store.instanceState();
      const first = await gatedImport(app);
      try {
        const stale = await start(app, 'refresh_document', { documentId: web.document.id, expectedRevision: (await app.store.instanceState()).revision });
        assert.equal(stale.view.state, 'queued');
        assert.deepEqual(app.lifecycle.running(), ['firefox history import'], 'get_status says updating meanwhile');
        assert.notEqual(stale.view.revision, revision);
        await addContent(app, { url: 'https://example.org/moved', text: 'the catalog moves on', source: 'test' });
        first.release();
        assert.equal((await settled(app, first.op.view.operationId)).view.state, 'completed');
        assert.deepEqual(app.lifecycle.running(), []);
        const d = await settled(app, stale.view.operationId);
        assert.equal(d.view.state, 'failed');
        assert.equal(d.view.error?.code, 'STALE_REVISION');
      } finally {
        first.release();
        await first.close();
      }
    });
  });

  test('cancelling: a queued operation is removed at once; a running one is cancelling until its cleanup ends', async () => {
    await withTestApp(async (app) => {
      const running = await gatedImport(app);
      try {
        const queued = await start(app, 'reindex', {});
        assert.equal(queued.view.state, 'queued');
        assert.equal((await cancelOperation(app, OWNER, queued.view.operationId)).state, 'cancelled');
        assert.equal((await cancelOperation(app, OWNER, running.op.view.operationId)).state, 'cancelling');
        assert.equal((await getOperation(app, OWNER, running.op.view.operationId)).view.state, 'cancelling');
        running.release();
        const d = await settled(app, running.op.view.operationId);
        assert.equal(d.view.state, 'cancelled');
        assert.equal((await getOperation(app, OWNER, queued.view.operationId)).view.startedAt, null, 'the cancelled one never ran');
      } finally {
        running.release();
        await running.close();
      }
    });
  });

  test('timestamps are UTC ISO; the epoch and revision are the ones captured at admission', async () => {
    await withTestApp(async (app) => {
      const epoch = await app.store.beginEpoch();
      const d = await run(app, 'reindex', {});
      assert.equal(d.view.epoch, epoch);
      for (const t of [d.view.createdAt, d.view.startedAt, d.view.finishedAt]) assert.match(t ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      assert.match(d.view.operationId, new RegExp(`^op_${epoch}_`));
      assert.match(d.view.operationUri, /^trove:\/\/[0-9A-Z]{26}\/operations\/op_/);
    });
  });

  test('a restarted app knows no operation of the previous one', async () => {
    const dir = fresh();
    const { loadConfig } = await import('../../../src/config/load.js');
    const { createApp } = await import('../../../src/app.js');
    const { createLogger } = await import('../../../src/log.js');
    const open = () => createApp(loadConfig({ dataDir: dir, env: { XDG_CONFIG_HOME: dir }, overrides: {} }), createLogger('silent'));
    const before = open();
    await before.store.beginEpoch();
    const d = await run(before, 'reindex', {});
    await before.close();
    const after = open();
    try {
      await after.store.beginEpoch();
      assert.equal(await codeOf(getOperation(after, OWNER, d.view.operationId)), 'OPERATION_NOT_FOUND');
    } finally {
      await after.close();
    }
  });
});

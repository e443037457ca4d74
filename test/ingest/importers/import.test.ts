import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { TroveError } from '../../../src/errors.js';
import { readBrowserHistory } from '../../../src/ingest/importers/history.js';
import { addContent } from '../../../src/service/documents.js';
import { importBookmarks, importBrowserHistory } from '../../../src/service/import.js';
import { historyBatch } from '../../../src/service/import-records.js';
import { searchDocuments } from '../../../src/service/search.js';
import { suiteDirs, testApp, withTestApp } from '../../helpers.js';
import { BOOKMARKS_HTML } from './bookmarks-fixture.js';
import { type FixtureVisit, addVisits, createHistoryDb, writeHistoryDb } from './browsers.js';

const { fresh } = suiteDirs('trove-import-service-');
const T = Date.UTC(2025, 2, 10, 9, 30);
const DAY = 86_400_000;

const VISITS: FixtureVisit[] = [
  { url: 'https://example.org/rust', title: 'Rust error handling', at: T },
  { url: 'https://example.org/go', title: 'Go generics', at: T + DAY },
  { url: 'https://example.org/rust', title: 'Rust error handling', at: T + 2 * DAY },
  { url: 'chrome://settings/', title: 'Settings', at: T + 2 * DAY + 1 },
  { url: 'https://example.org/zig', title: 'Zig comptime', at: T + 3 * DAY },
];

const withApp = withTestApp;

async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof TroveError, String(err));
    return err.code;
  }
  assert.fail('no error');
}

describe('importing browser history', () => {
  test('visits, counts, times and titles are recorded; each url becomes a searchable title-only document', async () => {
    await withApp(async (app) => {
      const path = writeHistoryDb(join(fresh(), 'History'), 'chrome-new', VISITS);
      const s = await importBrowserHistory(app, 'chrome', { profile: path });
      assert.equal(s.source, 'import:chrome');
      assert.equal(s.visits_read, 4);
      assert.equal(s.visits_new, 4);
      assert.equal(s.urls, 3);
      assert.equal(s.urls_new, 3);
      assert.equal(s.skipped, 1);
      assert.equal(s.documents_created, 3);
      assert.equal(s.since, new Date(T).toISOString());
      const [rust] = await app.store.listVisits('https://example.org/rust');
      assert.deepEqual(rust, {
        url: 'https://example.org/rust',
        title: 'Rust error handling',
        source: 'import:chrome',
        visitCount: 2,
        firstVisitAt: T,
        lastVisitAt: T + 2 * DAY,
        visitTimes: [T, T + 2 * DAY],
      });
      const doc = await app.store.getDocument('https://example.org/rust');
      assert.equal(doc?.title, 'Rust error handling');
      assert.equal(doc?.source, 'import:chrome');
      assert.equal(doc?.kind, 'web');
      assert.equal(doc?.updatedAt, T + 2 * DAY);
      assert.equal(await app.store.getText(doc!.id), '');
      const found = await searchDocuments(app, { query: 'comptime' });
      assert.deepEqual(found.results.map((r) => r.url), ['https://example.org/zig']);
      assert.equal((await searchDocuments(app, { query: 'settings' })).total, 0);
    });
  });

  test('importing twice never double-counts', async () => {
    await withApp(async (app) => {
      const path = writeHistoryDb(join(fresh(), 'places.sqlite'), 'firefox-new', VISITS);
      await importBrowserHistory(app, 'firefox', { profile: path });
      const info = await app.store.info();
      const visits = await app.store.listVisits('https://example.org/rust');
      const again = await importBrowserHistory(app, 'firefox', { profile: path });
      assert.equal(again.visits_new, 0);
      assert.equal(again.urls_new, 0);
      assert.equal(again.documents_created, 0);
      assert.deepEqual(await app.store.listVisits('https://example.org/rust'), visits);
      const later = await app.store.info();
      assert.deepEqual(later.counts, info.counts);
      assert.equal(later.revision, info.revision);
    });
  });

  test('a later import reads only what is new since the last one', async () => {
    await withApp(async (app) => {
      const path = join(fresh(), 'places.sqlite');
      const db = createHistoryDb(path, 'firefox-old', { wal: true });
      try {
        addVisits(db, 'firefox-old', VISITS);
        assert.equal((await importBrowserHistory(app, 'firefox', { profile: path })).visits_new, 4);
        addVisits(db, 'firefox-old', [{ url: 'https://example.org/rust', title: 'Rust error handling (2nd ed.)', at: T + 10 * DAY }]);
        const next = await importBrowserHistory(app, 'firefox', { profile: path });
        // The boundary visit is read again (>=) and recognised; only the new visit is new.
        assert.equal(next.visits_read, 2);
        assert.equal(next.visits_new, 1);
        const [rust] = await app.store.listVisits('https://example.org/rust');
        assert.equal(rust!.visitCount, 3);
        assert.equal(rust!.title, 'Rust error handling (2nd ed.)');
        assert.equal(rust!.lastVisitAt, T + 10 * DAY);
      } finally {
        db.close();
      }
    });
  });

  test('an interrupted import resumes after its last stored batch', async () => {
    await withApp(async (app) => {
      const path = writeHistoryDb(join(fresh(), 'History.db'), 'safari', VISITS);
      // What an import that stopped after its first batch (the first two visits) leaves behind.
      const history = readBrowserHistory('safari', path, 0);
      await app.store.recordImport(historyBatch(history, 0, 2, { source: 'import:safari', profile: path, rangeStart: 0, queueFetch: false }));
      assert.deepEqual(await app.store.getImportCheckpoint('import:safari', path), { source: 'import:safari', profile: path, rangeStart: 0, lastVisitAt: T + DAY });
      const resumed = await importBrowserHistory(app, 'safari', { profile: path });
      assert.equal(resumed.visits_read, 3);
      assert.equal(resumed.visits_new, 2);
      assert.deepEqual((await app.store.listVisits('https://example.org/rust'))[0]!.visitTimes, [T, T + 2 * DAY]);
      assert.equal((await app.store.getImportCheckpoint('import:safari', path))!.lastVisitAt, T + 3 * DAY);
    });
  });

  test('--since keeps only visits from that day (UTC); an earlier --since later reads the older visits', async () => {
    await withApp(async (app) => {
      const path = writeHistoryDb(join(fresh(), 'History'), 'chrome-v20', VISITS);
      const day = new Date(T + 2 * DAY).toISOString().slice(0, 10);
      const s = await importBrowserHistory(app, 'edge', { profile: path, since: day });
      assert.equal(s.visits_read, 2);
      assert.equal(await app.store.getDocument('https://example.org/go'), undefined);
      const older = await importBrowserHistory(app, 'edge', { profile: path, since: '2025-01-01' });
      // A range that starts before the stored one reads everything again; what was stored is recognised.
      assert.equal(older.visits_read, 4);
      assert.equal(older.visits_new, 2);
      assert.ok(await app.store.getDocument('https://example.org/go'));
      assert.equal(await code(importBrowserHistory(app, 'edge', { profile: path, since: '2025-02-30' })), 'INVALID_ARGUMENT');
      assert.equal(await code(importBrowserHistory(app, 'netscape', { profile: path })), 'INVALID_ARGUMENT');
    });
  });

  test('a document that already has content keeps it; its visits are still recorded', async () => {
    await withApp(async (app) => {
      await addContent(app, { url: 'https://example.org/rust', title: 'My saved page', text: 'the ? operator propagates errors', source: 'cli', label: 'saved' });
      const path = writeHistoryDb(join(fresh(), 'History'), 'chrome-new', VISITS);
      const s = await importBrowserHistory(app, 'chrome', { profile: path, fetch: false });
      assert.equal(s.documents_created, 2);
      const doc = await app.store.getDocument('https://example.org/rust');
      assert.equal(doc!.title, 'My saved page');
      assert.equal(doc!.source, 'cli');
      assert.equal(doc!.label, 'saved');
      assert.equal(doc!.versionCount, 1);
      assert.equal(await app.store.getText(doc!.id), 'the ? operator propagates errors');
      assert.equal((await app.store.listVisits('https://example.org/rust'))[0]!.visitCount, 2);
    });
  });

  test('secrets in imported urls are redacted before they are stored', async () => {
    await withApp(async (app) => {
      const token = `ghp_${'a1B2c3D4e5'.repeat(4)}`;
      const path = writeHistoryDb(join(fresh(), 'History'), 'chrome-new', [{ url: `https://user:hunter2@example.org/p?token=${token}`, title: `token ${token}`, at: T }]);
      await importBrowserHistory(app, 'chrome', { profile: path });
      const found = await searchDocuments(app, { query: 'token' });
      assert.equal(found.results.length, 1);
      const stored = JSON.stringify(found.results[0]);
      assert.ok(!stored.includes(token) && !stored.includes('hunter2'), stored);
    });
  });

  test('skip rules keep pages (and their visits) out, as for every other input', async () => {
    const t = testApp({ 'indexer.skip_domains': 'bank.example', 'indexer.skip_patterns': '/[?&]session=/' });
    try {
      const path = writeHistoryDb(join(fresh(), 'History'), 'chrome-new', [
        ...VISITS,
        { url: 'https://my.bank.example/accounts', title: 'Accounts', at: T + 5 },
        { url: 'https://shop.example/cart?session=abc', title: 'Cart', at: T + 6 },
      ]);
      const s = await importBrowserHistory(t.app, 'chrome', { profile: path });
      assert.equal(s.excluded, 2);
      assert.equal(s.urls, 3);
      assert.equal(await t.app.store.getDocument('https://my.bank.example/accounts'), undefined);
      assert.deepEqual(await t.app.store.listVisits('https://my.bank.example/accounts'), []);
      const file = join(fresh(), 'b.html');
      writeFileSync(file, '<DL><DT><A HREF="https://bank.example/">bank</A><DT><A HREF="https://ok.example/">ok</A></DL>');
      const b = await importBookmarks(t.app, file);
      assert.deepEqual([b.bookmarks_read, b.excluded, b.documents_created], [2, 1, 1]);
    } finally {
      await t.cleanup();
    }
  });

  test('bad inputs fail with a code and store nothing', async () => {
    await withApp(async (app) => {
      const dir = fresh();
      writeFileSync(join(dir, 'garbage'), 'not sqlite at all'.repeat(300));
      const chrome = writeHistoryDb(join(dir, 'History'), 'chrome-new', VISITS);
      assert.equal(await code(importBrowserHistory(app, 'chrome', { profile: join(dir, 'missing') })), 'FILE_NOT_FOUND');
      assert.equal(await code(importBrowserHistory(app, 'chrome', { profile: join(dir, 'garbage') })), 'MALFORMED_INPUT');
      assert.equal(await code(importBrowserHistory(app, 'firefox', { profile: chrome })), 'UNSUPPORTED_TYPE');
      assert.equal(await code(importBrowserHistory(app, 'safari', { profile: chrome, fetch: true })), 'UNSUPPORTED_TYPE');
      assert.equal(await code(importBookmarks(app, join(dir, 'garbage'))), 'MALFORMED_INPUT');
      assert.equal(await code(importBookmarks(app, join(dir, 'nope.html'))), 'FILE_NOT_FOUND');
      const info = await app.store.info();
      assert.equal(info.counts.documents, 0);
      assert.equal(info.revision, 0);
      assert.deepEqual(await app.store.listVisits('https://example.org/rust'), []);
      assert.deepEqual(await app.store.listFetchQueue({ states: ['queued', 'done', 'failed'] }), []);
    });
  });
});

describe('bookmarks', () => {
  test('each bookmark becomes a document labelled with its folder path; an unlabelled existing document gains the label', async () => {
    await withApp(async (app) => {
      await addContent(app, { url: 'https://crates.io/', text: 'the Rust package registry', source: 'cli' });
      const file = join(fresh(), 'bookmarks.html');
      writeFileSync(file, BOOKMARKS_HTML);
      const s = await importBookmarks(app, file);
      assert.equal(s.bookmarks_read, 8);
      assert.equal(s.skipped, 2);
      assert.equal(s.documents_created, 7);
      assert.equal(s.documents_labelled, 1);
      assert.equal((await app.store.getDocument('https://blog.rust-lang.org/'))!.label, 'Dev/Rust');
      assert.equal((await app.store.getDocument('https://blog.rust-lang.org/'))!.addedAt, 1_700_000_300_000);
      const crates = (await app.store.getDocument('https://crates.io/'))!;
      assert.equal(crates.label, 'Dev');
      assert.equal(await app.store.getText(crates.id), 'the Rust package registry');
      const labelled = await searchDocuments(app, { query: '* label:dev/rust' });
      assert.deepEqual(labelled.results.map((r) => r.url), ['https://blog.rust-lang.org/']);
      const again = await importBookmarks(app, file);
      assert.equal(again.documents_created + again.documents_labelled, 0);
    });
  });
});

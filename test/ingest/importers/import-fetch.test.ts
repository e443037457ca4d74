import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { importBookmarks, importBrowserHistory } from '../../../src/service/import.js';
import { suiteDirs, withTestApp } from '../../helpers.js';
import { type PageServer, page, startPageServer } from '../../page-server.js';
import { writeHistoryDb } from './browsers.js';

const { fresh } = suiteDirs('trove-import-fetch-');
const T = Date.UTC(2025, 2, 10, 9, 30);

const withApp = withTestApp;

describe('--fetch', () => {
  let server: PageServer;
  const routes: Record<string, ReturnType<typeof page>> = {};
  before(async () => {
    server = await startPageServer(routes);
    routes['/ok'] = page('<html><head><title>Fetched page</title></head><body><article><p>Borrow checker explained in depth with examples.</p></article></body></html>');
  });
  after(() => server.close());

  test('queued pages are fetched; a failure is recorded, not fatal, and retried on the next run', async () => {
    await withApp(async (app) => {
      const visits = [
        { url: `${server.base}/ok`, title: 'OK page', at: T },
        { url: `${server.base}/later`, title: 'Later page', at: T + 1000 },
      ];
      const path = writeHistoryDb(join(fresh(), 'History'), 'chrome-new', visits);
      const first = await importBrowserHistory(app, 'chromium', { profile: path, fetch: true });
      assert.equal(first.queued, 2);
      assert.equal(first.fetched, 1);
      assert.equal(first.failed, 1);
      assert.deepEqual(first.failures.map((f) => [f.url, f.code]), [[`${server.base}/later`, 'FETCH_FAILED']]);
      const ok = (await app.store.getDocument(`${server.base}/ok`))!;
      assert.match((await app.store.getText(ok.id))!, /Borrow checker/);
      const [failed] = await app.store.listFetchQueue({ states: ['failed'] });
      assert.equal(failed!.attempts, 1);
      assert.equal(failed!.lastError, 'FETCH_FAILED');

      routes['/later'] = page('<html><head><title>Now here</title></head><body><p>Lifetimes, finally understood.</p></body></html>');
      const second = await importBrowserHistory(app, 'chromium', { profile: path, fetch: true });
      assert.equal(second.queued, 0);
      assert.equal(second.fetched, 1);
      assert.equal(second.failed, 0);
      const later = (await app.store.getDocument(`${server.base}/later`))!;
      assert.match((await app.store.getText(later.id))!, /Lifetimes/);
      assert.deepEqual((await app.store.listFetchQueue({ states: ['done'] })).map((q) => q.attempts).sort(), [1, 2]);

      const third = await importBrowserHistory(app, 'chromium', { profile: path, fetch: true });
      assert.equal(third.fetched + third.failed + third.queued, 0);
    });
  });

  test('bookmarks with --fetch keep their label when their page arrives', async () => {
    await withApp(async (app) => {
      const file = join(fresh(), 'b.html');
      writeFileSync(file, `<!DOCTYPE NETSCAPE-Bookmark-file-1><DL><p><DT><H3>Work</H3><DL><p><DT><A HREF="${server.base}/ok">ok</A></DL><p></DL>`);
      const s = await importBookmarks(app, file, { fetch: true });
      assert.equal(s.fetched, 1);
      const doc = (await app.store.getDocument(`${server.base}/ok`))!;
      assert.equal(doc.label, 'Work');
      assert.equal(doc.versionCount, 2);
    });
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { App } from '../../src/app.js';
import { TroveError } from '../../src/errors.js';
import { addContent } from '../../src/service/documents.js';
import { getHistory, listIndexedHistory, listOpenedHistory, recordOpened } from '../../src/service/history.js';
import { testApp } from '../helpers.js';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const T0 = Date.UTC(2026, 2, 1);
const DOCS = 25;

/** Awaits a call that must fail with `code` naming `field`. */
async function refused(call: Promise<unknown>, code: string, field?: string): Promise<TroveError> {
  try {
    await call;
  } catch (err) {
    assert.ok(err instanceof TroveError, String(err));
    assert.equal(err.code, code, err.message);
    if (field !== undefined) assert.equal(err.details?.field, field);
    return err;
  }
  assert.fail(`expected ${code}`);
}

describe('history views', () => {
  let t: { app: App; dir: string; cleanup: () => Promise<void> };
  const urls: string[] = [];

  before(async () => {
    t = testApp();
    // Groups of five share a capture time: the order within a group comes from the store's sequence.
    for (let i = 0; i < DOCS; i++) {
      const r = await addContent(t.app, { url: `https://history.example/${i}`, title: `Page ${i}`, text: `page number ${i}`, source: 'test', capturedAt: T0 + Math.floor(i / 5) * 1000 });
      urls.push(r.document.url);
    }
  });
  after(async () => {
    await t?.cleanup();
  });

  test('indexed items: newest capture first, with their shape and ISO times', async () => {
    const page = await listIndexedHistory(t.app, { limit: 100 });
    assert.equal(page.mode, 'indexed');
    assert.deepEqual(page.items.map((i) => i.url), [...urls].reverse());
    assert.ok(!('next_page_key' in page), 'no key when nothing follows');
    const first = page.items[0]!;
    assert.deepEqual(Object.keys(first), ['id', 'title', 'url', 'indexed', 'version_count']);
    assert.match(first.indexed, ISO);
    assert.equal(first.indexed, new Date(T0 + 4000).toISOString());
    assert.equal(first.version_count, 1);
  });

  test('limit: 1..100 as asked; absent, 0, 101, 1.5, -3 and NaN use the default 20', async () => {
    for (const limit of [undefined, 0, 101, 1.5, -3, Number.NaN]) {
      assert.equal((await listIndexedHistory(t.app, { limit })).items.length, 20, `limit ${limit}`);
      assert.equal((await getHistory(t.app, { limit })).items.length, 20, `getHistory limit ${limit}`);
    }
    assert.equal((await listIndexedHistory(t.app, { limit: 1 })).items.length, 1);
    assert.equal((await listIndexedHistory(t.app, { limit: 100 })).items.length, DOCS);
    assert.ok(!('next_page_key' in (await listIndexedHistory(t.app, { limit: DOCS }))), 'exactly the last item: no next page');
    assert.ok('next_page_key' in (await listIndexedHistory(t.app, { limit: DOCS - 1 })));
  });

  test('page keys walk every document once, across equal capture times', async () => {
    for (const limit of [1, 3, 5, 7]) {
      const seen: string[] = [];
      let pageKey: string | undefined;
      do {
        const page = await listIndexedHistory(t.app, { limit, pageKey });
        seen.push(...page.items.map((i) => i.url));
        pageKey = page.next_page_key;
        if (pageKey !== undefined) assert.match(pageKey, /^[A-Za-z0-9_-]+$/);
      } while (pageKey !== undefined);
      assert.deepEqual(seen, [...urls].reverse(), `limit ${limit}`);
    }
    assert.equal((await listIndexedHistory(t.app, { pageKey: '' })).items[0]!.url, urls[DOCS - 1], "'' is the first page");
  });

  test('a malformed page key is INVALID_ARGUMENT naming page_key', async () => {
    const good = (await listIndexedHistory(t.app, { limit: 2 })).next_page_key!;
    const b64 = (s: string) => Buffer.from(s).toString('base64url');
    for (const pageKey of ['not a key', 'abc$', `${good}=`, `${good}x`, b64('i1.12.x'), b64('i2.1.2'), b64('i1.99999999999999999.1'), b64('{"at":1}'), 'A'.repeat(500)]) {
      await refused(listIndexedHistory(t.app, { pageKey }), 'INVALID_ARGUMENT', 'page_key');
    }
  });

  test('opened results: recorded, listed newest first with version counts, paged by last_id', async () => {
    const opened: number[] = [];
    for (let i = 0; i < 5; i++) {
      const url = i === 3 ? 'https://elsewhere.example/never-indexed' : urls[i]!;
      const r = await recordOpened(t.app, { url, title: i === 0 ? undefined : `Result ${i}`, query: `query ${i}` });
      assert.match(r.opened, ISO);
      opened.push(r.id);
    }
    const all = await listOpenedHistory(t.app, {});
    assert.equal(all.mode, 'opened');
    assert.deepEqual(all.items.map((i) => i.id), [...opened].reverse());
    assert.ok(!('next_last_id' in all));
    assert.deepEqual(Object.keys(all.items[0]!), ['id', 'title', 'url', 'query', 'opened', 'version_count']);
    const last = all.items[all.items.length - 1]!;
    assert.deepEqual([last.url, last.title, last.query, last.version_count], [urls[0], 'Page 0', 'query 0', 1], 'the title defaults to the document title');
    assert.equal(all.items.find((i) => i.url.includes('never-indexed'))!.version_count, 0);

    const seen: number[] = [];
    let lastId: number | undefined;
    do {
      const page = await getHistory(t.app, { mode: 'opened', limit: 2, lastId });
      seen.push(...page.items.map((i) => i.id as number));
      lastId = page.next_last_id;
    } while (lastId !== undefined);
    assert.deepEqual(seen, all.items.map((i) => i.id));
  });

  test('last_id must be a positive whole number', async () => {
    for (const lastId of [0, -1, 1.5, Number.NaN, 2 ** 60]) await refused(listOpenedHistory(t.app, { lastId }), 'INVALID_ARGUMENT', 'last_id');
    assert.deepEqual((await listOpenedHistory(t.app, { lastId: 1 })).items, []);
  });

  test('getHistory: mode indexed by default; unknown modes and cursors of the other mode are refused', async () => {
    assert.equal((await getHistory(t.app, {})).mode, 'indexed');
    const err = await refused(getHistory(t.app, { mode: 'visited' }), 'INVALID_ARGUMENT', 'mode');
    assert.deepEqual(err.details?.allowed, ['indexed', 'opened']);
    await refused(getHistory(t.app, { mode: 'indexed', lastId: 3 }), 'INVALID_ARGUMENT', 'last_id');
    const key = (await listIndexedHistory(t.app, { limit: 1 })).next_page_key!;
    await refused(getHistory(t.app, { mode: 'opened', pageKey: key }), 'INVALID_ARGUMENT', 'page_key');
  });

  test('recordOpened checks its input: url scheme and size, title and query size', async () => {
    for (const url of ['', 'not a url', 'javascript:alert(1)', 'data:text/html,hi', 'ftp://files.example/x', `https://long.example/${'a'.repeat(8192)}`]) {
      await refused(recordOpened(t.app, { url }), 'INVALID_ARGUMENT', 'url');
    }
    await refused(recordOpened(t.app, { url: 'https://a.example/', title: 'é'.repeat(2049) }), 'INVALID_ARGUMENT', 'title');
    await refused(recordOpened(t.app, { url: 'https://a.example/', query: 'q'.repeat(4097) }), 'INVALID_ARGUMENT', 'query');
    await refused(recordOpened(t.app, { url: 42 as unknown as string }), 'INVALID_ARGUMENT', 'url');
    for (const url of ['memory:default/01M8ND3JCAV75EWEHV823336HE', 'file:///home/me/notes.md', 'http://a.example/x']) {
      const r = await recordOpened(t.app, { url, title: 't'.repeat(4096), query: '' });
      assert.ok(r.id > 0);
    }
    assert.equal((await listOpenedHistory(t.app, { limit: 1 })).items[0]!.url, 'http://a.example/x', 'the url is kept exactly');
  });

  test('secrets in an opened url, title or query are redacted before they are stored', async () => {
    const token = `ghp_${'A1b2C3d4'.repeat(5)}`;
    await recordOpened(t.app, { url: `https://me:hunter2@private.example/?t=${token}`, title: `token ${token}`, query: token });
    const [item] = (await listOpenedHistory(t.app, { limit: 1 })).items;
    const stored = JSON.stringify(item);
    assert.ok(!stored.includes(token) && !stored.includes('hunter2'), stored);
    assert.match(item!.url, /^https:\/\/me:REDACTED@private\.example\//);
    assert.match(item!.query, /\[REDACTED:/);
  });
});

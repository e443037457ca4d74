import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type ErrorCode, isTroveError } from '../../src/errors.js';
import { listDocuments } from '../../src/service/catalog-list.js';
import { addContent, addContents, deleteDocument } from '../../src/service/documents.js';
import type { CatalogAccess } from '../../src/store/types.js';
import { type CatalogFixture, catalogFixture, storeRaw } from './catalog-fixture.js';

// list_documents: revision-pinned pages, cursor expiry on an injected clock, filters under a cursor.

const rejectsWith = (p: Promise<unknown>, code: ErrorCode) => assert.rejects(p, (e: unknown) => isTroveError(e) && e.code === code);

async function urlsOf(f: CatalogFixture, access: CatalogAccess, input: Parameters<typeof listDocuments>[2]) {
  const page = await listDocuments(f.app, access, input);
  return { page, urls: page.documents.map((d) => d.url) };
}

describe('list_documents paging', () => {
  let f: CatalogFixture;
  let access: CatalogAccess;

  before(async () => {
    f = catalogFixture();
    access = await f.access();
    await addContents(f.app, ['e', 'c', 'a', 'd', 'b'].map((k) => ({ url: `https://pin.example/${k}`, title: `Page ${k}`, text: `text of ${k}`, source: 'test' })));
  });
  after(() => f.cleanup());

  test('sorted by url; pages stay pinned to their revision when the catalog changes in between', async () => {
    const first = await urlsOf(f, access, { pageSize: 2 });
    assert.deepEqual(first.urls, ['https://pin.example/a', 'https://pin.example/b']);
    assert.equal(first.page.total, 5);
    const pinned = first.page.revision;
    // One change: a document that sorts into page 1.
    await addContent(f.app, { url: 'https://pin.example/aa', text: 'late', source: 'test' });
    const second = await urlsOf(f, access, { pageSize: 2, cursor: first.page.nextCursor });
    assert.deepEqual(second.urls, ['https://pin.example/c', 'https://pin.example/d']);
    assert.equal(second.page.revision, pinned);
    assert.equal(second.page.total, 5);
    assert.equal(second.page.position, 2);
    const third = await urlsOf(f, access, { pageSize: 2, cursor: second.page.nextCursor });
    assert.deepEqual(third.urls, ['https://pin.example/e']);
    assert.equal(third.page.nextCursor, undefined);
    const fresh = await urlsOf(f, access, { pageSize: 100 });
    assert.equal(fresh.page.total, 6);
    assert.equal(fresh.page.revision, pinned + 1);
    assert.ok(fresh.urls.includes('https://pin.example/aa'));
  });

  test('a document removed after page 1 is left out of page 2 and counted, without shifting it', async () => {
    const first = await listDocuments(f.app, access, { pageSize: 3 });
    await deleteDocument(f.app, 'https://pin.example/c');
    const second = await urlsOf(f, access, { pageSize: 3, cursor: first.nextCursor });
    assert.deepEqual(second.urls, ['https://pin.example/d', 'https://pin.example/e']);
    assert.equal(second.page.removed, 1);
    assert.equal(second.page.position, 3);
  });

  test('a cursor is served while the catalog changed at most once since its revision', async () => {
    const first = await listDocuments(f.app, access, { pageSize: 1 });
    await addContent(f.app, { url: 'https://pin.example/z1', text: 'one', source: 'test' });
    await addContent(f.app, { url: 'https://pin.example/z2', text: 'two', source: 'test' });
    await rejectsWith(listDocuments(f.app, access, { pageSize: 1, cursor: first.nextCursor }), 'CURSOR_EXPIRED');
  });
});

describe('list_documents cursor expiry and misuse', () => {
  let f: CatalogFixture;
  let access: CatalogAccess;

  before(async () => {
    f = catalogFixture();
    access = await f.access();
    await addContents(f.app, Array.from({ length: 7 }, (_, i) => ({ url: `https://clock.example/${i}`, text: `note ${i}`, label: i % 2 ? 'odd' : 'even', source: 'test' })));
  });
  after(() => f.cleanup());

  test('60 s after it was issued a cursor expires; each page issues a fresh one', async () => {
    const p1 = await listDocuments(f.app, access, { pageSize: 2 });
    f.advance(60_000);
    const p2 = await listDocuments(f.app, access, { pageSize: 2, cursor: p1.nextCursor });
    assert.equal(p2.position, 2);
    f.advance(50_000);
    // 110 s after the snapshot was taken, 50 s after this cursor was issued: still served.
    const p3 = await listDocuments(f.app, access, { pageSize: 2, cursor: p2.nextCursor });
    assert.equal(p3.position, 4);
    f.advance(60_001);
    await rejectsWith(listDocuments(f.app, access, { pageSize: 2, cursor: p3.nextCursor }), 'CURSOR_EXPIRED');
    await rejectsWith(listDocuments(f.app, access, { pageSize: 2, cursor: p1.nextCursor }), 'CURSOR_EXPIRED');
  });

  test('changing the filters under a cursor is INVALID_ARGUMENT; changing pageSize is allowed', async () => {
    const p1 = await listDocuments(f.app, access, { label: 'even', pageSize: 1 });
    await assert.rejects(listDocuments(f.app, access, { label: 'odd', pageSize: 1, cursor: p1.nextCursor }), (e: unknown) => isTroveError(e) && e.code === 'INVALID_ARGUMENT' && e.details?.reason === 'cursor_filters_changed');
    await rejectsWith(listDocuments(f.app, access, { pageSize: 1, cursor: p1.nextCursor }), 'INVALID_ARGUMENT');
    const p2 = await listDocuments(f.app, access, { label: 'even', pageSize: 3, cursor: p1.nextCursor });
    assert.deepEqual(p2.documents.map((d) => d.label), ['even', 'even', 'even']);
    assert.equal(p2.nextCursor, undefined);
  });

  test('a forged or edited cursor is INVALID_ARGUMENT; one of another process lifetime is CURSOR_EXPIRED', async () => {
    const p1 = await listDocuments(f.app, access, { pageSize: 1 });
    const [body, sig] = p1.nextCursor!.split('.');
    const fields = JSON.parse(Buffer.from(body!, 'base64url').toString()) as unknown[];
    fields[4] = 5;
    const edited = `${Buffer.from(JSON.stringify(fields)).toString('base64url')}.${sig}`;
    for (const cursor of [edited, 'garbage', `${body}.AAAAAAAAAAAAAAAAAAAAAA`, `${body}.${sig}.x`]) {
      await rejectsWith(listDocuments(f.app, access, { pageSize: 1, cursor }), 'INVALID_ARGUMENT');
    }
    await f.app.store.beginEpoch();
    await rejectsWith(listDocuments(f.app, access, { pageSize: 1, cursor: p1.nextCursor }), 'CURSOR_EXPIRED');
  });

  test('the snapshot evicted while the catalog stays at its revision is taken again', async () => {
    const p1 = await listDocuments(f.app, access, { pageSize: 3 });
    // Far more listings than the cache keeps.
    for (let i = 0; i < 70; i++) await listDocuments(f.app, access, { query: `n${i}` });
    const p2 = await listDocuments(f.app, access, { pageSize: 3, cursor: p1.nextCursor });
    assert.equal(p2.position, 3);
    assert.equal(p2.documents.length, 3);
  });

  test('pageSize and query bounds', async () => {
    await rejectsWith(listDocuments(f.app, access, { pageSize: 101 }), 'INVALID_ARGUMENT');
    await rejectsWith(listDocuments(f.app, access, { pageSize: 0 }), 'INVALID_ARGUMENT');
    await rejectsWith(listDocuments(f.app, access, { query: 'x'.repeat(257) }), 'INVALID_ARGUMENT');
    assert.equal((await listDocuments(f.app, access, { query: '\u{1F600}'.repeat(256) })).total, 0);
    assert.equal((await listDocuments(f.app, access, {})).documents.length, 7);
  });
});

describe('list_documents filters', () => {
  let f: CatalogFixture;
  let access: CatalogAccess;

  before(async () => {
    f = catalogFixture();
    access = await f.access();
    await addContent(f.app, { url: 'https://en.wikipedia.org/wiki/Otter', title: 'Otter — Wikipedia', text: 'otters', label: 'Zoo', source: 'test' });
    await addContent(f.app, { url: 'https://blog.example/ÜBER-uns', title: 'Über uns', text: 'about', source: 'test' });
    await addContent(f.app, { url: 'https://blog.example/post', title: 'A post', text: 'post', label: 'WORK', source: 'test' });
    await storeRaw(f.app, { url: 'file:///notes/otter.md', text: 'local otter', kind: 'local' });
  });
  after(() => f.cleanup());

  const urls = async (input: Parameters<typeof listDocuments>[2]) => (await listDocuments(f.app, access, input)).documents.map((d) => d.url);

  test('query: case-insensitive substring of title, url or label', async () => {
    assert.deepEqual(await urls({ query: 'OTTER' }), ['file:///notes/otter.md', 'https://en.wikipedia.org/wiki/Otter']);
    assert.deepEqual(await urls({ query: 'über' }), ['https://blog.example/%C3%9CBER-uns']);
    assert.deepEqual(await urls({ query: 'work' }), ['https://blog.example/post']);
    assert.deepEqual(await urls({ query: 'nothing like it' }), []);
  });

  test('kind, label and domain match exactly', async () => {
    assert.deepEqual(await urls({ kind: 'local' }), ['file:///notes/otter.md']);
    assert.deepEqual(await urls({ label: 'Zoo' }), ['https://en.wikipedia.org/wiki/Otter']);
    assert.deepEqual(await urls({ label: 'zoo' }), []);
    assert.deepEqual(await urls({ domain: 'blog.example' }), ['https://blog.example/%C3%9CBER-uns', 'https://blog.example/post']);
    assert.deepEqual(await urls({ domain: 'example' }), []);
    assert.deepEqual(await urls({ kind: 'memory' }), []);
  });
});

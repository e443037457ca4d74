import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type ErrorCode, isTroveError } from '../../src/errors.js';
import { ANONYMOUS, OWNER, type Principal, authorize } from '../../src/service/access.js';
import { getCatalogDocument, readDocumentText } from '../../src/service/catalog.js';
import { listDocuments } from '../../src/service/catalog-list.js';
import { getCatalogStatus } from '../../src/service/catalog-status.js';
import { retain } from '../../src/service/memory.js';
import { jsonStringBytes } from '../../src/service/paging.js';
import { watchDirectories } from '../../src/service/folder-watch.js';
import type { CatalogAccess } from '../../src/store/types.js';
import { tempDir } from '../helpers.js';
import { type CatalogFixture, catalogFixture, storeRaw } from './catalog-fixture.js';

// get_document and read_text: staleness, code-point pages with hashes, exact ids; get_status counts per caller.

const rejectsWith = (p: Promise<unknown>, code: ErrorCode) => assert.rejects(p, (e: unknown) => isTroveError(e) && e.code === code);
const sha = (s: string) => createHash('sha256').update(Buffer.from(s, 'utf8')).digest('hex');
const BIG = 1 << 20;

const ASTRAL = 'a\u{1F600}b\u{1D11E}c\u00e9\n';

describe('get_document and read_text', () => {
  let f: CatalogFixture;
  let access: CatalogAccess;
  let id: string;

  before(async () => {
    f = catalogFixture();
    access = await f.access();
    id = (await storeRaw(f.app, { url: 'https://text.example/astral', text: ASTRAL.repeat(50), title: 'Astral' })).document.id;
    await storeRaw(f.app, { url: 'https://text.example/empty', text: '' });
  });
  after(() => f.cleanup());

  test('expectedRevision: equal reads, any other revision is STALE_REVISION', async () => {
    const { revision } = await f.app.store.instanceState();
    const doc = await getCatalogDocument(f.app, access, { documentId: id, expectedRevision: revision });
    assert.equal(doc.revision, revision);
    assert.equal(doc.document.title, 'Astral');
    assert.deepEqual(doc.versions.map((v) => v.id), [doc.document.currentVersionId]);
    assert.match(doc.uris.text, /^trove:\/\/[0-9A-Z]{26}\/documents\/[0-9A-Z]{26}\/text$/);
    assert.equal(doc.uris.source, undefined);
    for (const expectedRevision of [revision - 1, revision + 1]) {
      await rejectsWith(getCatalogDocument(f.app, access, { documentId: id, expectedRevision }), 'STALE_REVISION');
      await rejectsWith(readDocumentText(f.app, access, { documentId: id, expectedRevision }, BIG), 'STALE_REVISION');
    }
  });

  test('pages count code points (astral characters are one), concatenate to the text, hash the whole text', async () => {
    const stored = (await f.app.store.getText(id))!;
    const total = [...stored].length;
    let offset = 0;
    let joined = '';
    let pages = 0;
    for (;;) {
      const r = await readDocumentText(f.app, access, { documentId: id, offset, limit: 7 }, BIG);
      assert.equal(r.sha256, sha(stored));
      assert.equal(r.length, total);
      assert.equal([...r.text].length, r.count);
      joined += r.text;
      pages++;
      if (r.nextOffset === undefined) break;
      assert.equal(r.nextOffset, offset + 7);
      offset = r.nextOffset;
    }
    assert.equal(joined, stored);
    assert.equal(pages, Math.ceil(total / 7));
    const mid = await readDocumentText(f.app, access, { documentId: id, offset: 1, limit: 3 }, BIG);
    assert.equal(mid.text, '\u{1F600}b\u{1D11E}');
  });

  test('a page shortens itself to the byte bound and says so', async () => {
    const r = await readDocumentText(f.app, access, { documentId: id, limit: 1000 }, 100);
    assert.equal(r.shortened, true);
    assert.ok(jsonStringBytes(r.text) <= 100);
    assert.ok(jsonStringBytes(r.text) > 90);
    assert.equal(r.nextOffset, r.count);
  });

  test('empty text is an empty page; unknown version TEXT_NOT_FOUND; offset past the end INVALID_ARGUMENT', async () => {
    const empty = await readDocumentText(f.app, access, { documentId: 'https://text.example/empty' }, BIG);
    assert.deepEqual([empty.text, empty.count, empty.length, empty.nextOffset], ['', 0, 0, undefined]);
    assert.equal(empty.sha256, sha(''));
    await rejectsWith(readDocumentText(f.app, access, { documentId: id, versionId: 999_999 }, BIG), 'TEXT_NOT_FOUND');
    await rejectsWith(readDocumentText(f.app, access, { documentId: id, offset: 351 }, BIG), 'INVALID_ARGUMENT');
    const end = await readDocumentText(f.app, access, { documentId: id, offset: 350 }, BIG);
    assert.deepEqual([end.text, end.nextOffset], ['', undefined]);
  });

  test('ids are exact strings: spaces, Unicode, slashes, percent signs and dots', async () => {
    for (const url of ['note:with space/ü/%41/./../x', 'x:%2e%2e/..', '../../etc/passwd', 'Ünïcödé ✓ 😀', 'a/b%2Fc']) {
      const written = await storeRaw(f.app, { url, text: `text of ${url}` });
      const byUrl = await getCatalogDocument(f.app, access, { documentId: url });
      assert.equal(byUrl.document.id, written.document.id, url);
      assert.equal(byUrl.document.url, url);
      assert.equal((await readDocumentText(f.app, access, { documentId: written.document.id }, BIG)).text, `text of ${url}`);
    }
    await rejectsWith(getCatalogDocument(f.app, access, { documentId: 'note:with space/ü/%41/../x' }), 'NOT_FOUND');
    await rejectsWith(getCatalogDocument(f.app, access, { documentId: 'NOTE:with space/ü/%41/./../x' }), 'NOT_FOUND');
    await rejectsWith(getCatalogDocument(f.app, access, { documentId: 'é'.repeat(1025) }), 'INVALID_ARGUMENT');
    await rejectsWith(getCatalogDocument(f.app, access, { documentId: 'é'.repeat(1024) }), 'NOT_FOUND');
    await rejectsWith(getCatalogDocument(f.app, access, { documentId: '' }), 'INVALID_ARGUMENT');
  });
});

describe('tenancy of the catalog services', () => {
  let f: CatalogFixture;
  const alice: Principal = { kind: 'user', userId: 0, name: 'alice', admin: false };
  const bob: Principal = { kind: 'user', userId: 0, name: 'bob', admin: false };
  let secret: string;

  before(async () => {
    f = catalogFixture({ 'app.user_handling': 'true' });
    alice.userId = (await f.app.store.createUser('alice', false, 'hash-a')).id;
    bob.userId = (await f.app.store.createUser('bob', false, 'hash-b')).id;
    await storeRaw(f.app, { url: 'https://shared.example/global', text: 'for everyone' });
    secret = (await storeRaw(f.app, { url: 'https://shared.example/diary', text: 'alice only', ownerId: alice.userId })).document.id;
  });
  after(() => f.cleanup());

  test('a user lists, reads and counts the global documents and their own, never another user\'s', async () => {
    const asAlice = await f.access(alice);
    const asBob = await f.access(bob);
    assert.equal((await listDocuments(f.app, asAlice, {})).total, 2);
    assert.deepEqual((await listDocuments(f.app, asBob, {})).documents.map((d) => d.url), ['https://shared.example/global']);
    assert.equal((await readDocumentText(f.app, asAlice, { documentId: secret }, BIG)).text, 'alice only');
    await rejectsWith(readDocumentText(f.app, asBob, { documentId: secret }, BIG), 'NOT_FOUND');
    await rejectsWith(getCatalogDocument(f.app, asBob, { documentId: 'https://shared.example/diary' }), 'NOT_FOUND');
    await rejectsWith(getCatalogDocument(f.app, await f.access(ANONYMOUS), { documentId: secret }), 'NOT_FOUND');
    assert.equal((await getCatalogStatus(f.app, asAlice)).counts.documents, 2);
    assert.equal((await getCatalogStatus(f.app, asBob)).counts.documents, 1);
  });

  test("another user's cursor is not served", async () => {
    const page = await listDocuments(f.app, await f.access(alice), { pageSize: 1 });
    await assert.rejects(listDocuments(f.app, await f.access(bob), { pageSize: 1, cursor: page.nextCursor }), (e: unknown) => isTroveError(e) && e.code === 'INVALID_ARGUMENT' && e.details?.reason === 'cursor_invalid');
  });
});

describe('memories in the catalog', () => {
  test('only the connection bank\'s memories are listed, read and counted', async () => {
    const f = catalogFixture();
    try {
      const grant = authorize(OWNER, 'memory.write');
      const { id } = await retain(f.app, { bank: 'alpha', content: 'the user prefers tea', source: 'test', grant });
      await retain(f.app, { bank: 'beta', content: 'the user prefers coffee', source: 'test', grant });
      const alpha = await f.access(OWNER, 'alpha');
      const listed = await listDocuments(f.app, alpha, { kind: 'memory' });
      assert.deepEqual(listed.documents.map((d) => d.id), [id]);
      assert.equal((await readDocumentText(f.app, alpha, { documentId: id }, BIG)).text, 'the user prefers tea');
      assert.equal((await getCatalogStatus(f.app, alpha)).counts.memory, 1);
      await rejectsWith(readDocumentText(f.app, await f.access(OWNER, 'beta'), { documentId: id }, BIG), 'NOT_FOUND');
      for (const access of [await f.access(), await f.access(OWNER, 'gamma'), await f.access(ANONYMOUS, 'alpha')]) {
        assert.equal((await listDocuments(f.app, access, {})).total, 0);
        await rejectsWith(getCatalogDocument(f.app, access, { documentId: id }), 'NOT_FOUND');
      }
    } finally {
      await f.cleanup();
    }
  });
});

describe('get_status', () => {
  let f: CatalogFixture;

  before(async () => {
    f = catalogFixture({ 'indexer.directories': JSON.stringify([{ path: '/nonexistent/trove-folder' }]) });
  });
  after(() => f.cleanup());

  test('lifecycle follows running work; identity, counts and diagnostics without paths', async () => {
    const access = await f.access();
    await storeRaw(f.app, { url: 'file:///x.md', text: 'x', kind: 'local' });
    const ready = await getCatalogStatus(f.app, access);
    assert.equal(ready.lifecycle, 'ready');
    assert.equal(ready.updating, false);
    assert.deepEqual(ready.counts, { documents: 1, web: 0, local: 1, memory: 0, versions: 1 });
    assert.match(ready.buildId, /^0\.1\.0\+[0-9a-f]{16}$/);
    assert.equal(ready.revision, (await f.app.store.instanceState()).revision);
    assert.equal(ready.uri, `trove://${ready.instanceId}/status`);
    assert.deepEqual(ready.diagnostics.map((d) => d.code), ['FOLDER_MISSING']);
    assert.ok(!JSON.stringify(ready.diagnostics).includes('/nonexistent'));
    const user = await getCatalogStatus(f.app, await f.access({ kind: 'user', userId: 7, name: 'u', admin: false }));
    assert.deepEqual([user.diagnostics, user.counts.documents], [[], 1]);
    assert.equal(ready.capabilities.semantic.available, false);
    assert.equal(typeof ready.capabilities.inspection.available, 'boolean');
    const end = f.app.lifecycle.begin('folder sync');
    assert.equal((await getCatalogStatus(f.app, access)).lifecycle, 'updating');
    end();
    const again = await getCatalogStatus(f.app, access);
    assert.equal(again.lifecycle, 'ready');
    assert.equal(again.buildId, ready.buildId);
  });

  test('files refused by the initial folder sync become a diagnostic', async () => {
    const t = tempDir('trove-status-');
    const root = join(t.dir, 'notes');
    mkdirSync(root);
    writeFileSync(join(root, 'good.txt'), 'fine\n');
    writeFileSync(join(root, 'bad.txt'), Buffer.from([0x63, 0xe9, 0x0a]));
    const g = catalogFixture({ 'indexer.directories': JSON.stringify([{ path: root }]) });
    try {
      const watching = watchDirectories(g.app, { initialSync: true });
      await watching.idle();
      await watching.close();
      const status = await getCatalogStatus(g.app, await g.access());
      assert.deepEqual(status.diagnostics.map((d) => [d.code, d.count]), [['FOLDER_FILES_REFUSED', 1]]);
      assert.deepEqual([status.lifecycle, status.counts.local], ['ready', 1]);
    } finally {
      await g.cleanup();
      t.cleanup();
    }
  });
});

// The Store contract: every backend runs this same suite (sqlite now, postgres later).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { chunkText } from '../../src/engine/chunk.js';
import { parseQuery } from '../../src/engine/query/parse.js';
import { type DocumentWrite, MAX_CHUNKS, type SearchRequest, type Store } from '../../src/store/types.js';
import { historyContract } from './contract-history.js';
import { memoryContract } from './contract-memory.js';
import { usersContract } from './contract-users.js';
import { scopeContract } from './contract-scope.js';
import { viewsContract } from './contract-views.js';

export interface StoreFactory {
  open(): Promise<Store>;
  dispose(): Promise<void>;
}

const T0 = Date.UTC(2026, 0, 15, 12);

export function docWrite(url: string, text: string, extra: Partial<DocumentWrite> = {}): DocumentWrite {
  const u = new URL(url);
  return {
    kind: u.protocol === 'file:' ? 'local' : 'web',
    url,
    title: `Title of ${u.pathname}`,
    domain: u.protocol === 'file:' ? '' : u.hostname,
    language: 'en',
    label: null,
    source: 'test',
    metadata: {},
    text,
    html: null,
    rawHtml: null,
    sha256: createHash('sha256').update(text).digest('hex'),
    capturedAt: T0,
    chunks: chunkText(text, { size: 2000, maxChunks: MAX_CHUNKS }),
    ...extra,
  };
}

function request(query: string, limit = 10): SearchRequest {
  return { query: parseQuery(query, T0), limit, window: limit + 5, weights: { title: 8, domain: 4, url: 2, text: 1 } };
}

export function storeContract(name: string, factory: StoreFactory): void {
  describe(`Store contract: ${name}`, () => {
    let store: Store;
    before(async () => {
      store = await factory.open();
    });
    after(async () => {
      await store.close();
      await factory.dispose();
    });

    it('starts empty with an instance id and revision 0', async () => {
      const info = await store.info();
      assert.equal(info.counts.documents, 0);
      assert.equal(info.revision, 0);
      assert.match(info.instanceId, /^[0-9A-Z]{26}$/);
    });

    it('creates a document, then adds no version for unchanged content and one for changed content', async () => {
      const first = await store.writeDocument(docWrite('https://a.example/one', 'alpha beta gamma'));
      assert.equal(first.created, true);
      assert.equal(first.versionAdded, true);
      assert.equal(first.document.versionCount, 1);
      const same = await store.writeDocument(docWrite('https://a.example/one', 'alpha beta gamma'));
      assert.equal(same.created, false);
      assert.equal(same.versionAdded, false);
      assert.equal(same.changed, false);
      assert.equal(same.revision, first.revision);
      const changed = await store.writeDocument(docWrite('https://a.example/one', 'alpha beta delta', { capturedAt: T0 + 1000 }));
      assert.equal(changed.versionAdded, true);
      assert.equal(changed.document.versionCount, 2);
      assert.ok(changed.revision > first.revision);
      assert.equal(changed.document.id, first.document.id);
      const versions = await store.listVersions(first.document.id);
      assert.equal(versions.length, 2);
      assert.equal(await store.getText(first.document.id), 'alpha beta delta');
      assert.equal(await store.getText(first.document.id, versions[0]!.id), 'alpha beta gamma');
    });

    it('finds a document by id and by exact url, and nothing for near misses', async () => {
      const { document } = await store.writeDocument(docWrite('https://a.example/Case', 'case sensitive url'));
      assert.equal((await store.getDocument(document.id))?.url, 'https://a.example/Case');
      assert.equal((await store.getDocument('https://a.example/Case'))?.id, document.id);
      assert.equal(await store.getDocument('https://a.example/case'), undefined);
      assert.equal(await store.getDocument(document.id.toLowerCase()), undefined);
    });

    it('indexes the current version only', async () => {
      const hits = async (q: string) => (await store.search(request(q))).candidates.map((c) => c.document.url);
      assert.deepEqual(await hits('delta'), ['https://a.example/one']);
      assert.deepEqual(await hits('gamma'), []);
    });

    it('keeps metadata, label and times', async () => {
      const w = docWrite('https://b.example/meta', 'metadata holder', { label: 'Work', metadata: { author: 'Ada' }, capturedAt: T0 - 5000 });
      const { document } = await store.writeDocument(w);
      assert.equal(document.label, 'Work');
      assert.deepEqual(document.metadata, { author: 'Ada' });
      assert.equal(document.addedAt, T0 - 5000);
      assert.equal(document.updatedAt, T0 - 5000);
      assert.equal(document.kind, 'web');
      assert.equal(document.domain, 'b.example');
    });

    it('updates attributes of unchanged content without a version or a new updated time', async () => {
      const first = await store.writeDocument(docWrite('https://b.example/relabel', 'stable body', { title: 'Old heading' }));
      const later = docWrite('https://b.example/relabel', 'stable body', { title: 'New heading', label: 'moved', capturedAt: T0 + 60_000 });
      const second = await store.writeDocument(later);
      assert.equal(second.changed, true);
      assert.equal(second.versionAdded, false);
      assert.ok(second.revision > first.revision);
      assert.equal(second.document.versionCount, 1);
      assert.equal(second.document.label, 'moved');
      assert.equal(second.document.updatedAt, first.document.updatedAt);
      const urls = async (q: string) => (await store.search(request(q))).candidates.map((c) => c.document.url);
      assert.deepEqual(await urls('title:new'), ['https://b.example/relabel']);
      assert.deepEqual(await urls('title:old'), []);
    });

    it('groups passages of one document into one result with its best passage', async () => {
      const long = `${'filler words here. '.repeat(200)}\n\nthe needle passage mentions zebra twice: zebra.\n\n${'more filler. '.repeat(200)}`;
      await store.writeDocument(docWrite('https://c.example/long', long));
      const out = await store.search(request('zebra'));
      assert.equal(out.candidates.length, 1);
      assert.equal(out.total, 1);
      assert.match(out.candidates[0]!.chunkText, /zebra/);
    });

    it('deletes a document and its index entries', async () => {
      const { document } = await store.writeDocument(docWrite('https://d.example/gone', 'ephemeral quokka'));
      assert.equal((await store.search(request('quokka'))).total, 1);
      assert.equal(await store.deleteDocument(document.id), true);
      assert.equal(await store.deleteDocument(document.id), false);
      assert.equal((await store.search(request('quokka'))).total, 0);
      assert.equal(await store.getDocument(document.id), undefined);
    });

    it('lists document urls under a prefix, optionally from one source, ordered by url', async () => {
      const urls = ['file:///srv/docs/b.md', 'file:///srv/docs/a%25_x.md', 'file:///srv/docs/sub/c.md', 'file:///srv/docs2/d.md', 'file:///srv/doc.md'];
      for (const [i, url] of urls.entries()) await store.writeDocument(docWrite(url, `prefix listing ${i}`, { source: i === 1 ? 'cli' : 'folder' }));
      const all = await store.listDocumentUrls('file:///srv/docs/');
      assert.deepEqual(all.map((d) => d.url), ['file:///srv/docs/a%25_x.md', 'file:///srv/docs/b.md', 'file:///srv/docs/sub/c.md']);
      assert.deepEqual(all.map((d) => d.source), ['cli', 'folder', 'folder']);
      const doc = await store.getDocument('file:///srv/docs/b.md');
      assert.equal(all[1]!.id, doc!.id);
      const folder = await store.listDocumentUrls('file:///srv/docs/', 'folder');
      assert.deepEqual(folder.map((d) => d.url), ['file:///srv/docs/b.md', 'file:///srv/docs/sub/c.md']);
      assert.deepEqual(await store.listDocumentUrls('file:///nowhere/'), []);
      for (const d of await store.listDocumentUrls('file:///srv/')) await store.deleteDocument(d.id);
    });

    historyContract(() => store, docWrite);
    viewsContract(() => store, docWrite);
    scopeContract(() => store, docWrite);
    usersContract(() => store);
    memoryContract(() => store, docWrite);

    it('counts documents by kind and bumps the epoch', async () => {
      await store.writeDocument(docWrite('file:///tmp/notes.txt', 'local note'));
      const info = await store.info();
      assert.equal(info.counts.local, 1);
      assert.equal(info.counts.documents, info.counts.web + info.counts.local + info.counts.memory);
      const e1 = await store.beginEpoch();
      const e2 = await store.beginEpoch();
      assert.equal(e2, e1 + 1);
    });
  });
}

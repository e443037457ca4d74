// Store contract, vectors and the embedding queue: every backend runs this suite on fresh stores.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { chunkText } from '../../src/engine/chunk.js';
import { type ChunkFilter, type EmbeddingTask, MAX_CHUNKS, type Store, type VectorSpace } from '../../src/store/types.js';
import { fakeEmbedding } from '../providers/openai-server.js';
import { docWrite } from './contract.js';

export interface VectorStoreFactory {
  /** A new, empty store; `reopen` the same one again after close. */
  open(): Promise<Store>;
  reopen(): Promise<Store>;
  dispose(): Promise<void>;
}

const SPACE: VectorSpace = { model: 'fake-embed', dimensions: 32 };
const ALL: ChunkFilter = { scope: { all: true }, bankId: null };
const T0 = Date.UTC(2026, 1, 10, 9);
const DAY = 86_400_000;

const vec = (text: string, dims = SPACE.dimensions) => Float32Array.from(fakeEmbedding(text, dims));

async function embedAll(store: Store, space = SPACE): Promise<number> {
  let n = 0;
  for (let tasks = await store.pendingEmbeddings(7); tasks.length; tasks = await store.pendingEmbeddings(7)) {
    n += await store.storeEmbeddings(space, tasks.map((t) => ({ chunkId: t.chunkId, ticket: t.ticket, vector: vec(t.text, space.dimensions) })));
  }
  return n;
}

function memoryWrite(ownerId: number | null, bank: string, text: string) {
  return {
    ownerId,
    bank,
    document: {
      title: text, domain: '', language: 'en', label: null, source: 'mcp:test', metadata: {}, text, html: null, rawHtml: null,
      sha256: createHash('sha256').update(text).digest('hex'), capturedAt: T0, chunks: chunkText(text, { size: 2000, maxChunks: MAX_CHUNKS }),
    },
  };
}

export function vectorsContract(name: string, factory: VectorStoreFactory): void {
  describe(`Store contract, vectors: ${name}`, () => {
    let store: Store;
    let alice: number;
    let bob: number;
    let aliceBank: number;
    let bobBank: number;
    before(async () => {
      store = await factory.open();
      alice = (await store.createUser('v-alice', false, 'a'.repeat(64))).id;
      bob = (await store.createUser('v-bob', false, 'b'.repeat(64))).id;
      await store.writeDocuments([
        docWrite('https://cars.example/buy', 'We bought a new automobile last spring, a small electric one.', { capturedAt: T0 }),
        docWrite('https://bake.example/bread', 'Sourdough bread needs a lively starter and patience.', { capturedAt: T0 + 5 * DAY }),
        docWrite('https://alice.example/diary', 'My physician says I should walk every day.', { ownerId: alice, capturedAt: T0 }),
        docWrite('https://bob.example/diary', 'The physician told Bob to rest.', { ownerId: bob, capturedAt: T0 }),
      ]);
      await store.retainMemory(memoryWrite(alice, 'work', 'The doctor appointment is on Friday.'));
      await store.retainMemory(memoryWrite(bob, 'home', 'Bob went to the doctor with his dog.'));
      aliceBank = (await store.getBank(alice, 'work'))!.id;
      bobBank = (await store.getBank(bob, 'home'))!.id;
    });
    after(async () => {
      await store.close();
      await factory.dispose();
    });

    it('before vectors are first opened: no space, every chunk counts as queued, no search', async () => {
      const counts = await store.embeddingCounts();
      assert.equal(counts.space, null);
      assert.equal(counts.queued, (await store.info()).counts.chunks);
      assert.equal(counts.embedded, 0);
      assert.equal(await store.searchVectors({ space: SPACE, vector: vec('car'), filter: ALL, limit: 5 }), undefined);
    });

    it('opening a space queues every chunk once, with its text, title and kind', async () => {
      assert.deepEqual(await store.openVectors(SPACE), { reset: true });
      const tasks = await store.pendingEmbeddings(100);
      assert.equal(tasks.length, (await store.info()).counts.chunks);
      assert.equal(new Set(tasks.map((t) => t.chunkId)).size, tasks.length);
      const car = tasks.find((t) => t.text.includes('automobile'))!;
      assert.equal(car.kind, 'web');
      assert.equal(car.title, 'Title of /buy');
      assert.equal(tasks.find((t) => t.text.includes('appointment'))!.kind, 'memory');
      assert.deepEqual(await store.openVectors(SPACE), { reset: false }, 'the same space again changes nothing');
      assert.equal((await store.pendingEmbeddings(100)).length, tasks.length);
    });

    it('stores vectors, empties the queue, counts them', async () => {
      const n = await embedAll(store);
      assert.equal(n, (await store.info()).counts.chunks);
      assert.deepEqual(await store.pendingEmbeddings(10), []);
      const counts = await store.embeddingCounts();
      assert.deepEqual(counts, { space: SPACE, embedded: n, queued: 0, failed: 0 });
    });

    it('nearest chunks first, score the cosine similarity, paraphrases found without shared words', async () => {
      const hits = (await store.searchVectors({ space: SPACE, vector: vec('purchase of a car'), filter: ALL, limit: 3 }))!;
      assert.equal(hits[0]!.url, 'https://cars.example/buy');
      assert.ok(hits[0]!.score > 0.3 && hits[0]!.score <= 1.0001);
      for (let i = 1; i < hits.length; i++) assert.ok(hits[i - 1]!.score >= hits[i]!.score);
      assert.equal((await store.searchVectors({ space: SPACE, vector: vec('x'), filter: ALL, limit: 2 }))!.length, 2, 'limit holds');
    });

    it('sees only what the filter lets through: owners, banks, kinds, dates', async () => {
      const urls = async (filter: ChunkFilter) => ((await store.searchVectors({ space: SPACE, vector: vec('doctor physician'), filter, limit: 20 })) ?? []).map((h) => h.url).sort();
      const all = await urls(ALL);
      assert.ok(all.includes('https://alice.example/diary') && all.includes('https://bob.example/diary'));
      assert.ok(!all.some((u) => u.startsWith('memory:')), 'no bank: no memories');
      const asAlice = await urls({ scope: { userId: alice }, bankId: aliceBank });
      assert.ok(asAlice.includes('https://alice.example/diary'));
      assert.ok(!asAlice.includes('https://bob.example/diary'));
      assert.ok(asAlice.some((u) => u.startsWith('memory:work/')));
      assert.ok(!asAlice.some((u) => u.startsWith('memory:home/')));
      const globalOnly = await urls({ scope: { userId: null }, bankId: null });
      assert.ok(!globalOnly.some((u) => u.includes('diary')));
      const memoriesOnly = await urls({ scope: { userId: bob }, bankId: bobBank, kinds: ['memory'] });
      assert.equal(memoriesOnly.length, 1);
      assert.match(memoriesOnly[0]!, /^memory:home\//);
      const late = await urls({ scope: { all: true }, bankId: null, since: T0 + DAY });
      assert.deepEqual(late, ['https://bake.example/bread']);
    });

    it('a rewritten document is queued again; an answer for the old text is not stored', async () => {
      const before = await store.pendingEmbeddings(5);
      assert.equal(before.length, 0);
      await store.writeDocument(docWrite('https://bake.example/bread', 'Rye bread takes a sour starter.', { capturedAt: T0 + 6 * DAY }));
      const [task] = await store.pendingEmbeddings(5);
      assert.ok(task);
      assert.equal(task.text, 'Rye bread takes a sour starter.');
      await store.writeDocument(docWrite('https://bake.example/bread', 'Spelt bread is nutty.', { capturedAt: T0 + 7 * DAY }));
      assert.equal(await store.storeEmbeddings(SPACE, [{ chunkId: task.chunkId, ticket: task.ticket, vector: vec(task.text) }]), 0, 'stale ticket');
      const [fresh] = await store.pendingEmbeddings(5);
      assert.equal(fresh!.text, 'Spelt bread is nutty.');
      assert.equal(await embedAll(store), 1);
      const hit = (await store.searchVectors({ space: SPACE, vector: vec('Spelt bread is nutty.'), filter: ALL, limit: 1 }))![0]!;
      assert.equal(hit.text, 'Spelt bread is nutty.');
      assert.ok(hit.score > 0.999);
    });

    it('a changed title queues the document again (titles are part of what is embedded)', async () => {
      await store.writeDocument(docWrite('https://cars.example/buy', 'We bought a new automobile last spring, a small electric one.', { capturedAt: T0, title: 'Our new car' }));
      const tasks = await store.pendingEmbeddings(5);
      assert.equal(tasks.length, 1);
      assert.equal(tasks[0]!.title, 'Our new car');
      await embedAll(store);
    });

    it('a deleted document leaves the vectors and the queue', async () => {
      const doc = (await store.getDocument('https://bob.example/diary'))!;
      const before = (await store.embeddingCounts()).embedded;
      assert.equal(await store.deleteDocument(doc.id), true);
      assert.deepEqual(await store.pendingEmbeddings(5), [], 'removed chunks are never handed out');
      const after = await store.embeddingCounts();
      assert.equal(after.embedded, before - 1);
      assert.equal(after.queued, 0);
      const urls = (await store.searchVectors({ space: SPACE, vector: vec('physician told Bob to rest'), filter: ALL, limit: 10 }))!.map((h) => h.url);
      assert.ok(!urls.includes('https://bob.example/diary'));
    });

    it('refused chunks leave the queue until they change', async () => {
      await store.writeDocument(docWrite('https://odd.example/x', 'An odd passage the endpoint refuses.', { capturedAt: T0 }));
      const [task] = await store.pendingEmbeddings(5);
      await store.failEmbeddings([task as EmbeddingTask]);
      assert.deepEqual(await store.pendingEmbeddings(5), []);
      assert.equal((await store.embeddingCounts()).failed, 1);
      await store.writeDocument(docWrite('https://odd.example/x', 'A fixed passage.', { capturedAt: T0 + DAY }));
      assert.equal((await store.pendingEmbeddings(5)).length, 1);
      assert.equal((await store.embeddingCounts()).failed, 0);
      await embedAll(store);
    });

    it('queue and vectors survive closing and reopening the store', async () => {
      await store.writeDocument(docWrite('https://later.example/a', 'Written before a restart, not yet embedded.', { capturedAt: T0 }));
      const counts = await store.embeddingCounts();
      await store.close();
      store = await factory.reopen();
      assert.deepEqual(await store.embeddingCounts(), counts);
      assert.equal(counts.queued, 1);
      assert.ok((await store.searchVectors({ space: SPACE, vector: vec('sourdough'), filter: ALL, limit: 1 }))!.length === 1);
      assert.deepEqual(await store.openVectors(SPACE), { reset: false });
      assert.equal((await store.pendingEmbeddings(5))[0]!.text, 'Written before a restart, not yet embedded.');
      await embedAll(store);
    });

    it('another model or length drops every vector and queues every chunk again', async () => {
      const chunks = (await store.info()).counts.chunks;
      const next: VectorSpace = { model: 'fake-embed-2', dimensions: 16 };
      assert.deepEqual(await store.openVectors(next), { reset: true });
      assert.deepEqual(await store.embeddingCounts(), { space: next, embedded: 0, queued: chunks, failed: 0 });
      assert.equal(await store.searchVectors({ space: SPACE, vector: vec('car'), filter: ALL, limit: 3 }), undefined, 'old vectors are gone');
      assert.equal(await store.storeEmbeddings(SPACE, [{ chunkId: 1, ticket: 1, vector: vec('x') }]), 0, 'answers for the old space are dropped');
      assert.equal(await embedAll(store, next), chunks);
      const hits = (await store.searchVectors({ space: next, vector: vec('sourdough spelt bread', 16), filter: ALL, limit: 1 }))!;
      assert.equal(hits[0]!.url, 'https://bake.example/bread');
    });
  });
}

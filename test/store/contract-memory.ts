// Store contract, memory: banks, retained memories, chunk reads, entities and sources, all scoped. Called inside the storeContract suite.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { it } from 'node:test';
import { chunkText } from '../../src/engine/chunk.js';
import { parseQuery } from '../../src/engine/query/parse.js';
import { ALL_OWNERS, type ChunkFilter, type DocumentWrite, MAX_CHUNKS, type MemoryWrite, type Store } from '../../src/store/types.js';

type DocWrite = (url: string, text: string, extra?: Partial<DocumentWrite>) => DocumentWrite;

const WEIGHTS = { title: 8, domain: 4, url: 2, text: 1 };
const T0 = Date.UTC(2026, 1, 1, 9);

function memory(ownerId: number | null, bank: string, text: string, at = T0, source = 'mcp:test'): MemoryWrite {
  return {
    ownerId,
    bank,
    document: {
      title: text.slice(0, 40), domain: '', language: 'unknown', label: null, source, metadata: { context: 'general', type: 'world', event_date: null, retained_count: 1 },
      text, html: null, rawHtml: null, sha256: createHash('sha256').update(text).digest('hex'), capturedAt: at,
      chunks: chunkText(text, { size: 2000, maxChunks: MAX_CHUNKS }),
    },
  };
}

const words = (q: string) => q.toLowerCase().split(/\s+/);

export function memoryContract(store: () => Store, docWrite: DocWrite): void {
  it('keeps banks per owner and merges a memory retained twice', async () => {
    const a = await store().createUser('mem-alice', false, 'e'.repeat(64));
    const b = await store().createUser('mem-bob', false, 'f'.repeat(64));
    const first = await store().retainMemory(memory(a.id, 'alice', 'Prefers tea over coffee in the morning'));
    assert.equal(first.merged, false);
    assert.equal(first.retainedCount, 1);
    assert.equal(first.document.kind, 'memory');
    assert.equal(first.document.url, `memory:alice/${first.document.id}`);
    assert.equal(first.document.ownerId, a.id);
    const again = await store().retainMemory(memory(a.id, 'alice', 'Prefers tea over coffee in the morning', T0 + 1000));
    assert.equal(again.merged, true);
    assert.equal(again.retainedCount, 2);
    assert.equal(again.document.id, first.document.id);
    assert.equal(again.document.updatedAt, T0 + 1000);
    assert.equal(again.document.metadata.retained_count, 2);
    assert.ok(again.revision > first.revision, 'a merge is a change');
    // Same text, other bank or other owner: separate memories.
    const otherBank = await store().retainMemory(memory(a.id, 'work', 'Prefers tea over coffee in the morning'));
    const otherOwner = await store().retainMemory(memory(b.id, 'alice', 'Prefers tea over coffee in the morning'));
    assert.equal(otherBank.merged, false);
    assert.equal(otherOwner.merged, false);
    assert.notEqual(otherOwner.document.id, first.document.id);

    assert.deepEqual((await store().listBanks(a.id)).map((x) => [x.name, x.memoryCount]), [['alice', 1], ['work', 1]]);
    assert.deepEqual((await store().listBanks(b.id)).map((x) => [x.name, x.memoryCount]), [['alice', 1]]);
    assert.deepEqual(await store().listBanks(null), []);
    const bank = await store().getBank(a.id, 'alice');
    assert.equal(bank?.lastActivity, T0 + 1000);
    assert.notEqual(bank?.id, (await store().getBank(b.id, 'alice'))?.id);
    assert.equal(await store().getBank(null, 'alice'), undefined);

    // Memories never show in the indexed history, and in search only from their own bank.
    assert.ok(!(await store().listIndexed({ limit: 1000 })).some((e) => e.document.kind === 'memory'));
    const found = async (bankId: number | null | undefined) =>
      (await store().search({ query: parseQuery('tea coffee', T0), limit: 10, window: 15, weights: WEIGHTS, scope: ALL_OWNERS, bankId })).candidates.map((c) => c.document.id);
    assert.deepEqual(await found(undefined), []);
    assert.deepEqual(await found(bank!.id), [first.document.id]);

    assert.equal(await store().deleteBank(a.id, 'alice'), 1);
    assert.equal(await store().deleteBank(a.id, 'alice'), undefined);
    assert.equal(await store().getDocument(first.document.id), undefined);
    assert.deepEqual(await found(bank!.id), []);
    await store().deleteUser('mem-alice');
    await store().deleteUser('mem-bob');
    assert.equal(await store().getDocument(otherOwner.document.id), undefined, "a user's banks go with them");
  });

  it('reads chunks by scope and bank, with filters, entities and sources', async () => {
    const a = await store().createUser('tree-alice', false, '1'.repeat(64));
    const b = await store().createUser('tree-bob', false, '2'.repeat(64));
    await store().writeDocument(docWrite('https://tree.example/global', 'Numbats eat termites. Write to numbat@tree.example for photos.', { source: 'extension', capturedAt: T0 }));
    await store().writeDocument(docWrite('https://tree.example/alice', 'Alice keeps numbats; contact numbat@tree.example or visit Perth.', { ownerId: a.id, source: 'import:firefox', capturedAt: T0 + 10 }));
    await store().writeDocument(docWrite('https://tree.example/bob', 'Bob secretly studies numbats with secret@bob.example.', { ownerId: b.id, source: 'extension', capturedAt: T0 + 20 }));
    const mem = await store().retainMemory(memory(a.id, 'alice', 'Numbats are the favourite animal of the user, says numbat@tree.example', T0 + 30));
    const bankId = (await store().getBank(a.id, 'alice'))!.id;
    // Other contract tests' documents share the store: these all lie in [T0, T0 + 1000].
    const mine = { since: T0, until: T0 + 1000 };
    const visible: ChunkFilter = { scope: { userId: a.id }, bankId, ...mine };
    const search = async (f: ChunkFilter, q?: string) => (await store().searchChunks({ filter: f, words: q ? words(q) : null, limit: 10, weights: WEIGHTS })).map((h) => h.url);

    assert.deepEqual(await search(visible), [mem.document.url, 'https://tree.example/alice', 'https://tree.example/global'], 'newest first');
    assert.deepEqual((await search({ ...visible, bankId: null }, 'numbats')).sort(), ['https://tree.example/alice', 'https://tree.example/global']);
    assert.deepEqual(await search({ scope: { userId: b.id }, bankId: null, ...mine }, 'secretly'), ['https://tree.example/bob']);
    assert.deepEqual(await search(visible, 'secretly'), [], "another user's chunks stay hidden");
    assert.deepEqual(await search({ ...visible, kinds: ['memory'] }, 'numbats'), [mem.document.url]);
    assert.deepEqual(await search({ ...visible, sources: [{ kind: 'web', label: 'import:firefox' }] }), ['https://tree.example/alice']);
    assert.deepEqual(await search({ ...visible, since: T0 + 5, until: T0 + 15 }), ['https://tree.example/alice']);
    const page = await store().searchChunks({ filter: visible, limit: 1, offset: 1, weights: WEIGHTS });
    assert.equal(page[0]?.url, 'https://tree.example/alice');

    const hit = (await store().searchChunks({ filter: visible, words: ['perth'], limit: 1, weights: WEIGHTS }))[0]!;
    assert.equal(hit.sourceLabel, 'import:firefox');
    assert.ok(hit.score > 0);
    assert.equal((await store().getChunk(hit.chunkId, visible))?.text, hit.text);
    assert.equal(await store().getChunk(hit.chunkId, { scope: { userId: b.id }, bankId: null }), undefined);
    const memChunk = (await store().searchChunks({ filter: { ...visible, kinds: ['memory'] }, limit: 1, weights: WEIGHTS }))[0]!;
    assert.equal(await store().getChunk(memChunk.chunkId, { scope: { userId: a.id }, bankId: null }), undefined, 'a memory needs its bank');
    assert.equal(await store().getChunk(memChunk.chunkId, { scope: ALL_OWNERS, bankId: null }), undefined, 'even for an admin');

    const ents = (await store().chunkEntities([hit.chunkId])).get(hit.chunkId) ?? [];
    const email = ents.find((e) => e.kind === 'email');
    assert.equal(email?.name, 'numbat@tree.example');
    assert.deepEqual(await search({ ...visible, entityIds: [email!.id] }), [mem.document.url, 'https://tree.example/alice', 'https://tree.example/global']);

    const emails = async (f: ChunkFilter) => (await store().topEntities(f, { kind: 'email', limit: 10 })).map((e) => [e.name, e.mentions]);
    assert.deepEqual(await emails(visible), [['numbat@tree.example', 3]]);
    assert.deepEqual(await emails({ scope: { userId: null }, bankId: null, ...mine }), [['numbat@tree.example', 1]]);
    assert.deepEqual((await emails({ scope: { userId: b.id }, bankId: null, ...mine })).sort(), [['numbat@tree.example', 1], ['secret@bob.example', 1]]);

    const sources = await store().listSources(visible);
    assert.deepEqual(sources.map((s) => [s.kind, s.label, s.chunkCount]), [['memory', 'mcp:test', 1], ['web', 'import:firefox', 1], ['web', 'extension', 1]]);
    assert.equal(sources[0]!.lastActivity, T0 + 30);
    assert.deepEqual((await store().listSources({ scope: { userId: b.id }, bankId: null, ...mine }, { email: 'secret@bob.example' })).map((s) => s.label), ['extension']);
    assert.deepEqual(await store().listSources(visible, { email: 'secret@bob.example' }), []);

    // Deleting a document takes its entity links (and mentions) with it.
    await store().deleteDocument((await store().getDocument('https://tree.example/global', { userId: null }))!.id);
    assert.deepEqual(await emails({ scope: { userId: null }, bankId: null, ...mine }), []);
    await store().deleteUser('tree-alice');
    await store().deleteUser('tree-bob');
    assert.deepEqual(await emails({ scope: ALL_OWNERS, bankId: null, ...mine }), []);
  });
}

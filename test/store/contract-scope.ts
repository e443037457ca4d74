// Store contract, tenancy: personal documents and history by owner scope. Called inside the storeContract suite.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { parseQuery } from '../../src/engine/query/parse.js';
import { ALL_OWNERS, type DocumentWrite, type Scope, type Store } from '../../src/store/types.js';

type DocWrite = (url: string, text: string, extra?: Partial<DocumentWrite>) => DocumentWrite;

const search = async (store: Store, q: string, scope: Scope) =>
  (await store.search({ query: parseQuery(q, Date.now()), limit: 10, window: 15, weights: { title: 8, domain: 4, url: 2, text: 1 }, scope })).candidates.map((c) => c.document.ownerId);

export function scopeContract(store: () => Store, docWrite: DocWrite): void {
  it('keeps personal documents apart from global ones and from other users', async () => {
    const a = await store().createUser('scope-alice', false, 'a'.repeat(64));
    const b = await store().createUser('scope-bob', false, 'b'.repeat(64));
    const url = 'https://scope.example/shared';
    const global = await store().writeDocument(docWrite(url, 'wombat global copy'));
    const mine = await store().writeDocument(docWrite(url, 'wombat alice copy', { ownerId: a.id }));
    assert.notEqual(mine.document.id, global.document.id, 'the same url is a separate document per owner');
    assert.equal(mine.document.ownerId, a.id);
    assert.equal(global.document.ownerId, null);
    const again = await store().writeDocument(docWrite(url, 'wombat alice copy two', { ownerId: a.id, capturedAt: Date.now() + 5 }));
    assert.equal(again.document.id, mine.document.id);
    assert.equal((await store().getText(global.document.id))!, 'wombat global copy');

    // By url: one's own first, then the global one.
    assert.equal((await store().getDocument(url, { userId: a.id }))?.id, mine.document.id);
    assert.equal((await store().getDocument(url, { userId: b.id }))?.id, global.document.id);
    assert.equal((await store().getDocument(url, { userId: null }))?.id, global.document.id);
    assert.equal((await store().getDocument(url, ALL_OWNERS))?.id, global.document.id);
    // By id: only when visible.
    assert.equal((await store().getDocument(mine.document.id, { userId: b.id })), undefined);
    assert.equal((await store().getDocument(mine.document.id, { userId: null })), undefined);
    assert.equal((await store().getDocument(mine.document.id, { userId: a.id }))?.id, mine.document.id);
    assert.equal((await store().getDocument(mine.document.id))?.id, mine.document.id);

    await store().writeDocument(docWrite('https://scope.example/bob-only', 'quoll notes of bob', { ownerId: b.id }));
    assert.deepEqual(await search(store(), 'quoll', { userId: a.id }), []);
    assert.deepEqual(await search(store(), 'quoll', { userId: null }), []);
    assert.deepEqual(await search(store(), 'quoll', { userId: b.id }), [b.id]);
    assert.deepEqual(await search(store(), 'quoll', ALL_OWNERS), [b.id]);
    assert.deepEqual((await search(store(), 'wombat', { userId: a.id })).sort(), [a.id, null].sort());
    assert.deepEqual(await search(store(), 'wombat', { userId: b.id }), [null]);

    const indexed = async (scope: Scope) => (await store().listIndexed({ limit: 1000, scope })).map((e) => e.document.ownerId);
    assert.ok(!(await indexed({ userId: a.id })).includes(b.id));
    assert.ok((await indexed({ userId: a.id })).includes(a.id));
    assert.ok(!(await indexed({ userId: null })).some((o) => o !== null));
    assert.ok((await indexed(ALL_OWNERS)).includes(b.id));

    await store().deleteUser('scope-bob');
    assert.deepEqual(await search(store(), 'quoll', ALL_OWNERS), [], "a deleted user's documents go with them");
    await store().deleteUser('scope-alice');
  });

  it('keeps each owner\u2019s opened history to themselves', async () => {
    const a = await store().createUser('opened-alice', false, 'c'.repeat(64));
    const b = await store().createUser('opened-bob', false, 'd'.repeat(64));
    const openedAt = Date.now();
    await store().recordOpened({ ownerId: a.id, url: 'https://scope.example/o1', title: 'A', query: 'alice query', openedAt });
    await store().recordOpened({ ownerId: b.id, url: 'https://scope.example/o2', title: 'B', query: 'bob query', openedAt });
    await store().recordOpened({ url: 'https://scope.example/o3', title: 'G', query: 'owner query', openedAt });
    const queries = async (scope: Scope) => (await store().listOpened({ limit: 1000, scope })).map((r) => r.query);
    assert.ok((await queries({ userId: a.id })).every((q) => q === 'alice query'));
    assert.deepEqual(await queries({ userId: b.id }), ['bob query']);
    assert.ok(!(await queries({ userId: null })).some((q) => q === 'alice query' || q === 'bob query'));
    const all = await queries(ALL_OWNERS);
    for (const q of ['alice query', 'bob query', 'owner query']) assert.ok(all.includes(q), q);
    await store().deleteUser('opened-alice');
    await store().deleteUser('opened-bob');
  });
}

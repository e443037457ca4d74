// Store contract, previews and the history views: called inside the storeContract suite.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { DocumentWrite, IndexedEntry, IndexedKey, Store } from '../../src/store/types.js';

/** Later than anything other contract tests write, so these documents lead the indexed history. */
const FUTURE = Date.UTC(2031, 0, 1);

type DocWrite = (url: string, text: string, extra?: Partial<DocumentWrite>) => DocumentWrite;

/** Every page of the indexed history, `limit` at a time; `between` runs after each page. */
async function allPages(store: Store, limit: number, between: (page: number) => Promise<void> = async () => undefined): Promise<IndexedEntry[]> {
  const seen: IndexedEntry[] = [];
  let after: IndexedKey | undefined;
  for (let page = 0; page < 1000; page++) {
    const entries = await store.listIndexed({ limit, after });
    assert.ok(entries.length <= limit);
    seen.push(...entries);
    if (entries.length < limit) return seen;
    after = entries[entries.length - 1]!.key;
    await between(page);
  }
  throw new Error('indexed history pages never end');
}

const precedes = (a: IndexedKey, b: IndexedKey) => a.at > b.at || (a.at === b.at && a.seq > b.seq);

export function viewsContract(store: () => Store, docWrite: DocWrite): void {
  it('returns the text, rendered and raw HTML of the current or a given version', async () => {
    const url = 'https://views.example/content';
    const raw = '<html><body><p>Grüße, 世界 🦦</p><script>x()</script></body></html>';
    const first = await store().writeDocument(docWrite(url, 'first text', { html: '<p>first</p>', rawHtml: raw }));
    await store().writeDocument(docWrite(url, 'second text', { html: null, rawHtml: null, capturedAt: FUTURE - 10 }));
    const id = first.document.id;
    assert.deepEqual(await store().getContent(id), { text: 'second text', html: null, rawHtml: null });
    const [v1] = await store().listVersions(id);
    assert.deepEqual(await store().getContent(id, v1!.id), { text: 'first text', html: '<p>first</p>', rawHtml: raw });
    assert.equal(await store().getContent(id, 987654321), undefined);
    assert.equal(await store().getContent('01M8ND3JCAV75EWEHV823336HE'), undefined);
    await store().deleteDocument(id);
    assert.equal(await store().getContent(id, v1!.id), undefined);
  });

  it('lists indexed documents newest capture first; pages never repeat or skip, even with equal times', async () => {
    const urls: string[] = [];
    for (let i = 0; i < 7; i++) urls.push((await store().writeDocument(docWrite(`https://views.example/same/${i}`, `same time ${i}`, { capturedAt: FUTURE }))).document.url);
    for (let i = 0; i < 3; i++) urls.push((await store().writeDocument(docWrite(`https://views.example/older/${i}`, `older ${i}`, { capturedAt: FUTURE - 1000 }))).document.url);
    const memory = await store().writeDocument(docWrite('memory:default/fact-1', 'a retained fact', { kind: 'memory', capturedAt: FUTURE + 5 }));
    const whole = await store().listIndexed({ limit: 100_000 });
    // The equal-time documents come newest write first (seq descending), then the older ones.
    assert.deepEqual(whole.slice(0, 10).map((e) => e.document.url), [...urls.slice(0, 7).reverse(), ...urls.slice(7).reverse()]);
    assert.ok(!whole.some((e) => e.document.kind === 'memory'), 'memories are not indexed history');
    for (let i = 1; i < whole.length; i++) assert.ok(precedes(whole[i - 1]!.key, whole[i]!.key), 'strictly ordered by (updatedAt, seq) descending');
    assert.equal(whole[0]!.key.at, whole[0]!.document.updatedAt);
    for (const limit of [1, 2, 3, 7]) {
      assert.deepEqual((await allPages(store(), limit)).map((e) => e.document.id), whole.map((e) => e.document.id), `pages of ${limit}`);
    }
    assert.deepEqual(await store().listIndexed({ limit: 5, after: whole[whole.length - 1]!.key }), []);
    await store().deleteDocument(memory.document.id);
  });

  it('keeps paging correctly while documents are written between pages', async () => {
    const start = (await store().listIndexed({ limit: 100_000 })).map((e) => e.document.id);
    let n = 0;
    const paged = await allPages(store(), 3, async () => {
      await store().writeDocument(docWrite(`https://views.example/new/${n++}`, `written while paging ${n}`, { capturedAt: FUTURE + 100 }));
    });
    // New captures sort before the cursor, so the pages hold exactly the documents there were at the start.
    assert.deepEqual(paged.map((e) => e.document.id), start);
    for (const e of await store().listIndexed({ limit: 100_000 })) if (e.document.url.startsWith('https://views.example/')) await store().deleteDocument(e.document.id);
  });

  it('records opened results newest first, with the current version count of their url', async () => {
    const doc = await store().writeDocument(docWrite('https://views.example/opened', 'opened one', { capturedAt: FUTURE }));
    await store().writeDocument(docWrite('https://views.example/opened', 'opened two', { capturedAt: FUTURE + 1 }));
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) {
      const url = i === 2 ? 'https://views.example/not-indexed' : 'https://views.example/opened';
      ids.push(await store().recordOpened({ url, title: `title ${i}`, query: `query ${i}`, openedAt: FUTURE + i }));
    }
    for (let i = 1; i < ids.length; i++) assert.ok(ids[i]! > ids[i - 1]!);
    const all = await store().listOpened({ limit: 100 });
    assert.deepEqual(all.slice(0, 5).map((r) => r.id), [...ids].reverse());
    assert.deepEqual(all[0], { id: ids[4], url: 'https://views.example/opened', title: 'title 4', query: 'query 4', openedAt: FUTURE + 4, versionCount: 2 });
    assert.equal(all.find((r) => r.id === ids[2])!.versionCount, 0);
    const paged = [...(await store().listOpened({ limit: 2 }))];
    while (paged.length < all.length) {
      const next = await store().listOpened({ limit: 2, beforeId: paged[paged.length - 1]!.id });
      assert.ok(next.length > 0);
      paged.push(...next);
    }
    assert.deepEqual(paged, all);
    assert.deepEqual(await store().listOpened({ limit: 10, beforeId: Math.min(...all.map((r) => r.id)) }), []);

    await store().deleteDocument(doc.document.id);
    const afterDelete = await store().listOpened({ limit: 100 });
    assert.deepEqual(afterDelete.map((r) => r.id), all.map((r) => r.id), 'rows outlive their document');
    assert.ok(afterDelete.every((r) => r.versionCount === 0));
    // Indexed again under the same url: the rows count the new document's versions.
    const again = await store().writeDocument(docWrite('https://views.example/opened', 'back again', { capturedAt: FUTURE + 9 }));
    assert.equal((await store().listOpened({ limit: 1 }))[0]!.versionCount, 1);
    await store().deleteDocument(again.document.id);
  });
}

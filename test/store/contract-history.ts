// Store contract, imported history and the fetch queue: called inside the storeContract suite.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { ImportBatch } from '../../src/store/history.js';
import type { DocumentWrite, Store } from '../../src/store/types.js';

const T = Date.UTC(2025, 5, 1, 8);

type DocWrite = (url: string, text: string, extra?: Partial<DocumentWrite>) => DocumentWrite;

export function historyContract(store: () => Store, docWrite: DocWrite): void {
  const titleOnly = (url: string, extra: Partial<DocumentWrite> = {}) =>
    docWrite(url, '', { title: `visited ${url}`, source: 'import:test', chunks: [{ ordinal: 0, start: 0, end: 0, text: '' }], ...extra });
  const batch = (extra: Partial<ImportBatch>): ImportBatch => ({ source: 'import:test', visits: [], documents: [], queueFetch: false, ...extra });

  it('records imported visits once: counts, first/last times and titles only grow', async () => {
    const url = 'https://history.example/a';
    const first = await store().recordImport(batch({ visits: [{ url, title: 'A', visitCount: 1, visitTimes: [T, T + 1000] }] }));
    assert.deepEqual(first, { visitsNew: 2, urlsNew: 1, documentsCreated: 0, documentsLabelled: 0, queued: 0 });
    const again = await store().recordImport(batch({ visits: [{ url, title: 'A', visitCount: 1, visitTimes: [T + 1000, T] }] }));
    assert.equal(again.visitsNew, 0);
    assert.equal(again.urlsNew, 0);
    // An older visit with another title, and a browser count above the visits seen.
    await store().recordImport(batch({ visits: [{ url, title: 'Old title', visitCount: 9, visitTimes: [T - 5000] }] }));
    await store().recordImport(batch({ visits: [{ url, title: '', visitCount: 0, visitTimes: [T + 9000] }] }));
    await store().recordImport(batch({ source: 'import:other', visits: [{ url, title: 'Other', visitCount: 1, visitTimes: [T] }] }));
    const visits = await store().listVisits(url);
    assert.deepEqual(visits, [
      { url, title: 'Other', source: 'import:other', visitCount: 1, firstVisitAt: T, lastVisitAt: T, visitTimes: [T] },
      { url, title: 'A', source: 'import:test', visitCount: 9, firstVisitAt: T - 5000, lastVisitAt: T + 9000, visitTimes: [T - 5000, T, T + 1000, T + 9000] },
    ]);
    assert.deepEqual(await store().listVisits('https://history.example/none'), []);
  });

  it('creates title-only documents for absent urls only; fills a missing label; keeps content', async () => {
    await store().writeDocument(docWrite('https://history.example/kept', 'real content here', { label: null }));
    await store().writeDocument(docWrite('https://history.example/labelled', 'more content', { label: 'mine' }));
    const r = await store().recordImport(batch({
      documents: [
        titleOnly('https://history.example/new', { label: 'Dev/Rust' }),
        titleOnly('https://history.example/new', { label: 'ignored duplicate' }),
        titleOnly('https://history.example/kept', { label: 'Reading' }),
        titleOnly('https://history.example/labelled', { label: 'Reading' }),
      ],
    }));
    assert.equal(r.documentsCreated, 1);
    assert.equal(r.documentsLabelled, 1);
    const created = (await store().getDocument('https://history.example/new'))!;
    assert.equal(created.label, 'Dev/Rust');
    assert.equal(created.source, 'import:test');
    assert.equal(await store().getText(created.id), '');
    const kept = (await store().getDocument('https://history.example/kept'))!;
    assert.equal(kept.label, 'Reading');
    assert.equal(await store().getText(kept.id), 'real content here');
    assert.equal((await store().getDocument('https://history.example/labelled'))!.label, 'mine');
    const none = await store().recordImport(batch({ documents: [titleOnly('https://history.example/new'), titleOnly('https://history.example/kept')] }));
    assert.equal(none.documentsCreated + none.documentsLabelled, 0);
    for (const url of ['new', 'kept', 'labelled']) await store().deleteDocument((await store().getDocument(`https://history.example/${url}`))!.id);
  });

  it('keeps a checkpoint per source and database, written with its batch', async () => {
    assert.equal(await store().getImportCheckpoint('import:test', '/p/places.sqlite'), undefined);
    const checkpoint = { source: 'import:test', profile: '/p/places.sqlite', rangeStart: 0, lastVisitAt: T };
    await store().recordImport(batch({ checkpoint }));
    assert.deepEqual(await store().getImportCheckpoint('import:test', '/p/places.sqlite'), checkpoint);
    await store().recordImport(batch({ checkpoint: { ...checkpoint, rangeStart: 5, lastVisitAt: T + 1 } }));
    assert.deepEqual(await store().getImportCheckpoint('import:test', '/p/places.sqlite'), { ...checkpoint, rangeStart: 5, lastVisitAt: T + 1 });
    assert.equal(await store().getImportCheckpoint('import:test', '/q/places.sqlite'), undefined);
  });

  it('queues urls without text once, and records fetch attempts', async () => {
    await store().writeDocument(docWrite('https://queue.example/has-text', 'fetched before'));
    const urls = ['https://queue.example/1', 'https://queue.example/2', 'https://queue.example/has-text'];
    const r = await store().recordImport(batch({ documents: urls.map((u) => titleOnly(u)), queueFetch: true }));
    assert.equal(r.queued, 2);
    assert.equal((await store().recordImport(batch({ documents: urls.map((u) => titleOnly(u)), queueFetch: true }))).queued, 0);
    const queued = await store().listFetchQueue({ states: ['queued'] });
    assert.deepEqual(queued.map((q) => [q.url, q.state, q.attempts, q.source]), [
      ['https://queue.example/1', 'queued', 0, 'import:test'],
      ['https://queue.example/2', 'queued', 0, 'import:test'],
    ]);
    assert.equal(await store().finishFetch(queued[0]!.id, null), true);
    assert.equal(await store().finishFetch(queued[1]!.id, 'FETCH_FAILED'), true);
    assert.equal(await store().finishFetch(987654, null), false);
    const [failed] = await store().listFetchQueue({ states: ['failed'] });
    assert.deepEqual([failed!.url, failed!.attempts, failed!.lastError], ['https://queue.example/2', 1, 'FETCH_FAILED']);
    assert.ok(failed!.finishedAt! >= failed!.queuedAt);
    await store().finishFetch(failed!.id, 'FETCH_FAILED');
    assert.deepEqual(await store().listFetchQueue({ states: ['failed'], maxAttempts: 2 }), []);
    assert.equal((await store().listFetchQueue({ states: ['queued', 'done', 'failed'], limit: 1 })).length, 1);
    const [done] = await store().listFetchQueue({ states: ['done'] });
    assert.deepEqual([done!.url, done!.lastError], ['https://queue.example/1', null]);
    for (const u of urls) await store().deleteDocument((await store().getDocument(u))!.id);
  });
}

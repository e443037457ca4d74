import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { App } from '../../src/app.js';
import { type RunningServer, startServer } from '../../src/http/server.js';
import { addTargets, showDocument } from '../../src/service/documents.js';
import { type PageServer, page, startPageServer } from '../page-server.js';
import { testApp } from '../helpers.js';

interface Reply {
  status: number;
  body: any;
}

async function call(base: string, method: string, path: string, json?: unknown): Promise<Reply> {
  const init: RequestInit = { method };
  if (json !== undefined) {
    init.body = typeof json === 'string' ? json : JSON.stringify(json);
    init.headers = { 'content-type': 'application/json' };
  }
  const res = await fetch(`${base}${path}`, init);
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

const CAPTURE = '<!doctype html><html lang="en"><head><title>Heron Notes</title><meta name="description" content="On herons"></head><body><nav>menu</nav><article><h1>Herons</h1><p>Grey herons stand still for a long time.</p></article><script>track()</script></body></html>';

describe('POST /api/documents, DELETE /api/documents/{id} and POST /api/batch', () => {
  let t: { app: App; dir: string; cleanup: () => Promise<void> };
  let server: RunningServer;
  let web: PageServer;
  const api = (method: string, path: string, json?: unknown) => call(server.url, method, path, json);
  const counts = async () => (await api('GET', '/api/status')).body.counts;

  before(async () => {
    t = testApp({ 'server.max_body_bytes': '4096', 'server.max_batch_bytes': '65536', 'indexer.skip_domains': 'bank.example' });
    server = await startServer(t.app, { host: '127.0.0.1', port: 0 });
    web = await startPageServer({ '/heron': page(CAPTURE) });
  });
  after(async () => {
    await server?.close();
    await web?.close();
    await t?.cleanup();
  });

  test('a browser-extension capture is indexed exactly as the same page fetched', async () => {
    const [fetched] = await addTargets(t.app, [`${web.base}/heron`], { source: 'cli' });
    const captured = await api('POST', '/api/documents', { url: 'https://birds.example/heron', title: '', html: CAPTURE, favicon: 'data:image/png;base64,iVBORw0KGgo=', label: 'birds' });
    assert.equal(captured.status, 201, JSON.stringify(captured.body));
    const a = await showDocument(t.app, fetched!.result!.document.id);
    const b = await showDocument(t.app, captured.body.document.id);
    assert.equal(b.text, a.text);
    assert.equal(b.document.title, a.document.title);
    assert.equal(b.document.language, a.document.language);
    assert.deepEqual({ ...b.document.metadata, favicon: undefined }, { ...a.document.metadata, favicon: undefined });
    assert.equal(b.document.metadata.favicon, 'data:image/png;base64,iVBORw0KGgo=');
    assert.equal(b.document.label, 'birds');
    assert.ok(!b.text.includes('track()'));
  });

  test('a capture with a bad favicon, or of a javascript: URL, is refused and stores nothing', async () => {
    const before = await counts();
    const bad = await api('POST', '/api/documents', { url: 'https://birds.example/x', html: '<p>x</p>', favicon: 'javascript:alert(1)' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.details.field, 'favicon');
    const js = await api('POST', '/api/documents', { url: 'javascript:alert(1)', html: '<p>x</p>' });
    assert.equal(js.status, 400);
    assert.equal(js.body.error.code, 'UNSUPPORTED_SCHEME');
    const skipped = await api('POST', '/api/documents', { url: 'https://bank.example/statement', html: '<p>balance</p>' });
    assert.equal(skipped.status, 422);
    assert.equal(skipped.body.error.code, 'SKIPPED');
    assert.deepEqual(await counts(), before);
  });

  test('DELETE removes a document by id or url; a second delete is 404', async () => {
    const created = await api('POST', '/api/documents', { url: 'https://birds.example/doomed', text: 'soon gone' });
    const id = created.body.document.id;
    const gone = await api('DELETE', `/api/documents/${id}`);
    assert.equal(gone.status, 200);
    assert.deepEqual(gone.body, { id, url: 'https://birds.example/doomed', deleted: true });
    assert.equal((await api('GET', `/api/documents/${id}`)).status, 404);
    assert.equal((await api('DELETE', `/api/documents/${id}`)).body.error.code, 'NOT_FOUND');
    const byUrl = await api('POST', '/api/documents', { url: 'https://birds.example/by-url', text: 'by url' });
    assert.equal((await api('DELETE', `/api/documents/${encodeURIComponent('https://birds.example/by-url')}`)).body.id, byUrl.body.document.id);
  });

  test('a batch answers one result per operation, in order; bad operations spoil nothing', async () => {
    const existing = (await api('POST', '/api/documents', { url: 'https://birds.example/old', text: 'old page' })).body.document.id;
    const before = await counts();
    const r = await api('POST', '/api/batch', {
      operations: [
        { op: 'add', url: 'https://birds.example/b1', title: 'One', text: 'first batch page' },
        { op: 'add', url: 'https://birds.example/b2' },
        { op: 'add', url: 'javascript:alert(1)', text: 'x' },
        { op: 'add', url: 'https://bank.example/secret', text: 'x' },
        { op: 'add', url: 'https://birds.example/b3', html: CAPTURE, favicon: 'https://birds.example/favicon.ico' },
        { op: 'delete', id: existing },
        { op: 'delete', id: '01ARZ3NDEKTSV4RRFFQ69G5FAV' },
        { op: 'rename', id: existing },
        'not an object',
        { op: 'add', url: 'https://birds.example/b4', text: 'x', extra: 1 },
      ],
    });
    assert.equal(r.status, 200);
    const summary = r.body.results.map((x: any) => (x.ok ? `${x.op}:${x.status ?? 'deleted'}` : x.error.code));
    assert.deepEqual(summary, ['add:added', 'INVALID_ARGUMENT', 'UNSUPPORTED_SCHEME', 'SKIPPED', 'add:added', 'delete:deleted', 'NOT_FOUND', 'INVALID_ARGUMENT', 'INVALID_ARGUMENT', 'INVALID_ARGUMENT']);
    assert.equal(r.body.results[1].error.details.field, 'text');
    assert.equal(r.body.results[9].error.details.field, 'extra');
    for (const x of r.body.results.filter((x: any) => !x.ok)) assert.deepEqual(Object.keys(x).sort(), ['error', 'ok']);
    const after = await counts();
    assert.equal(after.documents, before.documents + 2 - 1);
    assert.equal((await api('GET', `/api/documents/${r.body.results[4].document.id}`)).body.document.metadata.favicon, 'https://birds.example/favicon.ico');
  });

  test('operations run in order: add then delete leaves nothing, delete then add leaves the page', async () => {
    const first = await api('POST', '/api/batch', { operations: [{ op: 'add', url: 'https://birds.example/flip', text: 'flip' }, { op: 'delete', id: 'https://birds.example/flip' }] });
    assert.deepEqual(first.body.results.map((x: any) => x.ok), [true, true]);
    assert.equal((await api('GET', `/api/documents/${encodeURIComponent('https://birds.example/flip')}`)).status, 404);
    const second = await api('POST', '/api/batch', { operations: [{ op: 'delete', id: 'https://birds.example/flop' }, { op: 'add', url: 'https://birds.example/flop', text: 'flop' }] });
    assert.deepEqual(second.body.results.map((x: any) => x.ok), [false, true]);
    assert.equal((await api('GET', `/api/documents/${encodeURIComponent('https://birds.example/flop')}`)).status, 200);
  });

  test('an empty batch answers no results', async () => {
    const r = await api('POST', '/api/batch', { operations: [] });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, { results: [] });
  });

  test('more than 100 operations, or a malformed batch, is refused whole', async () => {
    const before = await counts();
    const ops = Array.from({ length: 101 }, (_, i) => ({ op: 'add', url: `https://birds.example/many/${i}`, text: `page ${i}` }));
    const tooMany = await api('POST', '/api/batch', { operations: ops });
    assert.equal(tooMany.status, 400);
    assert.equal(tooMany.body.error.details.field, 'operations');
    for (const body of [{}, { operations: {} }, { operations: [], more: 1 }, [1]]) {
      assert.equal((await api('POST', '/api/batch', body)).body.error.code, 'INVALID_ARGUMENT', JSON.stringify(body));
    }
    assert.deepEqual(await counts(), before);
    const hundred = await api('POST', '/api/batch', { operations: ops.slice(0, 100) });
    assert.equal(hundred.body.results.filter((x: any) => x.ok).length, 100);
  });

  test('the batch has its own body limit (server.max_batch_bytes)', async () => {
    const text = 'w'.repeat(10_000);
    const single = await api('POST', '/api/documents', { url: 'https://birds.example/big', text });
    assert.equal(single.status, 413, 'over server.max_body_bytes');
    const batch = await api('POST', '/api/batch', { operations: [{ op: 'add', url: 'https://birds.example/big', text }] });
    assert.equal(batch.status, 200);
    assert.equal(batch.body.results[0].ok, true);
    const before = await counts();
    const over = await api('POST', '/api/batch', { operations: [{ op: 'add', url: 'https://birds.example/bigger', text: 'v'.repeat(70_000) }] });
    assert.equal(over.status, 413);
    assert.equal(over.body.error.code, 'PAYLOAD_TOO_LARGE');
    assert.equal(over.body.error.details.limit, 65536);
    assert.deepEqual(await counts(), before);
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { App } from '../../src/app.js';
import { type RunningServer, startServer } from '../../src/http/server.js';
import { addContent } from '../../src/service/documents.js';
import { testApp } from '../helpers.js';
import { fixture } from '../ingest/extract/fixtures.js';

const ARTICLE = 'https://gazette.example.com/2024/otters';
const NOTE = 'https://notes.example.org/plain.txt';
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

interface Reply {
  status: number;
  body: any;
}

async function call(base: string, method: string, path: string, json?: unknown, headers: Record<string, string> = {}): Promise<Reply> {
  const init: RequestInit = { method, headers: { ...headers, ...(json === undefined ? {} : { 'content-type': 'application/json' }) } };
  if (json !== undefined) init.body = JSON.stringify(json);
  const res = await fetch(`${base}${path}`, init);
  return { status: res.status, body: await res.json() };
}

function failed(r: Reply, status: number, code: string, field?: string): any {
  assert.equal(r.status, status, JSON.stringify(r.body));
  assert.equal(r.body.error.code, code);
  if (field !== undefined) assert.equal(r.body.error.details?.field, field);
  return r.body.error;
}

const q = (params: Record<string, string>) => new URLSearchParams(params).toString();

describe('HTTP history and preview routes', () => {
  let t: { app: App; dir: string; cleanup: () => Promise<void> };
  let server: RunningServer;
  const api = (method: string, path: string, json?: unknown) => call(server.url, method, path, json);

  before(async () => {
    t = testApp();
    await addContent(t.app, { url: ARTICLE, html: fixture('article.html'), source: 'test', capturedAt: Date.UTC(2026, 0, 1) });
    await addContent(t.app, { url: NOTE, text: 'A plain note.', source: 'test', capturedAt: Date.UTC(2026, 0, 2) });
    for (let i = 0; i < 3; i++) await addContent(t.app, { url: `https://more.example/${i}`, text: `more ${i}`, source: 'test', capturedAt: Date.UTC(2026, 0, 3) });
    server = await startServer(t.app, { host: '127.0.0.1', port: 0 });
  });
  after(async () => {
    await server?.close();
    await t?.cleanup();
  });

  test('POST /api/history/opened records an opened result: 201 {id, opened}', async () => {
    const r = await api('POST', '/api/history/opened', { url: ARTICLE, title: 'Otters', query: 'otter fur' });
    assert.equal(r.status, 201);
    assert.deepEqual(Object.keys(r.body), ['id', 'opened']);
    assert.ok(Number.isInteger(r.body.id));
    assert.match(r.body.opened, ISO);
    failed(await api('POST', '/api/history/opened', { url: ARTICLE, extra: 1 }), 400, 'INVALID_ARGUMENT', 'extra');
    failed(await api('POST', '/api/history/opened', { title: 'no url' }), 400, 'INVALID_ARGUMENT', 'url');
    failed(await api('POST', '/api/history/opened', { url: 'javascript:alert(1)' }), 400, 'INVALID_ARGUMENT', 'url');
    failed(await api('POST', '/api/history/opened', { url: ARTICLE, query: 7 }), 400, 'INVALID_ARGUMENT', 'query');
  });

  test('GET /api/history?mode=opened lists opened results with version counts', async () => {
    await api('POST', '/api/history/opened', { url: 'https://not-indexed.example/' });
    const r = await api('GET', `/api/history?${q({ mode: 'opened' })}`);
    assert.equal(r.status, 200);
    assert.equal(r.body.mode, 'opened');
    assert.deepEqual(r.body.items.map((i: any) => [i.url, i.version_count]), [['https://not-indexed.example/', 0], [ARTICLE, 1]]);
    assert.equal(r.body.items[1].query, 'otter fur');
    const first = await api('GET', `/api/history?${q({ mode: 'opened', limit: '1' })}`);
    assert.equal(first.body.items.length, 1);
    const second = await api('GET', `/api/history?${q({ mode: 'opened', limit: '1', last_id: String(first.body.next_last_id) })}`);
    assert.equal(second.body.items[0].url, ARTICLE);
    assert.equal(second.body.next_last_id, undefined);
  });

  test('GET /api/history pages the indexed history with page_key', async () => {
    const all = await api('GET', '/api/history');
    assert.equal(all.body.mode, 'indexed');
    assert.equal(all.body.items.length, 5);
    assert.ok(!('next_page_key' in all.body));
    assert.equal(all.body.items[4].url, ARTICLE);
    const urls: string[] = [];
    let key: string | undefined;
    do {
      const r = await api('GET', `/api/history?${q({ mode: 'indexed', limit: '2', ...(key ? { page_key: key } : {}) })}`);
      assert.equal(r.status, 200);
      urls.push(...r.body.items.map((i: any) => i.url));
      key = r.body.next_page_key;
    } while (key);
    assert.deepEqual(urls, all.body.items.map((i: any) => i.url));
    assert.equal((await api('GET', `/api/history?${q({ limit: '0' })}`)).body.items.length, 5, 'out-of-range limits use the default');
  });

  test('GET /api/history refuses bad parameters', async () => {
    failed(await api('GET', `/api/history?${q({ page_key: 'garbage' })}`), 400, 'INVALID_ARGUMENT', 'page_key');
    failed(await api('GET', `/api/history?${q({ mode: 'opened', last_id: '0' })}`), 400, 'INVALID_ARGUMENT', 'last_id');
    failed(await api('GET', `/api/history?${q({ mode: 'indexed', last_id: '4' })}`), 400, 'INVALID_ARGUMENT', 'last_id');
    failed(await api('GET', `/api/history?${q({ mode: 'visited' })}`), 400, 'INVALID_ARGUMENT', 'mode');
    failed(await api('GET', `/api/history?${q({ limit: 'ten' })}`), 400, 'INVALID_ARGUMENT', 'limit');
    failed(await api('GET', `/api/history?${q({ cursor: 'x' })}`), 400, 'INVALID_ARGUMENT', 'cursor');
    failed(await api('POST', '/api/history', {}), 405, 'METHOD_NOT_ALLOWED');
  });

  test('GET /api/preview returns the stored preview; extractor re-renders it', async () => {
    const r = await api('GET', `/api/preview?${q({ url: ARTICLE })}`);
    assert.equal(r.status, 200);
    assert.equal(r.body.title, 'How Otters Keep Warm');
    assert.equal(r.body.extractor, 'article');
    assert.match(r.body.text, /densest fur/);
    assert.match(r.body.html, /densest fur/);
    const basic = await api('GET', `/api/preview?${q({ url: ARTICLE, extractor: 'basic' })}`);
    assert.equal(basic.body.extractor, 'basic');
    assert.match(basic.body.html, /Copyright The River Gazette/);
  });

  test('GET /api/preview errors: missing, unknown extractor, no HTML, unknown parameter', async () => {
    failed(await api('GET', `/api/preview?${q({ url: `${ARTICLE}/` })}`), 404, 'NOT_FOUND');
    failed(await api('GET', '/api/preview'), 400, 'INVALID_ARGUMENT', 'url');
    const err = failed(await api('GET', `/api/preview?${q({ url: ARTICLE, extractor: 'nope' })}`), 400, 'INVALID_ARGUMENT', 'extractor');
    assert.ok(err.details.allowed.includes('basic'));
    failed(await api('GET', `/api/preview?${q({ url: NOTE, extractor: 'basic' })}`), 422, 'PREVIEW_UNAVAILABLE');
    failed(await api('GET', `/api/preview?${q({ url: ARTICLE, fields: 'text' })}`), 400, 'INVALID_ARGUMENT', 'fields');
  });
});

describe('HTTP history and preview routes with a token', () => {
  let t: { app: App; dir: string; cleanup: () => Promise<void> };
  let server: RunningServer;

  before(async () => {
    t = testApp({ 'app.access_token': 'sesame-history' });
    server = await startServer(t.app, { host: '127.0.0.1', port: 0 });
  });
  after(async () => {
    await server?.close();
    await t?.cleanup();
  });

  test('every new route needs the token', async () => {
    failed(await call(server.url, 'GET', '/api/history'), 401, 'UNAUTHORIZED');
    failed(await call(server.url, 'GET', `/api/preview?${q({ url: ARTICLE })}`), 401, 'UNAUTHORIZED');
    failed(await call(server.url, 'POST', '/api/history/opened', { url: ARTICLE }), 401, 'UNAUTHORIZED');
    const auth = { authorization: 'Bearer sesame-history' };
    assert.equal((await call(server.url, 'POST', '/api/history/opened', { url: ARTICLE }, auth)).status, 201);
    const r = await call(server.url, 'GET', '/api/history?mode=opened', undefined, auth);
    assert.deepEqual(r.body.items.map((i: any) => [i.url, i.version_count]), [[ARTICLE, 0]]);
  });
});

import assert from 'node:assert/strict';
import { request as httpRequest, type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { type App, createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/load.js';
import { createLogger } from '../../src/log.js';
import { type RunningServer, startServer } from '../../src/http/server.js';
import { cliEnv, parseJson, runCli } from '../cli-run.js';
import { tempDir, testApp } from '../helpers.js';
import { type PageServer, page, redirect, startPageServer } from '../page-server.js';

interface Reply {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

/** Error bodies carry a code and a message, never internals. */
function assertCleanError(r: Reply, status: number, code: string): Record<string, any> {
  assert.equal(r.status, status, r.text);
  assert.match(r.headers.get('content-type') ?? '', /^application\/json/);
  assert.deepEqual(Object.keys(r.body), ['error']);
  assert.equal(r.body.error.code, code);
  assert.equal(typeof r.body.error.message, 'string');
  for (const leak of ['SQLITE', 'sqlite3', 'at /', 'at file:', 'Error:', 'node_modules', 'SELECT ', 'INSERT ']) assert.ok(!r.text.includes(leak), `error body leaks ${leak}: ${r.text}`);
  return r.body.error;
}

function client(base: () => string) {
  return async (method: string, path: string, init: { json?: unknown; body?: string | ReadableStream; headers?: Record<string, string> } = {}): Promise<Reply> => {
    const headers: Record<string, string> = { ...init.headers };
    let body = init.body;
    if (init.json !== undefined) {
      body = JSON.stringify(init.json);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(`${base()}${path}`, { method, headers, body, ...(body instanceof ReadableStream ? { duplex: 'half' } : {}) } as RequestInit);
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: res.status, headers: res.headers, text, body: parsed };
  };
}

/** A raw request, for headers fetch will not let a caller set (Host). */
function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('HTTP API without a token', () => {
  let t: { app: App; dir: string; cleanup: () => Promise<void> };
  let server: RunningServer;
  const call = client(() => server.url);

  before(async () => {
    t = testApp({ 'server.max_body_bytes': '2048' });
    server = await startServer(t.app, { host: '127.0.0.1', port: 0 });
  });
  after(async () => {
    await server?.close();
    await t?.cleanup();
  });

  test('GET /healthz', async () => {
    const r = await call('GET', '/healthz');
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, { ok: true });
    assert.equal(r.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.equal(r.headers.get('cache-control'), 'no-store');
    assert.equal(r.headers.get('x-content-type-options'), 'nosniff');
    const head = await call('HEAD', '/healthz');
    assert.equal(head.status, 200);
    assert.equal(head.text, '');
  });

  test('POST /api/documents: 201 new, 200 unchanged, 200 updated', async () => {
    const doc = { url: 'https://example.org/post/one', title: 'Posted note', text: 'Narwhals have a single long tusk.', label: 'sea' };
    const created = await call('POST', '/api/documents', { json: doc });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.status, 'added');
    const d = created.body.document;
    assert.match(d.id, /^[0-9A-HJKMNP-TV-Z]{26}$/);
    assert.equal(d.url, doc.url);
    assert.equal(d.title, 'Posted note');
    assert.equal(d.label, 'sea');
    assert.equal(d.type, 'web');
    assert.equal(d.domain, 'example.org');
    assert.equal(d.source, 'api');
    assert.equal(d.version_count, 1);

    const again = await call('POST', '/api/documents', { json: doc });
    assert.equal(again.status, 200);
    assert.equal(again.body.status, 'unchanged');
    assert.equal(again.body.document.id, d.id);
    assert.equal(again.body.document.version_count, 1);

    const changed = await call('POST', '/api/documents', { json: { ...doc, text: 'Narwhals have a single long tusk, usually.' } });
    assert.equal(changed.status, 200);
    assert.equal(changed.body.status, 'updated');
    assert.equal(changed.body.document.version_count, 2);
  });

  test('POST /api/documents with HTML, including a bare fragment and bare text', async () => {
    const page = await call('POST', '/api/documents', { json: { url: 'https://example.org/html/page', html: '<html><head><title>Ibis Page</title><script>evil()</script></head><body><p>Sacred ibis wade.</p></body></html>' } });
    assert.equal(page.status, 201, page.text);
    assert.equal(page.body.document.title, 'Ibis Page');
    const fragment = await call('POST', '/api/documents', { json: { url: 'https://example.org/html/fragment', html: '<title>Kiwi</title><p>Kiwis are flightless.</p>' } });
    assert.equal(fragment.status, 201, fragment.text);
    const bare = await call('POST', '/api/documents', { json: { url: 'https://example.org/html/bare', html: 'just words about tapirs' } });
    assert.equal(bare.status, 201, bare.text);
    const detail = await call('GET', `/api/documents/${fragment.body.document.id}`);
    assert.equal(detail.body.document.title, 'Kiwi');
    assert.equal(detail.body.text, 'Kiwis are flightless.');
    assert.equal((await call('GET', `/api/documents/${bare.body.document.id}`)).body.text, 'just words about tapirs');
    const evil = await call('GET', '/api/search?q=evil');
    assert.equal(evil.body.total, 0, 'script text is not indexed');
  });

  test('GET /api/search', async () => {
    await call('POST', '/api/documents', { json: { url: 'https://example.org/search/a', title: 'Capybara facts', text: 'The capybara is the largest living rodent.' } });
    await call('POST', '/api/documents', { json: { url: 'https://example.org/search/b', title: 'Rodents', text: 'Another capybara mention among rodents.' } });
    const r = await call('GET', '/api/search?q=capybara');
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.total, 2);
    assert.equal(r.body.results.length, 2);
    assert.equal(typeof r.body.duration_ms, 'number');
    for (const key of ['id', 'url', 'title', 'snippet', 'score', 'added', 'updated', 'domain', 'label', 'language', 'type', 'match']) assert.ok(key in r.body.results[0], key);
    assert.deepEqual(r.body.results.map((x: any) => x.url).sort(), ['https://example.org/search/a', 'https://example.org/search/b']);
    const one = await call('GET', '/api/search?q=capybara&limit=1');
    assert.equal(one.body.results.length, 1);
    assert.equal(one.body.total, 2);
    const today = new Date().toISOString().slice(0, 10);
    assert.equal((await call('GET', `/api/search?q=capybara&date_from=${today}&date_to=${today}`)).body.total, 2);
    assert.equal((await call('GET', '/api/search?q=capybara&date_to=2001-01-01')).body.total, 0);
    const spaced = await call('GET', `/api/search?q=${encodeURIComponent('largest rodent')}`);
    assert.equal(spaced.body.total, 1);
    assert.equal(spaced.body.results[0].url, 'https://example.org/search/a');
    assert.equal(spaced.body.results[0].match, 'full');
  });

  test('GET /api/status', async () => {
    const r = await call('GET', '/api/status');
    assert.equal(r.status, 200);
    assert.equal(r.body.store.backend, 'sqlite');
    assert.equal(r.body.store.path, join(t.dir, 'trove.db'));
    // Written by the tests above: one document twice, three HTML pages, two search pages.
    assert.deepEqual(r.body.counts, { documents: 6, web: 6, local: 0, memory: 0, versions: 7, chunks: 6 });
    assert.equal(r.body.revision, 7);
  });

  test('GET /api/documents by id and by percent-encoded url', async () => {
    const url = 'https://example.org/odd path/ü?x=1&y=a/b#frag';
    const created = await call('POST', '/api/documents', { json: { url, text: 'An oddly addressed page about okapis.' } });
    assert.equal(created.status, 201, created.text);
    const stored = created.body.document.url;
    assert.equal(stored, new URL(url).href);
    const byId = await call('GET', `/api/documents/${created.body.document.id}`);
    assert.equal(byId.status, 200);
    assert.deepEqual(Object.keys(byId.body), ['document', 'versions', 'text']);
    assert.equal(byId.body.text, 'An oddly addressed page about okapis.');
    assert.equal(byId.body.versions.length, 1);
    const byUrl = await call('GET', `/api/documents/${encodeURIComponent(stored)}`);
    assert.equal(byUrl.status, 200, byUrl.text);
    assert.deepEqual(byUrl.body, byId.body);
  });

  test('400 for bodies: malformed JSON, empty, not an object, unknown property, wrong types, missing content', async () => {
    const post = (body: string) => call('POST', '/api/documents', { body, headers: { 'content-type': 'application/json' } });
    assertCleanError(await post('{"url": "https://example.org/x", "text": '), 400, 'INVALID_ARGUMENT');
    assertCleanError(await post('{url: 1}'), 400, 'INVALID_ARGUMENT');
    assertCleanError(await post(''), 400, 'INVALID_ARGUMENT');
    assertCleanError(await post('[1, 2]'), 400, 'INVALID_ARGUMENT');
    assertCleanError(await post('null'), 400, 'INVALID_ARGUMENT');
    const field = async (json: unknown) => assertCleanError(await call('POST', '/api/documents', { json }), 400, 'INVALID_ARGUMENT').details?.field;
    assert.equal(await field({ url: 'https://example.org/x', text: 'x', extra: true }), 'extra');
    assert.equal(await field({ url: 5, text: 'x' }), 'url');
    assert.equal(await field({ url: 'https://example.org/x', text: ['x'] }), 'text');
    assert.equal(await field({ url: 'https://example.org/x', text: 'x', label: 7 }), 'label');
    assert.equal(await field({ url: 'https://example.org/x', html: null }), 'html');
    assert.equal(await field({ url: 'https://example.org/x' }), 'text');
    assert.equal(await field({ text: 'x' }), 'url');
    assert.equal(await field({ url: 'not a url', text: 'x' }), 'url');
    assert.equal(await field({ url: '', text: 'x' }), 'url');
    const latin1 = await call('POST', '/api/documents', { body: new TextDecoder('latin1').decode(new Uint8Array([0x7b, 0xe9, 0x7d])), headers: { 'content-type': 'application/json' } });
    assert.equal(latin1.status, 400);
    const stats = await call('GET', '/api/status');
    assert.equal((await call('GET', '/api/documents/https%3A%2F%2Fexample.org%2Fx')).status, 404, 'nothing was stored');
    assert.equal(stats.status, 200);
  });

  test('400 for query parameters: bad limit, missing q, unknown, duplicate, invalid query, bad date', async () => {
    const field = async (path: string) => assertCleanError(await call('GET', path), 400, 'INVALID_ARGUMENT').details?.field;
    assert.equal(await field('/api/search?q=capybara&limit=ten'), 'limit');
    assert.equal(await field('/api/search?q=capybara&limit=1.5'), 'limit');
    assert.equal(await field('/api/search?limit=3'), 'q');
    assert.equal(await field('/api/search?q=capybara&sort=date'), 'sort');
    assert.equal(await field('/api/search?q=capybara&q=rodent'), 'q');
    assert.equal(await field('/api/search?q=capybara&limit=1&limit=2'), 'limit');
    assert.equal(await field('/api/search?q=capybara&date_from=last-week'), 'date_from');
    assert.equal(await field('/api/search?q=capybara&date_from=2020-02-02&date_to=2020-01-01'), 'date_to');
    assert.equal(await field('/api/status?verbose=1'), 'verbose');
    const id = (await call('GET', '/api/search?q=capybara')).body.results[0].id;
    assert.equal(await field(`/api/documents/${id}?v=2`), 'v');
    const invalid = assertCleanError(await call('GET', `/api/search?q=${encodeURIComponent('rodent (capybara')}`), 400, 'INVALID_QUERY');
    assert.equal(invalid.details.position, 7);
    assertCleanError(await call('GET', '/api/documents/%E0%A4%A'), 400, 'INVALID_ARGUMENT');
  });

  test('404 for unknown routes and unknown documents', async () => {
    assertCleanError(await call('GET', '/nope'), 404, 'NOT_FOUND');
    assertCleanError(await call('GET', '/api'), 404, 'NOT_FOUND');
    assertCleanError(await call('GET', '/api/documents/a/b'), 404, 'NOT_FOUND');
    assertCleanError(await call('POST', '/api/nothing', { json: {} }), 404, 'NOT_FOUND');
    assertCleanError(await call('GET', '/api/documents/01ARZ3NDEKTSV4RRFFQ69G5FAV'), 404, 'NOT_FOUND');
    assertCleanError(await call('GET', `/api/documents/${encodeURIComponent('https://example.org/never')}`), 404, 'NOT_FOUND');
  });

  test('405 for a wrong method, with Allow', async () => {
    const put = await call('PUT', '/api/documents', { json: {} });
    assertCleanError(put, 405, 'METHOD_NOT_ALLOWED');
    assert.equal(put.headers.get('allow'), 'POST');
    const post = await call('POST', '/api/search', { json: {} });
    assertCleanError(post, 405, 'METHOD_NOT_ALLOWED');
    assert.equal(post.headers.get('allow'), 'GET');
    assertCleanError(await call('DELETE', '/healthz'), 405, 'METHOD_NOT_ALLOWED');
    assertCleanError(await call('GET', '/api/documents'), 405, 'METHOD_NOT_ALLOWED');
  });

  test('413 for a body over server.max_body_bytes, declared or streamed', async () => {
    const big = { url: 'https://example.org/big', text: 'x'.repeat(3000) };
    const declared = await call('POST', '/api/documents', { json: big });
    assert.equal(assertCleanError(declared, 413, 'PAYLOAD_TOO_LARGE').details.limit, 2048);
    const enc = new TextEncoder();
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(enc.encode('{"url":"https://example.org/big","text":"'));
        for (let i = 0; i < 10; i++) c.enqueue(enc.encode('y'.repeat(500)));
        c.enqueue(enc.encode('"}'));
        c.close();
      },
    });
    assertCleanError(await call('POST', '/api/documents', { body: stream, headers: { 'content-type': 'application/json' } }), 413, 'PAYLOAD_TOO_LARGE');
    assert.equal((await call('GET', `/api/documents/${encodeURIComponent('https://example.org/big')}`)).status, 404);
    const fits = await call('POST', '/api/documents', { json: { url: 'https://example.org/fits', text: 'z'.repeat(1900) } });
    assert.equal(fits.status, 201, fits.text);
  });

  test('415 for a body that is not JSON', async () => {
    const json = JSON.stringify({ url: 'https://example.org/typed', text: 'x' });
    assertCleanError(await call('POST', '/api/documents', { body: json, headers: { 'content-type': 'text/plain' } }), 415, 'UNSUPPORTED_MEDIA_TYPE');
    assertCleanError(await call('POST', '/api/documents', { body: json, headers: { 'content-type': 'application/x-www-form-urlencoded' } }), 415, 'UNSUPPORTED_MEDIA_TYPE');
    assertCleanError(await call('POST', '/api/documents', { body: new Blob([json]) as unknown as string }), 415, 'UNSUPPORTED_MEDIA_TYPE');
    const ok = await call('POST', '/api/documents', { body: json, headers: { 'content-type': 'Application/JSON; charset=utf-8' } });
    assert.equal(ok.status, 201, ok.text);
  });

  test('403 for a foreign Origin or Host; same-origin and no Origin pass', async () => {
    assertCleanError(await call('GET', '/api/status', { headers: { origin: 'https://evil.example' } }), 403, 'FORBIDDEN');
    assertCleanError(await call('GET', '/api/search?q=x', { headers: { origin: 'null' } }), 403, 'FORBIDDEN');
    assertCleanError(await call('POST', '/api/documents', { json: { url: 'https://example.org/csrf', text: 'x' }, headers: { origin: 'http://127.0.0.1:1' } }), 403, 'FORBIDDEN');
    assert.equal((await call('GET', `/api/documents/${encodeURIComponent('https://example.org/csrf')}`)).status, 404);
    assert.equal((await call('GET', '/api/status', { headers: { origin: server.url } })).status, 200);
    const port = new URL(server.url).port;
    assert.equal((await call('GET', '/api/status', { headers: { origin: `http://localhost:${port}` } })).status, 200);
    const rebound = await rawGet(`${server.url}/api/status`, { host: `evil.example:${port}` });
    assert.equal(rebound.status, 403);
    assert.equal(rebound.body.error.code, 'FORBIDDEN');
    assert.equal((await rawGet(`${server.url}/api/status`, { host: `localhost:${port}` })).status, 200);
  });

  test('no token configured: requests need none, and any token is ignored', async () => {
    assert.equal((await call('GET', '/api/status', { headers: { authorization: 'Bearer whatever' } })).status, 200);
  });
});

describe('HTTP API with an access token', () => {
  let t: { app: App; dir: string; cleanup: () => Promise<void> };
  let server: RunningServer;
  const call = client(() => server.url);
  const TOKEN = 'correct-horse-battery-staple';

  before(async () => {
    t = testApp({ 'app.access_token': TOKEN });
    server = await startServer(t.app, { host: '127.0.0.1', port: 0 });
  });
  after(async () => {
    await server?.close();
    await t?.cleanup();
  });

  test('401 without a token or with a wrong one, with WWW-Authenticate', async () => {
    for (const headers of <Array<Record<string, string>>>[{}, { authorization: 'Bearer wrong' }, { 'x-access-token': 'wrong' }, { authorization: `Basic ${TOKEN}` }, { authorization: 'Bearer' }, { authorization: `Bearer ${TOKEN}x` }]) {
      for (const path of ['/api/status', '/api/search?q=x', '/api/documents/01ARZ3NDEKTSV4RRFFQ69G5FAV']) {
        const r = await call('GET', path, { headers });
        assertCleanError(r, 401, 'UNAUTHORIZED');
        assert.equal(r.headers.get('www-authenticate'), 'Bearer realm="trove"');
        assert.ok(!r.text.includes(TOKEN));
      }
    }
    const post = await call('POST', '/api/documents', { json: { url: 'https://example.org/secret', text: 'x' } });
    assertCleanError(post, 401, 'UNAUTHORIZED');
  });

  test('without the token unknown routes and methods answer 401 too; with it, 404 and 405', async () => {
    assertCleanError(await call('GET', '/api/nope'), 401, 'UNAUTHORIZED');
    assertCleanError(await call('DELETE', '/api/status'), 401, 'UNAUTHORIZED');
    assertCleanError(await call('GET', '/api/nope', { headers: { authorization: `Bearer ${TOKEN}` } }), 404, 'NOT_FOUND');
    assertCleanError(await call('DELETE', '/api/status', { headers: { authorization: `Bearer ${TOKEN}` } }), 405, 'METHOD_NOT_ALLOWED');
    assert.equal((await call('GET', '/healthz')).status, 200);
  });

  test('the right token as Bearer or X-Access-Token', async () => {
    for (const headers of <Array<Record<string, string>>>[{ authorization: `Bearer ${TOKEN}` }, { authorization: `bearer  ${TOKEN} ` }, { 'x-access-token': TOKEN }]) {
      const r = await call('GET', '/api/status', { headers });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.counts.documents, 0, 'the unauthorized POST stored nothing');
    }
    const post = await call('POST', '/api/documents', { json: { url: 'https://example.org/authorized', text: 'allowed in' }, headers: { 'x-access-token': TOKEN } });
    assert.equal(post.status, 201, post.text);
  });

  test('/healthz stays public', async () => {
    assert.equal((await call('GET', '/healthz')).status, 200);
  });

  test('a token does not excuse a foreign Origin', async () => {
    assertCleanError(await call('GET', '/api/status', { headers: { authorization: `Bearer ${TOKEN}`, origin: 'https://evil.example' } }), 403, 'FORBIDDEN');
  });

  test('with a token the server may bind beyond loopback', async () => {
    const wide = await startServer(t.app, { host: '0.0.0.0', port: 0 });
    try {
      const port = new URL(wide.url).port;
      const r = await fetch(`http://127.0.0.1:${port}/api/status`, { headers: { authorization: `Bearer ${TOKEN}` } });
      assert.equal(r.status, 200);
    } finally {
      await wide.close();
    }
  });
});

describe('server start-up and internal errors', () => {
  test('binding beyond loopback without a token is refused', async () => {
    const t = testApp();
    try {
      await assert.rejects(startServer(t.app, { host: '0.0.0.0', port: 0 }), (e: any) => e.code === 'INVALID_CONFIG' && e.details.key === 'app.access_token');
    } finally {
      await t.cleanup();
    }
  });

  test('an internal failure is a bare 500 INTERNAL; the log keeps the cause', async () => {
    const tmp = tempDir();
    const logged: string[] = [];
    const app = createApp(loadConfig({ dataDir: tmp.dir, env: { XDG_CONFIG_HOME: tmp.dir } }), createLogger('error', (line) => logged.push(line)));
    const t = { app, dir: tmp.dir, cleanup: async () => (await app.close(), tmp.cleanup()) };
    const server = await startServer(t.app, { host: '127.0.0.1', port: 0 });
    const call = client(() => server.url);
    try {
      const created = await call('POST', '/api/documents', { json: { url: 'https://example.org/doomed', text: 'soon broken' } });
      assert.equal(created.status, 201);
      // Break the schema behind the server's back, as a damaged or hand-edited store would.
      const other = new Database(join(t.dir, 'trove.db'));
      other.exec('DROP TABLE versions');
      other.close();
      const r = await call('GET', `/api/documents/${created.body.document.id}`);
      const err = assertCleanError(r, 500, 'INTERNAL');
      assert.equal(err.details, undefined);
      assert.equal(logged.length, 1);
      assert.match(logged[0]!, /ERROR request failed .*"path":"\/api\/documents\/[0-9A-Z]{26}"/);
      assert.match(logged[0]!, /caused by: SqliteError: no such table: /);
    } finally {
      await server.close();
      await t.cleanup();
    }
  });
});

describe('`trove add <url>` fetches over HTTP', () => {
  let pages: PageServer;
  let base: string;
  let tmp: { dir: string; cleanup: () => void };

  const routes: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {
    '/article': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><html lang="en"><head><title>Pangolin Article</title><meta name="description" content="About pangolins"></head><body><nav>menu</nav><p>Pangolins are covered in keratin scales.</p></body></html>');
    },
    '/moved': (_req, res) => {
      res.writeHead(302, { location: '/article' });
      res.end();
    },
    '/notes.txt': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('Plain notes about axolotls.');
    },
    '/image.png': (_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(Buffer.alloc(64));
    },
    '/untyped': (_req, res) => {
      res.writeHead(200);
      res.end('no content type');
    },
    '/stall': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.write('<html><body>the rest never comes');
    },
    '/drop': (req, res) => {
      res.writeHead(200, { 'content-type': 'text/html', 'content-length': '5000' });
      res.write('<html><body>cut short');
      setTimeout(() => req.socket.destroy(), 50);
    },
  };

  before(async () => {
    tmp = tempDir('trove-fetch-');
    pages = await startPageServer(routes);
    base = pages.base;
  });
  after(async () => {
    await pages.close();
    tmp.cleanup();
  });

  const trove = (...args: string[]) => runCli(['--data-dir', join(tmp.dir, 'data'), ...args], { env: cliEnv(tmp.dir) });

  test('an HTML page is stored, searchable, and unchanged on re-add', async () => {
    const r = await trove('add', `${base}/article`, '--json');
    assert.equal(r.code, 0, r.stderr);
    const [first] = parseJson(r).results;
    assert.equal(first.target, `${base}/article`);
    assert.equal(first.status, 'added');
    assert.equal(first.document.url, `${base}/article`);
    assert.equal(first.document.title, 'Pangolin Article');
    assert.equal(first.document.type, 'web');
    assert.equal(first.document.domain, '127.0.0.1');
    assert.equal(first.document.metadata.description, 'About pangolins');
    const shown = parseJson(await trove('show', first.document.id, '--json'));
    assert.equal(shown.text, 'Pangolins are covered in keratin scales.');
    const found = parseJson(await trove('search', 'keratin', '--json'));
    assert.deepEqual(found.results.map((x: any) => x.id), [first.document.id]);
    const again = await trove('add', `${base}/article`);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(again.stdout, `unchanged ${first.document.id}  ${base}/article\n`);
  });

  test('a redirect is followed and stored under the final URL; plain text is kept', async () => {
    const moved = parseJson(await trove('add', `${base}/moved`, '--json')).results[0];
    assert.equal(moved.document.url, `${base}/article`);
    assert.equal(moved.status, 'unchanged');
    const text = await trove('add', `${base}/notes.txt`, '--json');
    assert.equal(text.code, 0, text.stderr);
    assert.equal(parseJson(text).results[0].document.title, `${base}/notes.txt`);
    assert.equal(parseJson(await trove('search', 'axolotls', '--json')).total, 1);
  });

  test('a 404 is FETCH_FAILED', async () => {
    const r = await trove('add', `${base}/missing`);
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^trove: FETCH_FAILED: [^\n]*HTTP 404\n$/);
    const json = await trove('add', `${base}/missing`, '--json');
    assert.equal(parseJson(json).results[0].error.code, 'FETCH_FAILED');
  });

  test('a non-HTML content type is UNSUPPORTED_TYPE', async () => {
    for (const path of ['/image.png', '/untyped']) {
      const r = await trove('add', `${base}${path}`);
      assert.equal(r.code, 1);
      assert.match(r.stderr, /^trove: UNSUPPORTED_TYPE: [^\n]+\n$/);
    }
  });

  test('a refused connection, a stalled body and a dropped connection are FETCH_FAILED, not crashes', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    for (const url of [`http://127.0.0.1:${deadPort}/`, `${base}/stall`, `${base}/drop`]) {
      const r = await trove('--set', 'indexer.fetch_timeout_ms=700', 'add', url);
      assert.equal(r.code, 1, url);
      assert.match(r.stderr, /^trove: FETCH_FAILED: [^\n]+\n$/, url);
    }
    const status = parseJson(await trove('status', '--json'));
    assert.equal(status.counts.documents, 2);
  });
});

describe('`trove add <url>`: limits, codes and redaction end to end', () => {
  let web: PageServer;
  let tmp: { dir: string; cleanup: () => void };
  const token = `glpat-${'Q7w_E9r-'.repeat(3)}`;

  before(async () => {
    tmp = tempDir('trove-fetch-e2e-');
    web = await startPageServer({
      '/members': (req, res) => {
        const ok = req.headers.authorization === `Basic ${Buffer.from('ann:opensesame').toString('base64')}`;
        res.writeHead(ok ? 200 : 401, { 'content-type': 'text/html; charset=utf-8' });
        res.end(ok ? `<title>Members</title><p>Deploy token ${token} for the wombat project.</p>` : '<p>no</p>');
      },
      '/ua': (req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end(`agent ${req.headers['user-agent']}`);
      },
      '/ping': redirect('/pong'),
      '/pong': redirect('/ping'),
      '/big': page('<p>'.padEnd(5000, 'x'), { 'content-type': 'text/html' }),
    });
  });
  after(async () => {
    await web?.close();
    tmp?.cleanup();
  });

  const trove = (...args: string[]) => runCli(['--data-dir', join(tmp.dir, 'data'), ...args], { env: cliEnv(tmp.dir) });

  test('a page behind Basic auth in the URL is stored with the password and the secrets redacted', async () => {
    const base = new URL(web.base);
    const r = await trove('add', `http://ann:opensesame@${base.host}/members`, '--json');
    assert.equal(r.code, 0, r.stderr);
    const doc = parseJson(r).results[0].document;
    assert.equal(doc.url, `http://ann:REDACTED@${base.host}/members`);
    const shown = parseJson(await trove('show', doc.id, '--json'));
    assert.equal(shown.text, 'Deploy token [REDACTED:gitlab-token] for the wombat project.');
    assert.equal(parseJson(await trove('search', 'opensesame', '--json')).total, 0);
  });

  test('the user agent comes from indexer.user_agent', async () => {
    const r = parseJson(await trove('--set', 'indexer.user_agent=Wombat/2.0', 'add', `${web.base}/ua`, '--json'));
    assert.equal(parseJson(await trove('show', r.results[0].document.id, '--json')).text, 'agent Wombat/2.0');
  });

  test('a redirect loop is REDIRECT_LOOP and a page over indexer.fetch_max_bytes is TOO_LARGE', async () => {
    const loop = await trove('add', `${web.base}/ping`);
    assert.equal(loop.code, 1);
    assert.match(loop.stderr, /^trove: REDIRECT_LOOP: [^\n]+\n$/);
    const big = await trove('--set', 'indexer.fetch_max_bytes=4096', 'add', `${web.base}/big`, '--json');
    assert.equal(big.code, 1);
    assert.equal(parseJson(big).results[0].error.code, 'TOO_LARGE');
  });
});

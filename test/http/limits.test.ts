import assert from 'node:assert/strict';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { App } from '../../src/app.js';
import { ConcurrencyGate } from '../../src/http/limits.js';
import { OriginPolicy } from '../../src/http/origins.js';
import { type Route, Router } from '../../src/http/routes.js';
import { type RunningServer, createHandler, startServer } from '../../src/http/server.js';
import { createToolRegistry } from '../../src/mcp/tools.js';
import { testApp } from '../helpers.js';
import { type RawConnection, eventually, openRaw, parseResponse, postHead, request } from './raw.js';

// Seed 004's bounds: 413 over the body limit, 429 + Retry-After over the concurrency limit, 408 for
// bodies and headers that stall, 503 past the deadline. Statuses and codes only, never durations.

const MCP_INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'limits', version: '0' } } };
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

function assertError(r: { status: number; body: any; text: string }, status: number, code: string): void {
  assert.equal(r.status, status, r.text);
  assert.equal(r.body?.error?.code, code, r.text);
  assert.equal(typeof r.body.error.message, 'string');
  for (const leak of ['at /', 'at file:', 'node_modules', 'Error:']) assert.ok(!r.text.includes(leak), `error body leaks ${leak}: ${r.text}`);
}

describe('body and concurrency limits', () => {
  let t: { app: App; cleanup: () => Promise<void> };
  let server: RunningServer;
  const held: RawConnection[] = [];

  before(async () => {
    t = testApp({ 'server.max_body_bytes': '2048', 'server.max_concurrent': '2', 'server.body_timeout_ms': '60000' });
    server = await startServer(t.app, { host: '127.0.0.1', port: 0 });
  });
  after(async () => {
    for (const h of held) h.socket.destroy();
    await server?.close();
    await t?.cleanup();
  });

  test('413 PAYLOAD_TOO_LARGE for an API body over server.max_body_bytes', async () => {
    const body = JSON.stringify({ url: 'https://example.org/big', text: 'x'.repeat(4000) });
    const r = await request(`${server.url}/api/documents`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    assertError(r, 413, 'PAYLOAD_TOO_LARGE');
  });

  test('413 for an MCP body over server.max_body_bytes', async () => {
    const res = await fetch(`${server.url}/mcp`, { method: 'POST', headers: MCP_HEADERS, body: JSON.stringify({ ...MCP_INIT, pad: 'x'.repeat(4000) }) });
    assert.equal(res.status, 413);
    assert.ok(JSON.parse(await res.text()).error, 'a JSON error body');
    const fits = await fetch(`${server.url}/mcp`, { method: 'POST', headers: MCP_HEADERS, body: JSON.stringify(MCP_INIT) });
    assert.equal(fits.status, 200);
  });

  test('429 RATE_LIMITED with Retry-After while max_concurrent requests are in flight; /healthz exempt', async () => {
    // Two POSTs whose bodies never finish hold both slots (the body timeout is long here).
    for (let i = 0; i < 2; i++) {
      const c = openRaw(server.origin, postHead('/api/documents', 500));
      c.socket.write('{"url":"https://example.org/held","text":"');
      held.push(c);
    }
    const limited = await eventually(() => request(`${server.url}/api/status`), (r) => r.status === 429);
    assertError(limited, 429, 'RATE_LIMITED');
    assert.equal(limited.headers['retry-after'], '1');
    const mcp = await request(`${server.url}/mcp`, { method: 'POST', headers: MCP_HEADERS, body: JSON.stringify(MCP_INIT) });
    assertError(mcp, 429, 'RATE_LIMITED');
    assert.equal(mcp.headers['retry-after'], '1');
    assert.equal((await request(`${server.url}/healthz`)).status, 200);
    // A client that gives up frees its slot.
    for (const h of held.splice(0)) h.socket.destroy();
    const served = await eventually(() => request(`${server.url}/api/status`), (r) => r.status !== 429);
    assert.equal(served.status, 200, served.text);
  });
});

describe('slow clients', () => {
  let t: { app: App; cleanup: () => Promise<void> };
  let server: RunningServer;

  before(async () => {
    t = testApp({ 'server.body_timeout_ms': '300', 'server.headers_timeout_ms': '300', 'server.max_concurrent': '2' });
    server = await startServer(t.app, { host: '127.0.0.1', port: 0 });
  });
  after(async () => {
    await server?.close();
    await t?.cleanup();
  });

  test('a stalled API body gets 408 REQUEST_TIMEOUT and the connection closes', async () => {
    const c = openRaw(server.origin, postHead('/api/documents', 500));
    c.socket.write('{"url":"https://example.org/stalled",');
    const r = parseResponse(await c.closed);
    assertError(r, 408, 'REQUEST_TIMEOUT');
    assert.equal(r.headers.connection, 'close');
    assert.equal((await request(`${server.url}/api/documents/${encodeURIComponent('https://example.org/stalled')}`)).status, 404);
  });

  test('a stalled MCP body gets 408 REQUEST_TIMEOUT too', async () => {
    const c = openRaw(server.origin, postHead('/mcp', 500));
    c.socket.write('{"jsonrpc":"2.0",');
    assertError(parseResponse(await c.closed), 408, 'REQUEST_TIMEOUT');
  });

  test('stalled bodies give their slots back', async () => {
    const stalled = [0, 1].map(() => openRaw(server.origin, postHead('/api/documents', 500)));
    for (const raw of await Promise.all(stalled.map((c) => c.closed))) assertError(parseResponse(raw), 408, 'REQUEST_TIMEOUT');
    assert.equal((await request(`${server.url}/api/status`)).status, 200);
  });

  test('a header trickle (slowloris) is cut with 408 REQUEST_TIMEOUT', async () => {
    const c = openRaw(server.origin, 'GET /api/status HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    let sent = 0;
    const trickle = setInterval(() => {
      if (!c.socket.destroyed && sent++ < 500) c.socket.write(`X-Slow-${sent}: a\r\n`);
    }, 20);
    try {
      const raw = await c.closed;
      assert.ok(sent < 500, 'the server closed the connection before the client gave up');
      assertError(parseResponse(raw), 408, 'REQUEST_TIMEOUT');
    } finally {
      clearInterval(trickle);
    }
  });

  test('a connection that never sends a request is closed', async () => {
    const c = openRaw(server.origin, '');
    const raw = await c.closed;
    if (raw) assertError(parseResponse(raw), 408, 'REQUEST_TIMEOUT');
  });
});

describe('the request deadline', () => {
  let t: { app: App; cleanup: () => Promise<void> };
  let server: Server;
  let base: string;
  let aborted = false;

  // A route that works until its signal aborts, mounted on the real pipeline.
  const slow: Route = {
    method: 'GET',
    path: '/slow',
    access: 'documents.read',
    summary: 'waits for its deadline',
    handle: ({ signal }) =>
      new Promise((resolve) => {
        signal.addEventListener('abort', () => {
          aborted = true;
          resolve({ status: 200, body: { late: true } });
        });
      }),
  };

  before(async () => {
    t = testApp({ 'server.request_timeout_ms': '300' });
    let port = 0;
    const parts = {
      router: new Router([slow]),
      origins: new OriginPolicy({ bindHost: '127.0.0.1', publicOrigins: [], port: () => port }),
      gate: new ConcurrencyGate(2),
      base: '',
      tools: createToolRegistry(t.app.config),
    };
    server = createServer(createHandler(t.app, parts));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    base = `http://127.0.0.1:${port}`;
  });
  after(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await t?.cleanup();
  });

  test('work still running at the deadline: 503 DEADLINE_EXCEEDED, its signal aborted', async () => {
    const r = await request(`${base}/slow`);
    assertError(r, 503, 'DEADLINE_EXCEEDED');
    assert.equal(aborted, true);
    // The slot is free again and the late result went nowhere.
    assertError(await request(`${base}/slow`), 503, 'DEADLINE_EXCEEDED');
  });
});

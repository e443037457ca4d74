import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { App } from '../../src/app.js';
import { loadConfig } from '../../src/config/load.js';
import { basePath, baseOrigin, stripBase } from '../../src/http/base-path.js';
import { type RunningServer, startServer } from '../../src/http/server.js';
import { defaultMcpUrl } from '../../src/mcp/client-config.js';
import { ERAS, call, httpClient } from '../mcp/client.js';
import { testApp } from '../helpers.js';
import { type RawReply, request } from './raw.js';

// Behind a reverse proxy: server.public_origin admits the proxy's Host and Origin, server.base_url
// moves every route under a sub-path (seed 000: https://example.com/hister -> .../hister/mcp).

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const MCP_INIT = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'proxy', version: '0' } } });

function assertError(r: RawReply, status: number, code: string): void {
  assert.equal(r.status, status, r.text);
  assert.equal(r.body?.error?.code, code, r.text);
}

describe('behind a reverse proxy under a sub-path', () => {
  let t: { app: App; cleanup: () => Promise<void> };
  let server: RunningServer;
  let port: string;

  before(async () => {
    t = testApp({ 'server.base_url': 'https://example.com/trove/', 'server.public_origin': 'https://trove.example.com' });
    server = await startServer(t.app, { host: '127.0.0.1', port: 0 });
    port = new URL(server.origin).port;
  });
  after(async () => {
    await server?.close();
    await t?.cleanup();
  });

  test('the server URL carries the base path', () => {
    assert.equal(server.url, `${server.origin}/trove`);
  });

  test('/api/status, /healthz and /mcp move under the base path; the old paths are 404', async () => {
    assert.equal((await request(`${server.origin}/trove/api/status`)).status, 200);
    assert.deepEqual((await request(`${server.origin}/trove/healthz`)).body, { ok: true });
    assert.equal((await request(`${server.origin}/trove/mcp`, { method: 'POST', headers: MCP_HEADERS, body: MCP_INIT })).status, 200);
    assertError(await request(`${server.origin}/api/status`), 404, 'NOT_FOUND');
    assertError(await request(`${server.origin}/healthz`), 404, 'NOT_FOUND');
    assertError(await request(`${server.origin}/mcp`, { method: 'POST', headers: MCP_HEADERS, body: MCP_INIT }), 404, 'NOT_FOUND');
    assertError(await request(`${server.origin}/trovex/api/status`), 404, 'NOT_FOUND');
    assertError(await request(`${server.origin}/trove`), 404, 'NOT_FOUND');
  });

  for (const era of ERAS) {
    test(`an SDK ${era} client initializes and calls tools under the sub-path`, async () => {
      const client = await httpClient(`${server.url}/mcp`, era);
      try {
        const { tools } = await client.listTools();
        assert.ok(tools.some((tool) => tool.name === 'search'));
        const r = await call(client, 'search', { query: 'anything' });
        assert.equal(r.ok, true);
      } finally {
        await client.close();
      }
    });
  }

  test('a proxied Host naming a public origin is served; a foreign one is 403', async () => {
    const status = `${server.url}/api/status`;
    assert.equal((await request(status, { headers: { host: 'trove.example.com' } })).status, 200);
    assert.equal((await request(status, { headers: { host: 'trove.example.com:443' } })).status, 200);
    assert.equal((await request(status, { headers: { host: 'example.com' } })).status, 200, "base_url's origin counts too");
    assert.equal((await request(status, { headers: { host: `localhost:${port}` } })).status, 200);
    assertError(await request(status, { headers: { host: 'evil.example' } }), 403, 'FORBIDDEN');
    assertError(await request(status, { headers: { host: 'trove.example.com:8443' } }), 403, 'FORBIDDEN');
    assertError(await request(status, { headers: { host: 'trove.example.com.evil.example' } }), 403, 'FORBIDDEN');
    assertError(await request(`${server.url}/mcp`, { method: 'POST', headers: { ...MCP_HEADERS, host: 'evil.example' }, body: MCP_INIT }), 403, 'FORBIDDEN');
  });

  test('a page on a public origin may call; other origins are 403', async () => {
    const status = `${server.url}/api/status`;
    for (const origin of ['https://trove.example.com', 'https://example.com']) {
      assert.equal((await request(status, { headers: { origin } })).status, 200, origin);
      assert.equal((await request(status, { headers: { origin, host: 'trove.example.com' } })).status, 200, origin);
    }
    assert.equal((await request(status, { headers: { origin: server.origin } })).status, 200);
    for (const origin of ['https://evil.example', 'http://trove.example.com', 'https://trove.example.com:8443', 'null']) {
      assertError(await request(status, { headers: { origin } }), 403, 'FORBIDDEN');
    }
    const mcp = await request(`${server.url}/mcp`, { method: 'POST', headers: { ...MCP_HEADERS, origin: 'https://trove.example.com', host: 'trove.example.com' }, body: MCP_INIT });
    assert.equal(mcp.status, 200, mcp.text);
    assertError(await request(`${server.url}/mcp`, { method: 'POST', headers: { ...MCP_HEADERS, origin: 'https://evil.example' }, body: MCP_INIT }), 403, 'FORBIDDEN');
  });
});

describe('a sub-path with an access token', () => {
  const TOKEN = 'proxy-token-0123456789';
  let t: { app: App; cleanup: () => Promise<void> };
  let server: RunningServer;

  before(async () => {
    t = testApp({ 'server.base_url': '/trove', 'app.access_token': TOKEN });
    server = await startServer(t.app, { host: '127.0.0.1', port: 0 });
  });
  after(async () => {
    await server?.close();
    await t?.cleanup();
  });

  test('outside the base path: 401 without the token, 404 with it', async () => {
    for (const path of ['/api/status', '/healthz', '/mcp']) {
      assertError(await request(`${server.origin}${path}`), 401, 'UNAUTHORIZED');
      assertError(await request(`${server.origin}${path}`, { headers: { authorization: `Bearer ${TOKEN}` } }), 404, 'NOT_FOUND');
    }
  });

  test('inside: /healthz is public, the rest needs the token', async () => {
    assert.equal((await request(`${server.url}/healthz`)).status, 200);
    assertError(await request(`${server.url}/api/status`), 401, 'UNAUTHORIZED');
    assert.equal((await request(`${server.url}/api/status`, { headers: { 'x-access-token': TOKEN } })).status, 200);
  });
});

describe('a wildcard bind', () => {
  test('names this machine: loopback is served, a foreign Host is 403', async () => {
    const t = testApp({ 'app.access_token': 'wide-token-0123456789' });
    const server = await startServer(t.app, { host: '0.0.0.0', port: 0 });
    try {
      const port = new URL(server.origin).port;
      const url = `http://127.0.0.1:${port}/api/status`;
      const auth = { authorization: 'Bearer wide-token-0123456789' };
      assert.equal((await request(url, { headers: auth })).status, 200);
      assertError(await request(url, { headers: { ...auth, host: 'rebind.example' } }), 403, 'FORBIDDEN');
    } finally {
      await server.close();
      await t.cleanup();
    }
  });
});

describe('base_url and public_origin settings', () => {
  test('the base path and origin of server.base_url', () => {
    assert.equal(basePath(''), '');
    assert.equal(basePath('/'), '');
    assert.equal(basePath('/trove/'), '/trove');
    assert.equal(basePath('https://example.com/a b/trove'), '/a%20b/trove');
    assert.equal(basePath('https://example.com'), '');
    assert.equal(baseOrigin('https://Example.com:443/trove'), 'https://example.com');
    assert.equal(baseOrigin('/trove'), undefined);
    assert.equal(stripBase('/trove/api/status', '/trove'), '/api/status');
    assert.equal(stripBase('/trove', '/trove'), '/');
    assert.equal(stripBase('/trovex/api', '/trove'), undefined);
    assert.equal(stripBase('/api/status', ''), '/api/status');
  });

  test('mcp-config points at the base path', () => {
    assert.equal(defaultMcpUrl('127.0.0.1:4433', basePath('https://example.com/trove')), 'http://127.0.0.1:4433/trove/mcp');
    assert.equal(defaultMcpUrl('127.0.0.1:4433', basePath('')), 'http://127.0.0.1:4433/mcp');
  });

  test('malformed values are refused at start-up', () => {
    const bad: Array<[string, string]> = [
      ['server.public_origin', 'https://trove.example.com/path'],
      ['server.public_origin', 'trove.example.com'],
      ['server.public_origin', 'ftp://trove.example.com'],
      ['server.base_url', 'trove'],
      ['server.base_url', 'ftp://example.com/trove'],
      ['server.base_url', '/trove?x=1'],
    ];
    for (const [key, value] of bad) {
      assert.throws(() => loadConfig({ env: {}, overrides: { [key]: value } }), (e: any) => e.code === 'INVALID_CONFIG', `${key}=${value}`);
    }
    const ok = loadConfig({ env: {}, overrides: { 'server.public_origin': 'https://a.example,http://b.example:8080', 'server.base_url': 'http://[::1]:8080/t' } });
    assert.deepEqual(ok.server.public_origin, ['https://a.example', 'http://b.example:8080']);
  });
});

import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, describe, test } from 'node:test';
import type { App } from '../../src/app.js';
import { type RunningServer, startServer } from '../../src/http/server.js';
import { testApp } from '../helpers.js';
import { DEFAULT_TOOLS, MODERN } from './client.js';

// The wire as a hand-written client sees it: JSON-RPC over POST /mcp, as in seed 000's curl examples.

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const init = (id: number) => ({ jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '0' } } });

async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, { method: 'POST', headers: { ...JSON_HEADERS, ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

function rawPost(url: string, headers: Record<string, string>, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('MCP HTTP wire', () => {
  let app: App;
  let cleanup: () => Promise<void>;
  let server: RunningServer;
  let mcp: string;

  before(async () => {
    ({ app, cleanup } = testApp());
    server = await startServer(app, { host: '127.0.0.1', port: 0 });
    mcp = `${server.url}/mcp`;
  });
  after(async () => {
    await server.close();
    await cleanup();
  });

  test('legacy handshake, tools/list and ping, each on its own POST (stateless)', async () => {
    const hello = await post(mcp, init(1));
    assert.equal(hello.status, 200);
    assert.equal(hello.json.result.protocolVersion, '2025-06-18');
    assert.deepEqual(hello.json.result.capabilities, { tools: {}, resources: {} });
    assert.equal(hello.json.result.serverInfo.name, 'trove');
    const list = await post(mcp, { jsonrpc: '2.0', id: 2, method: 'tools/list' });
    assert.deepEqual(list.json.result.tools.map((t: any) => t.name), DEFAULT_TOOLS);
    const ping = await post(mcp, { jsonrpc: '2.0', id: 3, method: 'ping' });
    assert.deepEqual(ping.json, { jsonrpc: '2.0', id: 3, result: {} });
  });

  test("seed 000's curl examples: no Accept header beyond */*, one JSON body back", async () => {
    for (const accept of [undefined, '*/*']) {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (accept) headers.accept = accept;
      const res = await fetch(mcp, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'search', arguments: { query: 'python async', limit: 5 } } }) });
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
      const body = (await res.json()) as any;
      assert.equal(body.result.structuredContent.ok, true);
    }
  });

  test('every legacy revision from 2024-11-05 to 2025-11-25 is accepted', async () => {
    for (const v of ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25']) {
      const r = await post(mcp, { ...init(1), params: { ...init(1).params, protocolVersion: v } });
      assert.equal(r.json.result.protocolVersion, v);
    }
  });

  test('notifications are acknowledged with 202 and no body', async () => {
    for (const method of ['notifications/initialized', 'notifications/cancelled']) {
      const r = await post(mcp, { jsonrpc: '2.0', method, params: method.endsWith('cancelled') ? { requestId: 9 } : {} });
      assert.equal(r.status, 202, method);
      assert.equal(r.text, '');
    }
  });

  test('GET and DELETE answer 405 on the stateless endpoint', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(mcp, { method, headers: { accept: 'text/event-stream' } });
      await res.arrayBuffer();
      assert.equal(res.status, 405, method);
    }
  });

  test('malformed JSON-RPC is a protocol error without internals', async () => {
    const parse = await post(mcp, '{"jsonrpc":"2.0","id":1,"method":');
    assert.equal(parse.status, 400);
    assert.equal(parse.json.error.code, -32700);
    const badReq = await post(mcp, { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 42 } });
    assert.ok(badReq.json.error, badReq.text);
    assert.equal(badReq.json.error.code, -32602);
    const unknown = await post(mcp, { jsonrpc: '2.0', id: 6, method: 'no/such/method' });
    assert.equal(unknown.json.error.code, -32601);
    for (const r of [parse, badReq, unknown]) assert.doesNotMatch(r.text, /at \/|node_modules|Error:/);
  });

  test('a modern request carries its revision in _meta and the header; a mismatch is refused', async () => {
    const meta = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientInfo': { name: 'Cursor', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };
    const body = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search', arguments: { query: 'anything' }, _meta: meta } };
    const ok = await post(mcp, body, { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'search' });
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.json.result.structuredContent.request.client, 'mcp:cursor');
    const discover = await post(mcp, { jsonrpc: '2.0', id: 2, method: 'server/discover', params: { _meta: meta } }, { 'mcp-protocol-version': MODERN, 'mcp-method': 'server/discover' });
    assert.ok(discover.json.result.supportedVersions.includes(MODERN), discover.text);
    const mismatch = await post(mcp, body, { 'mcp-protocol-version': '2025-11-25', 'mcp-method': 'tools/call', 'mcp-name': 'search' });
    assert.ok(mismatch.status >= 400 || mismatch.json?.error, mismatch.text);
  });

  test('a present, foreign Origin gets 403; a loopback one is served', async () => {
    assert.equal((await post(mcp, init(1), { origin: 'https://evil.example' })).status, 403);
    assert.equal((await post(mcp, init(1), { origin: server.url })).status, 200);
  });

  test('a Host that does not name this server gets 403 (DNS rebinding)', async () => {
    const port = new URL(server.url).port;
    const status = await rawPost(mcp, { ...JSON_HEADERS, host: `rebind.example:${port}` }, JSON.stringify(init(1)));
    assert.equal(status, 403);
  });

  test('a body over server.max_body_bytes gets 413', async () => {
    const big = JSON.stringify({ ...init(1), pad: 'x'.repeat(app.config.server.max_body_bytes) });
    const r = await post(mcp, big);
    assert.equal(r.status, 413);
  });
});

describe('MCP HTTP with a static token', () => {
  let cleanup: () => Promise<void>;
  let server: RunningServer;

  before(async () => {
    let app: App;
    ({ app, cleanup } = testApp({ 'app.access_token': 'sekret-token-123' }));
    server = await startServer(app, { host: '127.0.0.1', port: 0 });
  });
  after(async () => {
    await server.close();
    await cleanup();
  });

  test('no token or a wrong one: 401 with WWW-Authenticate; Bearer or X-Access-Token: served', async () => {
    const mcp = `${server.url}/mcp`;
    const attempts: Array<Record<string, string>> = [{}, { authorization: 'Bearer wrong' }, { 'x-access-token': 'nope' }];
    for (const headers of attempts) {
      const r = await post(mcp, init(1), headers);
      assert.equal(r.status, 401);
      assert.match(r.headers.get('www-authenticate') ?? '', /^Bearer/);
      assert.doesNotMatch(r.text, /tools|search|trove/i);
    }
    assert.equal((await post(mcp, init(1), { authorization: 'Bearer sekret-token-123' })).status, 200);
    assert.equal((await post(mcp, init(1), { 'x-access-token': 'sekret-token-123' })).status, 200);
  });
});

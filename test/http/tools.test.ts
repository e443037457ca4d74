import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { App } from '../../src/app.js';
import { type RunningServer, startServer } from '../../src/http/server.js';
import { testApp } from '../helpers.js';

const ENTRY_KEYS = ['tool_id', 'route', 'version', 'input_schema', 'output_schema', 'tags', 'enabled', 'health', 'title', 'description', 'toolset', 'annotations', 'access'];

interface Reply {
  status: number;
  body: any;
}

async function get(base: string, path: string, headers: Record<string, string> = {}): Promise<Reply> {
  const res = await fetch(`${base}${path}`, { headers });
  return { status: res.status, body: await res.json() };
}

function failed(r: Reply, status: number, code: string): void {
  assert.equal(r.status, status, JSON.stringify(r.body));
  assert.equal(r.body.error.code, code);
}

/** A server on port 0 over a throw-away store with these config overrides. */
function serving(overrides: Record<string, string> = {}) {
  const state: { t?: { app: App; cleanup: () => Promise<void> }; server?: RunningServer } = {};
  before(async () => {
    state.t = testApp(overrides);
    state.server = await startServer(state.t.app, { host: '127.0.0.1', port: 0 });
  });
  after(async () => {
    await state.server?.close();
    await state.t?.cleanup();
  });
  return (path: string, headers?: Record<string, string>) => get(state.server!.url, path, headers);
}

describe('GET /api/tools', () => {
  const api = serving();

  test('lists every tool with the registry fields', async () => {
    const r = await api('/api/tools');
    assert.equal(r.status, 200);
    assert.deepEqual(Object.keys(r.body), ['tools']);
    const ids = r.body.tools.map((t: any) => t.tool_id);
    for (const id of ['search', 'get_preview', 'get_history']) assert.ok(ids.includes(id), id);
    assert.equal(new Set(ids).size, ids.length);
    for (const t of r.body.tools) {
      assert.deepEqual(Object.keys(t), ENTRY_KEYS);
      assert.equal(t.route, `mcp:tools/call ${t.tool_id}`);
      assert.equal(t.enabled, true);
      assert.deepEqual(t.health, { status: 'ok' });
      assert.equal(t.input_schema.type, 'object');
      assert.equal(t.input_schema.additionalProperties, false);
      assert.equal(t.output_schema.type, 'object');
    }
  });

  test('one tool by id equals its list entry', async () => {
    const list = await api('/api/tools');
    for (const entry of list.body.tools) {
      const r = await api(`/api/tools/${encodeURIComponent(entry.tool_id)}`);
      assert.equal(r.status, 200);
      assert.deepEqual(r.body, entry);
    }
    const search = await api('/api/tools/search');
    assert.equal(search.body.toolset, 'history');
    assert.equal(search.body.access, 'documents.read');
    assert.deepEqual(search.body.input_schema.required, ['query']);
  });

  test('unknown ids are 404 NOT_FOUND, dotted ones included', async () => {
    failed(await api('/api/tools/nope'), 404, 'NOT_FOUND');
    failed(await api('/api/tools/memory.search.x'), 404, 'NOT_FOUND');
    failed(await api('/api/tools/SEARCH'), 404, 'NOT_FOUND');
    failed(await api('/api/tools/search%2Fx'), 404, 'NOT_FOUND');
  });

  test('unknown query parameters are refused', async () => {
    failed(await api('/api/tools?toolset=history'), 400, 'INVALID_ARGUMENT');
    failed(await api('/api/tools/search?verbose=1'), 400, 'INVALID_ARGUMENT');
  });
});

describe('GET /api/tools with MCP turned off and a token', () => {
  const api = serving({ 'mcp.enabled': 'false', 'app.access_token': 'tools-token' });
  const auth = { authorization: 'Bearer tools-token' };

  test('needs the token', async () => {
    failed(await api('/api/tools'), 401, 'UNAUTHORIZED');
    failed(await api('/api/tools/search'), 401, 'UNAUTHORIZED');
  });

  test('tools are listed disabled and unavailable', async () => {
    const r = await api('/api/tools', auth);
    assert.equal(r.status, 200);
    assert.ok(r.body.tools.length > 0);
    for (const t of r.body.tools) {
      assert.equal(t.enabled, false);
      assert.equal(t.health.status, 'unavailable');
      assert.equal(typeof t.health.reason, 'string');
    }
    const one = await api('/api/tools/get_history', auth);
    assert.equal(one.status, 200);
    assert.equal(one.body.enabled, false);
  });
});

describe('GET /api/tools with a narrowed mcp.toolsets', () => {
  const api = serving({ 'mcp.toolsets': 'memory' });

  test('tools outside the enabled toolsets are disabled', async () => {
    const r = await api('/api/tools/search');
    assert.equal(r.status, 200);
    assert.equal(r.body.enabled, false);
    assert.equal(r.body.health.status, 'unavailable');
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { App } from '../../src/app.js';
import { type RunningServer, startServer } from '../../src/http/server.js';
import { addContent } from '../../src/service/documents.js';
import { createUser } from '../../src/service/users.js';
import { testApp } from '../helpers.js';
import { call, httpClient } from '../mcp/client.js';

// User A's personal documents and history are invisible to user B through every path; admins see all.

const SECRET_URL = 'https://tenancy.example/alice-diary';
const SECRET_WORD = 'axolotl';

describe('tenancy', () => {
  let app: App;
  let cleanup: () => Promise<void>;
  let server: RunningServer;
  const token: Record<string, string> = {};
  let aliceDocId = '';
  let globalId = '';

  const api = async (who: string, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token[who]}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, text, body: JSON.parse(text) as any };
  };

  before(async () => {
    ({ app, cleanup } = testApp({ 'app.user_handling': 'true' }));
    for (const [name, admin] of [['alice', false], ['bob', false], ['root', true]] as const) token[name] = (await createUser(app, { name, admin })).token;
    globalId = (await addContent(app, { url: 'https://tenancy.example/global', text: `A global page about the ${SECRET_WORD} and other amphibians.`, source: 'test' })).document.id;
    server = await startServer(app, { host: '127.0.0.1', port: 0 });
    const added = await api('alice', 'POST', '/api/documents', { url: SECRET_URL, title: 'Alice diary', text: `My ${SECRET_WORD} is called Bubbles.` });
    assert.equal(added.status, 201, added.text);
    aliceDocId = added.body.document.id;
    assert.equal((await api('alice', 'POST', '/api/history/opened', { url: SECRET_URL, query: `${SECRET_WORD} diary` })).status, 201);
  });
  after(async () => {
    await server.close();
    await cleanup();
  });

  test('search: A finds her document and the global one; B only the global one', async () => {
    const urls = async (who: string) => (await api(who, 'GET', `/api/search?q=${SECRET_WORD}`)).body.results.map((r: any) => r.url).sort();
    assert.deepEqual(await urls('alice'), [SECRET_URL, 'https://tenancy.example/global'].sort());
    assert.deepEqual(await urls('bob'), ['https://tenancy.example/global']);
    assert.deepEqual(await urls('root'), [SECRET_URL, 'https://tenancy.example/global'].sort());
    assert.equal((await api('bob', 'GET', `/api/search?q=${SECRET_WORD}`)).body.total, 1, 'totals do not count what B cannot see');
  });

  test("B cannot read, preview or delete A's document: the same NOT_FOUND as for nothing at all", async () => {
    const enc = encodeURIComponent;
    for (const [method, path] of [
      ['GET', `/api/documents/${aliceDocId}`],
      ['GET', `/api/documents/${enc(SECRET_URL)}`],
      ['GET', `/api/preview?url=${enc(SECRET_URL)}`],
      ['DELETE', `/api/documents/${aliceDocId}`],
    ] as const) {
      const r = await api('bob', method, path);
      assert.equal(r.status, 404, `${method} ${path}: ${r.text}`);
      assert.ok(!r.text.includes('Bubbles') && !r.text.includes('Alice diary'), r.text);
    }
    assert.equal((await api('alice', 'GET', `/api/documents/${aliceDocId}`)).status, 200);
    assert.equal((await api('root', 'GET', `/api/preview?url=${enc(SECRET_URL)}`)).status, 200);
  });

  test('history: B sees neither the document in the indexed view nor A\u2019s opened results', async () => {
    const indexed = async (who: string) => (await api(who, 'GET', '/api/history?mode=indexed&limit=100')).body.items.map((i: any) => i.url);
    assert.ok((await indexed('alice')).includes(SECRET_URL));
    assert.ok(!(await indexed('bob')).includes(SECRET_URL));
    const opened = async (who: string) => (await api(who, 'GET', '/api/history?mode=opened')).body.items.map((i: any) => i.query);
    assert.deepEqual(await opened('alice'), [`${SECRET_WORD} diary`]);
    assert.deepEqual(await opened('bob'), []);
    assert.deepEqual(await opened('root'), [`${SECRET_WORD} diary`]);
  });

  test('MCP: the same walls for search, get_preview and get_history', async () => {
    const bob = await httpClient(`${server.url}/mcp`, 'modern', 'bob-assistant', { authorization: `Bearer ${token.bob}` });
    try {
      const found = await call(bob, 'search', { query: SECRET_WORD });
      assert.deepEqual(found.untrusted_content.map((r: any) => r.fields.url), ['https://tenancy.example/global']);
      assert.equal((await call(bob, 'get_preview', { url: SECRET_URL })).error.code, 'NOT_FOUND');
      const opened = await call(bob, 'get_history', { mode: 'opened' });
      assert.equal(opened.trusted.item_count, 0);
      const indexed = await call(bob, 'get_history', { mode: 'indexed', limit: 100 });
      assert.ok(!JSON.stringify(indexed).includes(SECRET_URL));
    } finally {
      await bob.close();
    }
  });

  test('a user deletes only their own documents; the global ones need an admin', async () => {
    assert.equal((await api('alice', 'DELETE', `/api/documents/${globalId}`)).status, 403);
    assert.equal((await api('bob', 'DELETE', `/api/documents/${globalId}`)).status, 403);
    assert.equal((await api('alice', 'GET', `/api/documents/${globalId}`)).status, 200, 'still there');
  });

  test('the same url added by B is B\u2019s own copy, not A\u2019s document', async () => {
    const r = await api('bob', 'POST', '/api/documents', { url: SECRET_URL, title: 'Bob copy', text: 'nothing about amphibians' });
    assert.equal(r.status, 201, r.text);
    assert.notEqual(r.body.document.id, aliceDocId);
    assert.match((await api('alice', 'GET', `/api/documents/${encodeURIComponent(SECRET_URL)}`)).text, /Bubbles/);
    assert.doesNotMatch((await api('bob', 'GET', `/api/documents/${encodeURIComponent(SECRET_URL)}`)).text, /Bubbles/);
  });
});

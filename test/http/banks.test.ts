import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { App } from '../../src/app.js';
import { type RunningServer, startServer } from '../../src/http/server.js';
import { createUser } from '../../src/service/users.js';
import { testApp } from '../helpers.js';

// The bank routes: the same retain, recall, reflect and bank functions as the tools, per user.

describe('HTTP API: banks and memories', () => {
  let app: App;
  let cleanup: () => Promise<void>;
  let server: RunningServer;
  const tokens: Record<string, string> = {};

  before(async () => {
    ({ app, cleanup } = testApp({ 'app.user_handling': 'true' }));
    tokens.a = (await createUser(app, { name: 'ann', admin: false })).token;
    tokens.b = (await createUser(app, { name: 'ben', admin: false })).token;
    server = await startServer(app, { host: '127.0.0.1', port: 0 });
  });
  after(async () => {
    await server.close();
    await cleanup();
  });

  async function api(who: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
    const headers: Record<string, string> = { authorization: `Bearer ${tokens[who]}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${server.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, body: await res.json() };
  }

  test('retain (201, then 200 merged), recall, reflect, list and delete', async () => {
    const first = await api('a', 'POST', '/api/banks/work/memories', { content: 'Ann prefers Rust for command-line tools', context: 'tools' });
    assert.equal(first.status, 201);
    assert.deepEqual(Object.keys(first.body).sort(), ['id', 'merged', 'retained_count']);
    const again = await api('a', 'POST', '/api/banks/work/memories', { content: 'Ann  prefers Rust for command-line tools ' });
    assert.equal(again.status, 200);
    assert.deepEqual(again.body, { id: first.body.id, merged: true, retained_count: 2 });
    await api('a', 'POST', '/api/banks/home/memories', { content: 'Ann waters the ferns on Saturdays' });

    const recalled = await api('a', 'GET', `/api/banks/work/recall?q=${encodeURIComponent('Which language does Ann prefer for CLI tools?')}`);
    assert.equal(recalled.status, 200);
    assert.equal(recalled.body.results[0].id, first.body.id);
    assert.equal(recalled.body.results[0].context, 'tools');
    assert.equal(recalled.body.mode, 'keyword');
    assert.equal((await api('a', 'GET', '/api/banks/work/recall?q=ferns')).body.results.length, 0, 'banks are apart');
    assert.equal((await api('a', 'GET', '/api/banks/nowhere/recall?q=ferns')).status, 200);

    const reflected = await api('a', 'GET', '/api/banks/work/reflect?q=rust&budget=mid');
    assert.equal(reflected.status, 200);
    assert.equal(reflected.body.mode, 'evidence');
    assert.match(reflected.body.statement, /No language model is configured/);
    assert.deepEqual(reflected.body.themes, [{ theme: 'tools', memory_ids: [first.body.id] }]);

    const listed = await api('a', 'GET', '/api/banks');
    assert.deepEqual(listed.body.banks.map((b: any) => [b.name, b.memories]), [['home', 1], ['work', 1]]);
    assert.match(listed.body.banks[0].last_activity, /^\d{4}-\d\d-\d\dT/);
    assert.deepEqual((await api('b', 'GET', '/api/banks')).body, { banks: [] });
    assert.equal((await api('b', 'GET', '/api/banks/work/recall?q=rust')).body.results.length, 0, "another user's bank of that name is another bank");
    assert.equal((await api('b', 'DELETE', '/api/banks/work')).status, 404);

    assert.deepEqual((await api('a', 'DELETE', '/api/banks/work')).body, { bank: 'work', deleted: true, memories: 1 });
    assert.equal((await api('a', 'DELETE', '/api/banks/work')).status, 404);
    assert.deepEqual((await api('a', 'GET', '/api/banks')).body.banks.map((b: any) => b.name), ['home']);
  });

  test('memories never show in GET /api/search', async () => {
    await api('a', 'POST', '/api/banks/home/memories', { content: 'Ann collects vintage typewriters' });
    assert.deepEqual((await api('a', 'GET', '/api/search?q=typewriters')).body.results, []);
  });

  test('a memory is not readable or deletable by id or url from outside its bank, even by its owner', async () => {
    const kept = await api('a', 'POST', '/api/banks/home/memories', { content: 'Ann keeps the spare key under the blue pot' });
    const url = `memory:home/${kept.body.id}`;
    for (const idOrUrl of [kept.body.id, url]) {
      assert.equal((await api('a', 'GET', `/api/documents/${encodeURIComponent(idOrUrl)}`)).body.error?.code, 'NOT_FOUND', idOrUrl);
      assert.equal((await api('a', 'DELETE', `/api/documents/${encodeURIComponent(idOrUrl)}`)).body.error?.code, 'NOT_FOUND', idOrUrl);
    }
    assert.equal((await api('a', 'GET', `/api/preview?url=${encodeURIComponent(url)}`)).body.error?.code, 'NOT_FOUND');
    const recalled = await api('a', 'GET', `/api/banks/home/recall?q=${encodeURIComponent('where is the spare key?')}`);
    assert.equal(recalled.body.results[0].id, kept.body.id, 'still there, in its bank');
  });

  test('bad input: a clear code, nothing stored', async () => {
    const cases: Array<[string, string, unknown, string]> = [
      ['POST', '/api/banks/bad%20name/memories', { content: 'x' }, 'INVALID_ARGUMENT'],
      ['POST', '/api/banks/work/memories', { content: '' }, 'INVALID_ARGUMENT'],
      ['POST', '/api/banks/work/memories', { content: 'x', extra: 1 }, 'INVALID_ARGUMENT'],
      ['POST', '/api/banks/work/memories', { text: 'x' }, 'INVALID_ARGUMENT'],
      ['GET', '/api/banks/work/recall', undefined, 'INVALID_ARGUMENT'],
      ['GET', '/api/banks/work/recall?q=x&max_results=0', undefined, 'INVALID_ARGUMENT'],
      ['GET', '/api/banks/work/recall?q=x&max_results=two', undefined, 'INVALID_ARGUMENT'],
      ['GET', '/api/banks/work/reflect?q=x&budget=huge', undefined, 'INVALID_ARGUMENT'],
      ['GET', '/api/banks?x=1', undefined, 'INVALID_ARGUMENT'],
      ['DELETE', '/api/banks/..', undefined, 'NOT_FOUND'],
      ['DELETE', '/api/banks/%2E%2E', undefined, 'NOT_FOUND'],
      ['DELETE', '/api/banks/a%2Fb', undefined, 'INVALID_ARGUMENT'],
    ];
    const before = (await app.store.info()).counts.memory;
    for (const [method, path, body, code] of cases) {
      const r = await api('a', method, path, body);
      assert.equal(r.body.error?.code, code, `${method} ${path} -> ${JSON.stringify(r.body)}`);
      assert.doesNotMatch(JSON.stringify(r.body), /SQLITE|at \//);
    }
    assert.equal((await app.store.info()).counts.memory, before);
  });
});

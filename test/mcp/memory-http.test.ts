import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import type { App } from '../../src/app.js';
import { type RunningServer, startServer } from '../../src/http/server.js';
import { addContent } from '../../src/service/documents.js';
import { createUser } from '../../src/service/users.js';
import { testApp } from '../helpers.js';
import { ERAS, type Era, call, httpClient } from './client.js';

// Banks over Streamable HTTP (seed 003): /mcp/{bank}/, X-Bank-Id, the default bank; a memory retained in
// bank alice is invisible from bank bob and to another user, through every tool that reads.

const STATIC = 'static-owner-token-0123456789';

describe('memory banks over HTTP', () => {
  let app: App;
  let cleanup: () => Promise<void>;
  let server: RunningServer;
  const tokens: Record<string, string> = { owner: STATIC };

  before(async () => {
    ({ app, cleanup } = testApp({ 'app.user_handling': 'true', 'app.access_token': STATIC, 'mcp.default_bank': 'home' }));
    tokens.userA = (await createUser(app, { name: 'usera', admin: false })).token;
    tokens.userB = (await createUser(app, { name: 'userb', admin: false })).token;
    await addContent(app, { url: 'https://pages.example/numbats', title: 'Numbat field guide', text: 'Numbats are small marsupials. Numbat sightings peak in spring.', source: 'test' });
    server = await startServer(app, { host: '127.0.0.1', port: 0 });
  });
  after(async () => {
    await server.close();
    await cleanup();
  });

  /** A client of `who` on a bank path (or /mcp), with extra headers. */
  async function connect(era: Era, who: string, path: string, headers: Record<string, string> = {}): Promise<Client> {
    return httpClient(`${server.url}${path}`, era, 'Claude Desktop', { authorization: `Bearer ${tokens[who]}`, ...headers });
  }

  async function withClient<T>(era: Era, who: string, path: string, fn: (c: Client) => Promise<T>, headers: Record<string, string> = {}): Promise<T> {
    const c = await connect(era, who, path, headers);
    try {
      return await fn(c);
    } finally {
      await c.close();
    }
  }

  /** What each reading tool shows of memories from this client. */
  async function memoriesSeen(c: Client, words: string, chunkId: string): Promise<Record<string, unknown>> {
    const recall = await call(c, 'recall', { query: words });
    const search = await call(c, 'memory.search', { query: words });
    const mrecall = await call(c, 'memory.recall', { query: words });
    const browse = await call(c, 'tree.browse', { source_kinds: ['memory'] });
    const read = await call(c, 'tree.read_chunk', { chunk_id: chunkId });
    const history = await call(c, 'search', { query: words, fields: ['type'] });
    for (const r of [recall, search, mrecall, browse, history]) assert.equal(r.ok, true, JSON.stringify(r));
    return {
      recall: recall.untrusted_content.map((x: any) => x.fields.text),
      search: search.untrusted_content.filter((x: any) => x.fields.source_kind === 'memory').length,
      mrecall: mrecall.untrusted_content.filter((x: any) => x.fields.source_kind === 'memory').length,
      browse: browse.trusted.result_count,
      read: read.ok ? 'ok' : read.error.code,
      history: history.untrusted_content.filter((x: any) => x.fields.type === 'memory').length,
      bank: recall.trusted.bank,
    };
  }

  for (const era of ERAS) {
    test(`${era}: retain -> recall round trip, and isolation by bank and by user`, async () => {
      // Each era its own banks, so the two runs do not see each other's memories.
      const [alice, bob] = [`alice-${era}`, `bob-${era}`];
      const fact = `The user logs numbat sightings every Sunday (${era})`;
      const retained = await withClient(era, 'owner', `/mcp/${alice}/`, (c) => call(c, 'retain', { content: fact, context: 'wildlife' }));
      assert.equal(retained.ok, true);
      assert.equal(retained.trusted.bank, alice);
      assert.equal(retained.trusted.merged, false);
      const id = retained.trusted.id as string;
      const recalled = await withClient(era, 'owner', `/mcp/${alice}/`, (c) => call(c, 'recall', { query: 'When does the user log numbat sightings?' }));
      assert.equal(recalled.untrusted_content[0].source_type, 'memory');
      assert.deepEqual(recalled.untrusted_content[0].fields, { id, text: fact, type: 'world', context: 'wildlife', event_date: null });
      assert.equal(recalled.trusted.mode, 'keyword');
      assert.match(recalled.trusted.notice, /keyword/);

      const chunkId = (await withClient(era, 'owner', `/mcp/${alice}`, (c) => call(c, 'tree.browse', { source_kinds: ['memory'], query: `sightings Sunday ${era}` }))).untrusted_content[0].fields.chunk_id;
      const visible = { recall: [fact], search: 1, mrecall: 1, browse: 1, read: 'ok', history: 1 };
      const hidden = { recall: [], search: 0, mrecall: 0, browse: 0, read: 'NOT_FOUND', history: 0 };
      const words = `numbat sightings Sunday ${era}`;
      // The owner's bank alice: by path (with and without the slash) and by X-Bank-Id.
      assert.deepEqual(await withClient(era, 'owner', `/mcp/${alice}/`, (c) => memoriesSeen(c, words, chunkId)), { ...visible, bank: alice });
      assert.deepEqual(await withClient(era, 'owner', '/mcp', (c) => memoriesSeen(c, words, chunkId), { 'x-bank-id': alice }), { ...visible, bank: alice });
      // Another bank of the same owner, by path, by header and by default; the path wins over the header.
      assert.deepEqual(await withClient(era, 'owner', `/mcp/${bob}/`, (c) => memoriesSeen(c, words, chunkId)), { ...hidden, bank: bob });
      assert.deepEqual(await withClient(era, 'owner', `/mcp/${bob}/`, (c) => memoriesSeen(c, words, chunkId), { 'x-bank-id': alice }), { ...hidden, bank: bob });
      assert.deepEqual(await withClient(era, 'owner', '/mcp', (c) => memoriesSeen(c, words, chunkId), { 'x-bank-id': bob }), { ...hidden, bank: bob });
      assert.deepEqual(await withClient(era, 'owner', '/mcp/', (c) => memoriesSeen(c, words, chunkId)), { ...hidden, bank: 'home' });
      // Other users, even on a bank of the same name.
      assert.deepEqual(await withClient(era, 'userB', `/mcp/${alice}/`, (c) => memoriesSeen(c, words, chunkId)), { ...hidden, bank: alice });
      assert.deepEqual(await withClient(era, 'userA', '/mcp', (c) => memoriesSeen(c, words, chunkId), { 'x-bank-id': alice }), { ...hidden, bank: alice });
    });

    test(`${era}: a user's bank is theirs alone`, async () => {
      const pets = `pets-${era}`;
      const fact = `Usera keeps three quokkas in the garden (${era})`;
      const r = await withClient(era, 'userA', `/mcp/${pets}/`, (c) => call(c, 'retain', { content: fact }));
      assert.equal(r.ok, true);
      const recall = (who: string) => withClient(era, who, `/mcp/${pets}/`, (c) => call(c, 'recall', { query: `quokkas garden ${era}` }));
      assert.deepEqual((await recall('userA')).untrusted_content.map((x: any) => x.fields.text), [fact]);
      assert.deepEqual((await recall('userB')).untrusted_content, []);
      assert.deepEqual((await recall('owner')).untrusted_content, [], 'the owner sees documents of every user, but no one else\u2019s memories');
      // Retaining the same text again merges.
      const again = await withClient(era, 'userA', `/mcp/${pets}`, (c) => call(c, 'retain', { content: `  ${fact} ` }));
      assert.deepEqual([again.trusted.id, again.trusted.merged], [r.trusted.id, true]);
    });
  }

  test('a malformed bank is a JSON-RPC error with HTTP 400, before MCP', async () => {
    const post = (path: string, headers: Record<string, string> = {}) =>
      fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${STATIC}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
      });
    const bad = [['/mcp/bad%20name/', {}], ['/mcp/%E0%A4%A', {}], ['/mcp/caf%C3%A9', {}], [`/mcp/${'x'.repeat(65)}`, {}], ['/mcp', { 'x-bank-id': 'no/slash' }], ['/mcp', { 'x-bank-id': '..' }], ['/mcp', { 'x-bank-id': '' }]] as const;
    for (const [path, headers] of bad) {
      const res = await post(path, headers);
      const body = (await res.json()) as any;
      assert.equal(res.status, 400, path);
      assert.equal(body.jsonrpc, '2.0');
      assert.equal(body.error.data.code, 'INVALID_ARGUMENT');
      assert.equal(body.error.data.field, 'bank');
    }
    assert.equal((await post('/mcp/a/b')).status, 404);
    assert.equal((await post('/mcp/fine.bank_1-2/')).status, 200);
    // Credentials first: a bad bank tells an unknown caller nothing.
    assert.equal((await post('/mcp/bad%20name/', { authorization: 'Bearer nope' })).status, 401);
  });
});

describe('bank routes follow the MCP switch and the base path', () => {
  test('mcp.enabled = false turns /mcp/{bank}/ off too', async () => {
    const { app, cleanup } = testApp({ 'mcp.enabled': 'false' });
    const server = await startServer(app, { host: '127.0.0.1', port: 0 });
    try {
      for (const path of ['/mcp', '/mcp/alice/', '/mcp/alice']) {
        const res = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' });
        assert.equal(res.status, 404, path);
      }
    } finally {
      await server.close();
      await cleanup();
    }
  });

  test('under server.base_url the bank routes move with /mcp', async () => {
    const { app, cleanup } = testApp({ 'server.base_url': '/trove' });
    const server = await startServer(app, { host: '127.0.0.1', port: 0 });
    try {
      const c = await httpClient(`${server.origin}/trove/mcp/alice/`, 'modern');
      try {
        assert.equal((await call(c, 'retain', { content: 'Lives behind a reverse proxy' })).trusted.bank, 'alice');
        assert.equal((await call(c, 'recall', { query: 'reverse proxy' })).trusted.result_count, 1);
      } finally {
        await c.close();
      }
      const outside = await fetch(`${server.origin}/mcp/alice/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' });
      assert.equal(outside.status, 404);
      assert.deepEqual((await app.store.listBanks(null)).map((b) => b.name), ['alice']);
    } finally {
      await server.close();
      await cleanup();
    }
  });
});

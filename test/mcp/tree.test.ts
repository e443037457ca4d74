import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import type { App } from '../../src/app.js';
import { type RunningServer, startServer } from '../../src/http/server.js';
import { addContent, addContents } from '../../src/service/documents.js';
import { createUser } from '../../src/service/users.js';
import { testApp } from '../helpers.js';
import { ERAS, call, httpClient } from './client.js';

// The tree toolset (seed 001) over HTTP: argument checks, paging, entities and sources, each scoped to
// what the caller may see.

const STATIC = 'static-owner-token-0123456789';
const T0 = Date.parse('2026-05-01T10:00:00Z');

describe('the tree toolset', () => {
  let app: App;
  let cleanup: () => Promise<void>;
  let server: RunningServer;
  const tokens: Record<string, string> = { owner: STATIC };
  const clients = new Map<string, Client>();
  const client = (who: string, bank: string) => clients.get(`${who}/${bank}`)!;

  before(async () => {
    ({ app, cleanup } = testApp({ 'app.user_handling': 'true', 'app.access_token': STATIC }));
    tokens.userA = (await createUser(app, { name: 'usera', admin: false })).token;
    tokens.userB = (await createUser(app, { name: 'userb', admin: false })).token;
    const userA = (await app.store.getUser('usera'))!.id;
    // 55 global quokka pages (for the k cap), one personal page of user A, from two sources.
    await addContents(app, Array.from({ length: 55 }, (_, i) => ({ url: `https://quokka.example/${i}`, title: `Quokka ${i}`, text: `Quokka note ${i}: quokkas live on Rottnest Island.`, source: 'extension', capturedAt: T0 + i * 1000 })));
    await addContent(app, { url: 'https://private.example/a', title: 'Private', text: 'Write to keeper@zoo.example about the quokka enclosure in Perth.', source: 'import:firefox', ownerId: userA, capturedAt: T0 + 100_000 });
    server = await startServer(app, { host: '127.0.0.1', port: 0 });
    for (const [who, bank] of [['owner', 'notes'], ['owner', 'other'], ['userA', 'notes'], ['userB', 'notes']]) {
      clients.set(`${who}/${bank}`, await httpClient(`${server.url}/mcp/${bank}/`, 'modern', 'Claude Desktop', { authorization: `Bearer ${tokens[who!]}` }));
    }
    await call(client('owner', 'notes'), 'retain', { content: 'Email ranger@parks.example to book the quokka tour', context: 'travel' });
  });
  after(async () => {
    for (const c of clients.values()) await c.close();
    await server.close();
    await cleanup();
  });

  test('bad arguments are INVALID_ARGUMENT, naming the field', async () => {
    const c = client('owner', 'notes');
    const bad: Array<[string, Record<string, unknown>, string]> = [
      ['memory.search', { query: 'quokka', k: 0 }, 'k'],
      ['memory.search', { query: 'quokka', k: 1.5 }, 'k'],
      ['memory.search', { query: 'quokka', k: '3' }, 'k'],
      ['memory.search', { query: 'quokka', limit: 3 }, 'limit'],
      ['memory.search', {}, 'query'],
      ['memory.search', { query: '   ' }, 'query'],
      ['memory.recall', { query: 'quokka', k: -2 }, 'k'],
      ['tree.browse', { offset: -1 }, 'offset'],
      ['tree.browse', { since_ms: 'yesterday' }, 'since_ms'],
      ['tree.browse', { until_ms: 1.5 }, 'until_ms'],
      ['tree.browse', { source_kinds: ['ftp'] }, 'source_kinds.0'],
      ['tree.browse', { source_kinds: 'web' }, 'source_kinds'],
      ['tree.browse', { source_ids: ['nokind'] }, 'source_ids'],
      ['tree.browse', { source_ids: ['gopher:x'] }, 'source_ids'],
      ['tree.browse', { entity_ids: ['kind:name'] }, 'entity_ids'],
      ['tree.browse', { k: 10, extra: true }, 'extra'],
      ['tree.read_chunk', { chunk_id: 'abc' }, 'chunk_id'],
      ['tree.read_chunk', { chunk_id: 5 }, 'chunk_id'],
      ['tree.read_chunk', {}, 'chunk_id'],
      ['tree.top_entities', { kind: 'planet' }, 'kind'],
      ['tree.top_entities', { k: 0 }, 'k'],
      ['tree.list_sources', { user_email_hint: 42 }, 'user_email_hint'],
      ['tree.list_sources', { email: 'x@y.z' }, 'email'],
    ];
    for (const [tool, args, field] of bad) {
      const r = await call(c, tool, args);
      assert.equal(r.isError, true, `${tool} ${JSON.stringify(args)}`);
      assert.equal(r.error.code, 'INVALID_ARGUMENT', `${tool} ${JSON.stringify(args)}`);
      assert.equal(r.error.details?.field, field, `${tool} ${JSON.stringify(args)}: ${JSON.stringify(r.error)}`);
    }
  });

  test('k: default 10, capped at 50', async () => {
    const c = client('owner', 'notes');
    for (const tool of ['memory.search', 'memory.recall']) {
      assert.equal((await call(c, tool, { query: 'quokka' })).trusted.result_count, 10, tool);
      const big = await call(c, tool, { query: 'quokka', k: 51 });
      assert.deepEqual([big.trusted.k, big.trusted.result_count], [50, 50], tool);
      assert.equal((await call(c, tool, { query: 'quokka', k: 1000 })).trusted.result_count, 50, tool);
    }
    const recall = await call(c, 'memory.recall', { query: 'quokka tour' });
    assert.deepEqual([recall.trusted.mode, recall.trusted.semantic_enabled], ['keyword', false]);
    assert.match(recall.trusted.notice, /keyword/);
    assert.equal((await call(c, 'tree.browse', { k: 75 })).trusted.result_count, 50);
  });

  test('tree.browse pages newest first and filters by kind, source, entity and time', async () => {
    const c = client('owner', 'notes');
    const first = await call(c, 'tree.browse', { source_ids: ['web:extension'], k: 20 });
    assert.equal(first.trusted.next_offset, 20);
    const times = first.untrusted_content.map((x: any) => x.fields.updated_ms);
    assert.deepEqual(times, [...times].sort((a: number, b: number) => b - a));
    assert.equal(first.untrusted_content[0].fields.url, 'https://quokka.example/54');
    let seen = first.untrusted_content.length;
    for (let offset = 20; offset !== null; ) {
      const page = await call(c, 'tree.browse', { source_ids: ['web:extension'], k: 20, offset });
      seen += page.trusted.result_count;
      offset = page.trusted.next_offset;
    }
    assert.equal(seen, 55);
    const window = await call(c, 'tree.browse', { source_kinds: ['web'], since_ms: T0 + 3000, until_ms: T0 + 5000 });
    assert.deepEqual(window.untrusted_content.map((x: any) => x.fields.url), ['https://quokka.example/5', 'https://quokka.example/4', 'https://quokka.example/3']);
    const memories = await call(c, 'tree.browse', { source_kinds: ['memory'] });
    assert.deepEqual(memories.untrusted_content.map((x: any) => [x.fields.source_id, x.fields.source_kind]), [['memory:mcp:claude-desktop', 'memory']]);
    const ranked = await call(c, 'tree.browse', { query: 'Rottnest note 7', source_kinds: ['web'], k: 1 });
    assert.equal(ranked.untrusted_content[0].fields.url, 'https://quokka.example/7');

    const read = await call(c, 'tree.read_chunk', { chunk_id: memories.untrusted_content[0].fields.chunk_id });
    const email = read.untrusted_content[0].fields.entities.find((e: any) => e.kind === 'email');
    assert.equal(email.name, 'ranger@parks.example');
    const byEntity = await call(c, 'tree.browse', { entity_ids: [email.id] });
    assert.deepEqual(byEntity.untrusted_content.map((x: any) => x.fields.source_kind), ['memory']);
    assert.deepEqual((await call(c, 'tree.read_chunk', { chunk_id: '999999999' })).error.code, 'NOT_FOUND');
  });

  test('tree.top_entities counts only what the caller sees', async () => {
    const names = async (who: string, bank: string, kind = 'email') => (await call(client(who, bank), 'tree.top_entities', { kind })).untrusted_content.map((x: any) => x.fields.name).sort();
    assert.deepEqual(await names('owner', 'notes'), ['keeper@zoo.example', 'ranger@parks.example'], 'the owner sees every document, and the memories of its bank');
    assert.deepEqual(await names('owner', 'other'), ['keeper@zoo.example']);
    assert.deepEqual(await names('userA', 'notes'), ['keeper@zoo.example']);
    assert.deepEqual(await names('userB', 'notes'), [], "another user's page and the owner's memories stay hidden");
    const places = await call(client('userB', 'notes'), 'tree.top_entities', { k: 3 });
    assert.ok(places.trusted.result_count <= 3 && places.trusted.result_count > 0);
    const top = places.untrusted_content[0];
    assert.equal(top.source_type, 'entity');
    assert.deepEqual(Object.keys(top.fields).sort(), ['chunk_count', 'id', 'kind', 'last_seen_ms', 'mentions', 'name']);
  });

  test('tree.list_sources: distinct sources with chunk counts and last activity; user_email_hint', async () => {
    const sources = async (who: string, bank: string, hint?: string) =>
      (await call(client(who, bank), 'tree.list_sources', hint === undefined ? {} : { user_email_hint: hint })).untrusted_content.map((x: any) => [x.fields.id, x.fields.chunk_count]);
    const all = await sources('owner', 'notes');
    assert.deepEqual(all.map(([id]: [string]) => id), ['memory:mcp:claude-desktop', 'web:import:firefox', 'web:extension']);
    assert.deepEqual(all.find(([id]: [string]) => id === 'web:extension'), ['web:extension', 55]);
    assert.deepEqual(await sources('userB', 'notes'), [['web:extension', 55]]);
    assert.deepEqual(await sources('owner', 'notes', ' Keeper@Zoo.example '), [['web:import:firefox', 1]]);
    assert.deepEqual(await sources('userB', 'notes', 'keeper@zoo.example'), []);
    const last = (await call(client('userA', 'notes'), 'tree.list_sources', {})).untrusted_content[0].fields;
    assert.deepEqual([last.id, last.last_activity], ['web:import:firefox', T0 + 100_000]);
  });

  for (const era of ERAS) {
    test(`${era}: tools/list has the memory and tree toolsets for a known caller`, async () => {
      const c = await httpClient(`${server.url}/mcp`, era, 'x', { authorization: `Bearer ${STATIC}` });
      try {
        const names = (await c.listTools()).tools.map((t) => t.name);
        for (const n of ['retain', 'recall', 'reflect', 'memory.search', 'memory.recall', 'tree.read_chunk', 'tree.browse', 'tree.top_entities', 'tree.list_sources']) assert.ok(names.includes(n), n);
      } finally {
        await c.close();
      }
    });
  }
});

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import type { App } from '../../src/app.js';
import { type RunningServer, startServer } from '../../src/http/server.js';
import { addContents } from '../../src/service/documents.js';
import { testApp } from '../helpers.js';
import { type OpenAiServer, startOpenAiServer } from '../providers/openai-server.js';
import { call, httpClient } from './client.js';

// Hybrid ranking over MCP and HTTP with a local OpenAI-compatible embeddings server (deterministic
// vectors: synonyms share a concept). A paraphrase keyword search misses is found by meaning; an
// endpoint that fails at query time falls back to keywords with a notice, never an error.

const NOTES = [
  { url: 'https://health.example/walks', title: 'Morning routine', text: 'My physician recommends a brisk walk every morning before breakfast.' },
  { url: 'https://cars.example/ev', title: 'Electric automobile review', text: 'The new electric automobile has a range of four hundred kilometres.' },
  { url: 'https://bake.example/rye', title: 'Rye bread', text: 'Rye bread needs a sour starter and a long, slow proof.' },
  { url: 'https://garden.example/tomatoes', title: 'Tomatoes', text: 'Tomatoes want sun, warmth and steady watering.' },
];

describe('hybrid ranking', () => {
  let embed: OpenAiServer;
  let app: App;
  let cleanup: () => Promise<void>;
  let server: RunningServer;
  let client: Client;

  before(async () => {
    embed = await startOpenAiServer({ dimensions: 64 });
    ({ app, cleanup } = testApp({ 'semantic.enabled': 'true', 'semantic.base_url': embed.url, 'semantic.model': 'fake-embed', 'semantic.query_timeout_ms': '300' }));
    await addContents(app, NOTES.map((n) => ({ ...n, source: 'test' })));
    server = await startServer(app, { host: '127.0.0.1', port: 0 });
    client = await httpClient(`${server.url}/mcp`, 'legacy', 'hybrid-test');
    for (const content of ['Saw the physician on Tuesday about my sore knee.', 'The user prefers tea over coffee.', 'Parking at the office costs nine euros a day.']) {
      assert.equal((await call(client, 'retain', { content })).isError, false);
    }
    await app.embedder!.drain();
  });
  after(async () => {
    await client.close();
    await server.close();
    await cleanup();
    await embed.close();
  });

  test('search: a paraphrase keyword search misses is found with semantic: true, ranked by meaning', async () => {
    const keyword = await call(client, 'search', { query: 'doctor' });
    assert.equal(keyword.trusted.result_count, 0, 'no page says "doctor"');
    assert.equal(keyword.trusted.mode, 'keyword');
    const hybrid = await call(client, 'search', { query: 'doctor', semantic: true, fields: ['type'] });
    assert.equal(hybrid.isError, false);
    assert.equal(hybrid.trusted.mode, 'hybrid');
    assert.equal(hybrid.trusted.semantic_enabled, true);
    assert.equal(hybrid.trusted.notice, undefined);
    // The page and this connection's memory about a physician come first, both found by meaning only.
    const top = hybrid.untrusted_content.slice(0, 2).map((r: any) => r.fields);
    assert.deepEqual(top.map((f: any) => f.type).sort(), ['memory', 'web']);
    assert.ok(top.some((f: any) => f.url === 'https://health.example/walks'));
    assert.ok(top.every((f: any) => f.match === 'semantic'));
  });

  test('search: keyword matches keep their place and are marked as such', async () => {
    const r = await call(client, 'search', { query: 'automobile', semantic: true });
    assert.equal(r.trusted.mode, 'hybrid');
    assert.equal(r.untrusted_content[0].fields.url, 'https://cars.example/ev');
    assert.equal(r.untrusted_content[0].fields.match, 'full');
  });

  test('search: queries with operators are answered by keywords alone, with a notice', async () => {
    const r = await call(client, 'search', { query: 'bread -rye', semantic: true });
    assert.equal(r.isError, false);
    assert.equal(r.trusted.mode, 'keyword');
    assert.match(r.trusted.notice, /plain words/);
    assert.equal(r.trusted.result_count, 0, 'the exclusion holds');
  });

  test('GET /api/search?semantic=true answers in hybrid mode; without it, keywords', async () => {
    const hybrid = (await (await fetch(`${server.url}/api/search?q=doctor&semantic=true`)).json()) as any;
    assert.equal(hybrid.mode, 'hybrid');
    assert.equal(hybrid.semantic_enabled, true);
    assert.equal(hybrid.results[0].url, 'https://health.example/walks');
    assert.equal(hybrid.results[0].match, 'semantic');
    const keyword = (await (await fetch(`${server.url}/api/search?q=doctor`)).json()) as any;
    assert.equal(keyword.mode, 'keyword');
    assert.equal(keyword.results.length, 0);
    assert.ok(hybrid.results.every((r: any) => r.type !== 'memory'), 'the HTTP search names no bank: no memories');
    const bad = await fetch(`${server.url}/api/search?q=doctor&semantic=maybe`);
    assert.equal(bad.status, 400);
  });

  test('recall and memory.recall find the memory keyword ranking misses', async () => {
    const keyword = await call(client, 'memory.search', { query: 'doctor visit' });
    assert.ok(!keyword.untrusted_content.some((r: any) => /physician/.test(r.fields.text)), 'keyword search misses it');
    const recall = await call(client, 'recall', { query: 'doctor visit' });
    assert.equal(recall.trusted.mode, 'hybrid');
    assert.equal(recall.trusted.notice, undefined);
    assert.match(recall.untrusted_content[0].fields.text, /physician/);
    const tree = await call(client, 'memory.recall', { query: 'doctor visit', k: 3 });
    assert.equal(tree.trusted.mode, 'hybrid');
    assert.ok(tree.untrusted_content.length <= 3);
    assert.match(tree.untrusted_content[0].fields.text, /physician/);
  });

  test('another bank does not see the memories by meaning either', async () => {
    const other = await httpClient(`${server.url}/mcp/other-bank/`, 'legacy', 'hybrid-test');
    try {
      const r = await call(other, 'recall', { query: 'doctor visit' });
      assert.equal(r.isError, false);
      assert.equal(r.trusted.result_count, 0);
      const t = await call(other, 'memory.recall', { query: 'doctor visit' });
      assert.ok(!t.untrusted_content.some((x: any) => x.fields.source_kind === 'memory'));
    } finally {
      await other.close();
    }
  });

  test('an endpoint that fails at query time: keyword results with a notice, never an error', async () => {
    embed.fail({ mode: 'status', status: 500 }, { endpoint: 'embeddings' });
    try {
      const s = await call(client, 'search', { query: 'automobile', semantic: true });
      assert.equal(s.isError, false);
      assert.equal(s.trusted.mode, 'keyword');
      assert.match(s.trusted.notice, /UPSTREAM_FAILED/);
      assert.equal(s.untrusted_content[0].fields.url, 'https://cars.example/ev');
      const r = await call(client, 'recall', { query: 'parking at the office' });
      assert.equal(r.isError, false);
      assert.equal(r.trusted.mode, 'keyword');
      assert.match(r.trusted.notice, /UPSTREAM_FAILED/);
      assert.match(r.untrusted_content[0].fields.text, /Parking/);
    } finally {
      embed.fail(undefined);
    }
    embed.fail({ mode: 'hang' }, { endpoint: 'embeddings' });
    try {
      const t = await call(client, 'memory.recall', { query: 'tea' });
      assert.equal(t.isError, false);
      assert.equal(t.trusted.mode, 'keyword');
      assert.match(t.trusted.notice, /UPSTREAM_TIMEOUT/);
    } finally {
      embed.fail(undefined);
      embed.resume();
    }
  });
});

describe('hybrid ranking before anything is embedded', () => {
  test('keyword results with a notice saying no passage has a vector yet', async () => {
    const embed = await startOpenAiServer({ dimensions: 16 });
    const { app, cleanup } = testApp({ 'semantic.enabled': 'true', 'semantic.base_url': embed.url, 'semantic.model': 'fresh-model' });
    try {
      await addContents(app, NOTES.map((n) => ({ ...n, source: 'test' })));
      const server = await startServer(app, { host: '127.0.0.1', port: 0 });
      try {
        const body = (await (await fetch(`${server.url}/api/search?q=automobile&semantic=true`)).json()) as any;
        assert.equal(body.mode, 'keyword');
        assert.equal(body.semantic_enabled, true);
        assert.match(body.notice, /no passages are embedded with fresh-model yet/);
        assert.equal(body.results[0].url, 'https://cars.example/ev');
      } finally {
        await server.close();
      }
    } finally {
      await cleanup();
      await embed.close();
    }
  });
});

describe('hybrid ranking without [semantic]', () => {
  test('semantic: true is keyword search with a notice; recall says keyword', async () => {
    const { app, cleanup } = testApp();
    const server = await startServer(app, { host: '127.0.0.1', port: 0 });
    const client = await httpClient(`${server.url}/mcp`, 'legacy', 'hybrid-test');
    try {
      await addContents(app, NOTES.map((n) => ({ ...n, source: 'test' })));
      const s = await call(client, 'search', { query: 'automobile', semantic: true });
      assert.equal(s.trusted.mode, 'keyword');
      assert.equal(s.trusted.semantic_enabled, false);
      assert.match(s.trusted.notice, /not configured/);
      assert.equal(s.trusted.result_count, 1);
      const body = (await (await fetch(`${server.url}/api/search?q=automobile&semantic=true`)).json()) as any;
      assert.equal(body.mode, 'keyword');
      assert.match(body.notice, /not configured/);
      const r = await call(client, 'memory.recall', { query: 'automobile' });
      assert.equal(r.trusted.mode, 'keyword');
      assert.match(r.trusted.notice, /keyword/);
    } finally {
      await client.close();
      await server.close();
      await cleanup();
    }
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import type { App } from '../../src/app.js';
import { type RunningServer, startServer } from '../../src/http/server.js';
import { testApp } from '../helpers.js';
import { type SearxngServer, startSearxngServer } from '../providers/searxng-server.js';
import { call, httpClient } from './client.js';

// searxng_search over MCP (seed 001): listed only when [searxng] enabled; results from a local server
// speaking SearXNG's JSON API arrive under untrusted_content; bad arguments and a failing SearXNG get codes.

async function serve(overrides: Record<string, string>): Promise<{ app: App; server: RunningServer; client: Client; close: () => Promise<void> }> {
  const { app, cleanup } = testApp(overrides);
  const server = await startServer(app, { host: '127.0.0.1', port: 0 });
  const client = await httpClient(`${server.url}/mcp`, 'modern', 'searx-test');
  return {
    app, server, client,
    close: async () => {
      await client.close();
      await server.close();
      await cleanup();
    },
  };
}

describe('searxng_search', () => {
  let searx: SearxngServer;
  let s: Awaited<ReturnType<typeof serve>>;

  before(async () => {
    searx = await startSearxngServer({ perPage: 10, total: 30 });
    s = await serve({ 'searxng.enabled': 'true', 'searxng.base_url': searx.url, 'searxng.max_results': '5', 'searxng.default_language': 'de', 'searxng.timeout_seconds': '1' });
  });
  after(async () => {
    await s.close();
    await searx.close();
  });

  test('is absent from tools/list and the registry when searxng is not enabled', async () => {
    const off = await serve({});
    try {
      const names = (await off.client.listTools()).tools.map((t) => t.name);
      assert.ok(names.includes('memory.search'), 'the tree toolset is there');
      assert.ok(!names.includes('searxng_search'));
      const r = await fetch(`${off.server.url}/api/tools/searxng_search`);
      assert.equal(r.status, 404);
      await assert.rejects(off.client.callTool({ name: 'searxng_search', arguments: { query: 'x' } }));
    } finally {
      await off.close();
    }
  });

  test('is listed with the tree tools when enabled, open-world and read-only', async () => {
    const tool = (await s.client.listTools()).tools.find((t) => t.name === 'searxng_search');
    assert.ok(tool);
    assert.equal(tool.annotations?.openWorldHint, true);
    assert.equal(tool.annotations?.readOnlyHint, true);
    assert.equal(tool.inputSchema.additionalProperties, false);
    const entry = (await (await fetch(`${s.server.url}/api/tools/searxng_search`)).json()) as { toolset: string; enabled: boolean };
    assert.equal(entry.toolset, 'tree');
    assert.equal(entry.enabled, true);
  });

  test('web results with the configured defaults, enveloped as untrusted web_result records', async () => {
    const before = searx.requests.length;
    const r = await call(s.client, 'searxng_search', { query: 'otter habitats' });
    assert.equal(r.isError, false);
    assert.equal(r.trusted.result_count, 5);
    assert.deepEqual(r.trusted.categories, ['web']);
    assert.equal(r.trusted.language, 'de');
    assert.equal(r.untrusted_content.length, 5);
    r.untrusted_content.forEach((rec: any, i: number) => {
      assert.equal(rec.trust, 'untrusted');
      assert.equal(rec.source_type, 'web_result');
      assert.equal(rec.fields.url, `https://general.example.org/otter-habitats/${i + 1}`);
      assert.equal(rec.fields.title, `otter habitats (general result ${i + 1})`);
      assert.match(rec.fields.content, /snippet number/);
      assert.ok(['duckduckgo', 'brave', 'wikipedia'].includes(rec.fields.engine));
      assert.equal(rec.fields.published, null);
    });
    assert.ok(!JSON.stringify(r.trusted).includes('example.org'), 'nothing from the web outside untrusted_content');
    const sent = searx.requests.slice(before);
    assert.equal(sent.length, 1, 'one page holds five results');
    assert.deepEqual(sent[0]!.params, { q: 'otter habitats', format: 'json', categories: 'general', language: 'de', pageno: '1' });
  });

  test('news and images categories, language, and max_results beyond one page', async () => {
    const before = searx.requests.length;
    const r = await call(s.client, 'searxng_search', { query: 'eclipse', categories: 'news', language: 'en-US', max_results: 25 });
    assert.equal(r.trusted.result_count, 25);
    assert.ok(r.untrusted_content.every((x: any) => x.fields.category === 'news' && typeof x.fields.published === 'string'));
    assert.equal(new Set(r.untrusted_content.map((x: any) => x.fields.url)).size, 25);
    assert.deepEqual(searx.requests.slice(before).map((q) => q.params.pageno), ['1', '2', '3']);
    assert.ok(searx.requests.slice(before).every((q) => q.params.language === 'en-US'));
    const img = await call(s.client, 'searxng_search', { query: 'eclipse', categories: ['images'], max_results: 2 });
    assert.match(img.untrusted_content[0].fields.image, /^https:\/\/images\.example\.org\//);
    const both = await call(s.client, 'searxng_search', { query: 'eclipse', categories: ['web', 'news'], max_results: 50 });
    assert.equal(searx.requests.at(-1)!.params.categories, 'general,news');
    assert.equal(both.trusted.result_count, 50);
  });

  test('fewer results than asked when SearXNG has no more', async () => {
    const r = await call(s.client, 'searxng_search', { query: 'rare', max_results: 50, categories: 'images' });
    assert.equal(r.trusted.result_count, 30);
  });

  test('out-of-range max_results, unknown categories and properties, empty queries are INVALID_ARGUMENT', async () => {
    const before = searx.requests.length;
    for (const args of [
      { query: 'x', max_results: 0 }, { query: 'x', max_results: 51 }, { query: 'x', max_results: 2.5 },
      { query: 'x', categories: 'videos' }, { query: 'x', categories: [] }, { query: 'x', language: 'en; DROP' },
      { query: '' }, { query: '   ' }, { query: 'x', page: 2 },
    ]) {
      const r = await call(s.client, 'searxng_search', args);
      assert.equal(r.isError, true, JSON.stringify(args));
      assert.equal(r.error.code, 'INVALID_ARGUMENT', JSON.stringify(args));
    }
    assert.equal(searx.requests.length, before, 'nothing reached SearXNG');
  });

  test('SearXNG failing, slow, down or without the JSON format: clear codes, retryable where retrying can help', async () => {
    const cases: Array<[() => void | Promise<void>, string, boolean]> = [
      [() => searx.fail({ mode: 'status', status: 502 }, { times: 1 }), 'UPSTREAM_FAILED', true],
      [() => searx.fail({ mode: 'hang' }, { times: 1 }), 'UPSTREAM_TIMEOUT', true],
      [() => searx.fail({ mode: 'not_json' }, { times: 1 }), 'UPSTREAM_INVALID', false],
      [() => searx.fail({ mode: 'status', status: 200, body: '{"results": 3}' }, { times: 1 }), 'UPSTREAM_INVALID', false],
      [() => searx.fail({ mode: 'reset' }, { times: 1 }), 'UPSTREAM_UNAVAILABLE', true],
    ];
    for (const [arrange, code, retryable] of cases) {
      await arrange();
      const r = await call(s.client, 'searxng_search', { query: 'fail' });
      assert.equal(r.isError, true, code);
      assert.equal(r.error.code, code);
      assert.equal(r.error.retryable, retryable);
      assert.doesNotMatch(r.error.message, /\n\s+at /);
      searx.resume();
    }
    await searx.down();
    try {
      const r = await call(s.client, 'searxng_search', { query: 'down' });
      assert.equal(r.error.code, 'UPSTREAM_UNAVAILABLE');
      assert.equal(r.error.retryable, true);
    } finally {
      await searx.up();
    }
    const noJson = await startSearxngServer({ json: false });
    const t = await serve({ 'searxng.enabled': 'true', 'searxng.base_url': noJson.url });
    try {
      const r = await call(t.client, 'searxng_search', { query: 'x' });
      assert.equal(r.error.code, 'UPSTREAM_REJECTED');
      assert.match(r.error.message, /search\.formats/);
    } finally {
      await t.close();
      await noJson.close();
    }
    assert.equal((await call(s.client, 'searxng_search', { query: 'again' })).isError, false);
  });
});

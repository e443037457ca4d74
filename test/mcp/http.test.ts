import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import type { App } from '../../src/app.js';
import { type RunningServer, startServer } from '../../src/http/server.js';
import { addContents } from '../../src/service/documents.js';
import { recordOpened } from '../../src/service/history.js';
import { testApp } from '../helpers.js';
import { DEFAULT_TOOLS, ERAS, call, httpClient } from './client.js';

const DAY = 86_400_000;
const T0 = Date.parse('2026-03-01T12:00:00Z');

function page(i: number): string {
  return `<html lang="en"><head><title>Otter note ${i}</title><meta name="author" content="Ann Author"></head><body><article><h1>Otter note ${i}</h1><p>${'Otters hold hands while sleeping so they do not drift apart. '.repeat(8)} Number ${i}.</p></article></body></html>`;
}

describe('MCP over Streamable HTTP', () => {
  let app: App;
  let cleanup: () => Promise<void>;
  let server: RunningServer;
  const clients = new Map<string, Client>();

  before(async () => {
    ({ app, cleanup } = testApp());
    const inputs = Array.from({ length: 12 }, (_, i) => ({ url: `https://otters.example/note/${i}`, html: page(i), label: i === 0 ? 'zoo' : null, source: 'test', capturedAt: T0 + i * DAY }));
    await addContents(app, inputs);
    server = await startServer(app, { host: '127.0.0.1', port: 0 });
    for (const era of ERAS) clients.set(era, await httpClient(`${server.url}/mcp`, era, 'Claude Desktop'));
  });

  after(async () => {
    for (const c of clients.values()) await c.close();
    await server.close();
    await cleanup();
  });

  for (const era of ERAS) {
    describe(`${era} client`, () => {
      const c = () => clients.get(era)!;

      test('tools/list: every toolset with schemas and annotations', async () => {
        const { tools: all } = await c().listTools();
        assert.deepEqual(all.map((t) => t.name), DEFAULT_TOOLS);
        const tools = all.slice(0, 3);
        for (const t of tools) {
          assert.equal(t.inputSchema.additionalProperties, false);
          assert.equal(t.outputSchema?.type, 'object');
          assert.equal(t.annotations?.readOnlyHint, true);
          assert.match(t.description ?? '', /untrusted/i);
        }
        assert.match(tools[0]!.description ?? '', /sort:date/);
      });

      test('search: the envelope with trusted counts and untrusted results', async () => {
        const r = await call(c(), 'search', { query: 'otters sleeping', limit: 3 });
        assert.equal(r.ok, true);
        assert.equal(r.tool, 'search');
        assert.equal(r.trusted.result_count, 3);
        assert.equal(r.trusted.reported_total, 12);
        assert.equal(r.trusted.semantic_enabled, false);
        assert.equal(r.request.query, 'otters sleeping');
        assert.equal(r.request.trust, 'caller_supplied');
        for (const rec of r.untrusted_content) {
          assert.equal(rec.trust, 'untrusted');
          assert.equal(rec.source_type, 'indexed_document');
          assert.match(rec.fields.url, /^https:\/\/otters\.example\/note\/\d+$/);
          assert.match(rec.fields.snippet, /\*\*Otters\*\*|\*\*sleeping\*\*/i);
          assert.equal(rec.fields.text, undefined);
        }
      });

      test('search: limit outside 1..50 uses the default 10', async () => {
        for (const limit of [0, -3, 51, 1000]) assert.equal((await call(c(), 'search', { query: 'otters', limit })).trusted.result_count, 10, String(limit));
        assert.equal((await call(c(), 'search', { query: 'otters', limit: 11 })).trusted.result_count, 11);
      });

      test('search: dates, extra fields and the semantic fallback', async () => {
        const r = await call(c(), 'search', { query: 'otters', date_from: '2026-03-10', date_to: '2026-03-11', semantic: true, fields: ['text', 'html', 'language', 'label', 'domain', 'score', 'type'] });
        assert.equal(r.trusted.result_count, 2);
        assert.match(r.trusted.notice, /semantic/);
        const f = r.untrusted_content[0].fields;
        assert.match(f.text, /drift apart/);
        assert.equal(f.snippet, undefined);
        assert.match(f.html, /<article>/);
        assert.match(f.html, /Otter note/);
        assert.equal(f.language, 'en');
        assert.equal(f.domain, 'otters.example');
        assert.equal(f.type, 'web');
        assert.equal(typeof f.score, 'number');
        assert.ok('label' in f);
      });

      test('bad arguments are domain errors with codes; nothing leaks', async () => {
        const cases: Array<[Record<string, unknown>, string, string?]> = [
          [{ query: 'otters', bogus: 1 }, 'INVALID_ARGUMENT', 'bogus'],
          [{ query: 'otters', limit: '5' }, 'INVALID_ARGUMENT', 'limit'],
          [{ query: 42 }, 'INVALID_ARGUMENT', 'query'],
          [{}, 'INVALID_ARGUMENT', 'query'],
          [{ query: 'otters', fields: ['secret'] }, 'INVALID_ARGUMENT', 'fields.0'],
          [{ query: '"unterminated' }, 'INVALID_QUERY'],
          [{ query: 'otters', date_from: '2026-13-45' }, 'INVALID_ARGUMENT', 'date_from'],
        ];
        for (const [args, code, field] of cases) {
          const r = await call(c(), 'search', args);
          assert.equal(r.isError, true, JSON.stringify(args));
          assert.equal(r.ok, false);
          assert.equal(r.error.code, code, JSON.stringify(args));
          assert.equal(r.error.retryable, false);
          if (field) assert.equal(r.error.details.field, field, JSON.stringify(args));
          assert.doesNotMatch(JSON.stringify(r), /at \/|node_modules|SQLITE|Error:/);
        }
      });

      test('an unknown tool is a protocol error', async () => {
        await assert.rejects(c().callTool({ name: 'no_such_tool', arguments: {} }), (e: any) => e.code === -32602);
      });

      test('get_preview: complete text, sanitized HTML and metadata by exact url', async () => {
        const r = await call(c(), 'get_preview', { url: 'https://otters.example/note/3' });
        assert.equal(r.ok, true);
        const f = r.untrusted_content[0].fields;
        assert.equal(r.untrusted_content[0].source_type, 'document_preview');
        assert.equal(f.title, 'Otter note 3');
        assert.equal(f.metadata.author, 'Ann Author');
        assert.match(f.text, /Number 3\./);
        assert.match(f.html, /drift apart/);
        assert.doesNotMatch(f.html, /<script/i);
        assert.equal(r.trusted.text_length, [...f.text].length);
        assert.equal((await call(c(), 'get_preview', { url: 'https://otters.example/note/3/' })).error.code, 'NOT_FOUND');
        assert.equal((await call(c(), 'get_preview', { url: 'https://otters.example/note/3', extractor: 'nope' })).error.code, 'INVALID_ARGUMENT');
      });

      test('get_history: indexed pages newest first, paged by next_page_key', async () => {
        const seen: string[] = [];
        let key: string | undefined;
        for (let n = 0; n < 5; n++) {
          const r = await call(c(), 'get_history', { mode: 'indexed', limit: 5, ...(key ? { page_key: key } : {}) });
          seen.push(...r.untrusted_content.map((x: any) => x.fields.url));
          key = r.trusted.next_page_key;
          if (!key) break;
        }
        assert.equal(seen.length, 12);
        assert.equal(new Set(seen).size, 12);
        assert.equal(seen[0], 'https://otters.example/note/11');
        assert.equal((await call(c(), 'get_history', { limit: 500 })).trusted.item_count, 12);
        assert.equal((await call(c(), 'get_history', { page_key: '!!' })).error.code, 'INVALID_ARGUMENT');
        assert.equal((await call(c(), 'get_history', { mode: 'visited' })).error.code, 'INVALID_ARGUMENT');
      });

      test('client provenance is echoed as the request source', async () => {
        const r = await call(c(), 'search', { query: 'otters', limit: 1 });
        // A stateless legacy request carries no clientInfo (it came with initialize, on another request).
        assert.equal(r.request.client, era === 'modern' ? 'mcp:claude-desktop' : 'mcp');
      });
    });
  }

  test('get_history opened: opened results with their query, paged by next_last_id', async () => {
    for (let i = 0; i < 3; i++) await recordOpened(app, { url: `https://otters.example/note/${i}`, title: `Otter note ${i}`, query: `otters ${i}` });
    const c = clients.get('modern')!;
    const first = await call(c, 'get_history', { mode: 'opened', limit: 2 });
    assert.deepEqual(first.untrusted_content.map((x: any) => x.fields.query), ['otters 2', 'otters 1']);
    assert.equal(first.untrusted_content[0].source_type, 'opened_history');
    assert.equal(first.untrusted_content[0].fields.version_count, 1);
    const rest = await call(c, 'get_history', { mode: 'opened', limit: 2, last_id: first.trusted.next_last_id });
    assert.deepEqual(rest.untrusted_content.map((x: any) => x.fields.query), ['otters 0']);
    assert.equal(rest.trusted.next_last_id, undefined);
  });
});

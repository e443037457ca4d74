import assert from 'node:assert/strict';
import { test } from 'node:test';
import { INSTRUCTION, errorEnvelope, fitEnvelope, successEnvelope, toToolResult } from '../../src/mcp/envelope.js';
import { isTroveError } from '../../src/errors.js';

const out = (text: string) => ({ trusted: { result_count: 1 }, request: { query: 'q' }, untrusted: [{ source_type: 'indexed_document', fields: { title: 'T\u200b', text } }] });

test('success envelope: trusted parts apart, untrusted values normalized under fields', () => {
  const env = successEnvelope('search', out('a\r\nb'), 'mcp:test');
  assert.equal(env.ok, true);
  assert.equal(env.tool, 'search');
  assert.deepEqual(env.request, { trust: 'caller_supplied', client: 'mcp:test', query: 'q' });
  const [rec] = env.untrusted_content as any[];
  assert.equal(rec.trust, 'untrusted');
  assert.equal(rec.trust_scope, 'all values in fields');
  assert.deepEqual(rec.fields, { title: 'T', text: 'a\nb' });
});

test('the text block is the security notice followed by the same JSON', () => {
  const env = successEnvelope('search', out('x'), 'mcp');
  const r = toToolResult(env);
  const text = r.content[0]!.text;
  assert.ok(text.startsWith(`SECURITY NOTICE: ${INSTRUCTION}\n`));
  assert.deepEqual(JSON.parse(text.slice(text.indexOf('{'))), r.structuredContent);
  assert.equal(r.isError, undefined);
});

test('an error envelope is isError with code, message and retryable', () => {
  const r = toToolResult(errorEnvelope({ code: 'NOT_FOUND', message: 'no such url', retryable: false }));
  assert.equal(r.isError, true);
  assert.deepEqual(r.structuredContent, { ok: false, error: { code: 'NOT_FOUND', message: 'no such url', retryable: false } });
  assert.deepEqual(JSON.parse(r.content[0]!.text), r.structuredContent);
});

test('an oversized envelope shortens truncatable text and reports the cut', () => {
  const long = 'é'.repeat(100_000);
  const env = successEnvelope('get_preview', out(long), 'mcp');
  const json = fitEnvelope(env, 16_384, ['text']);
  assert.ok(Buffer.byteLength(json) <= 16_384);
  const parsed = JSON.parse(json);
  assert.deepEqual(parsed.trusted.truncated, [{ record: 0, field: 'text', original_length: 100_000 }]);
  assert.ok(parsed.untrusted_content[0].fields.text.length > 1000);
  assert.ok(long.startsWith(parsed.untrusted_content[0].fields.text));
});

test('a surrogate pair is never split by the cut', () => {
  const env = successEnvelope('get_preview', out('\u{1f600}'.repeat(50_000)), 'mcp');
  const parsed = JSON.parse(fitEnvelope(env, 8192, ['text']));
  assert.doesNotMatch(parsed.untrusted_content[0].fields.text, /\ufffd|[\ud800-\udbff]$/);
});

test('RESULT_TOO_LARGE when nothing can be shortened', () => {
  const env = successEnvelope('search', out('z'.repeat(50_000)), 'mcp');
  assert.throws(() => fitEnvelope(env, 8192, []), (e: unknown) => isTroveError(e) && e.code === 'RESULT_TOO_LARGE');
});

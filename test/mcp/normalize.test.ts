import assert from 'node:assert/strict';
import { test } from 'node:test';
import { normalizeText, normalizeUntrusted } from '../../src/mcp/normalize.js';

test('line endings become LF; tab and newline stay', () => {
  assert.equal(normalizeText('a\r\nb\rc\nd\te'), 'a\nb\nc\nd\te');
});

test('control, format and private-use characters are removed', () => {
  const hostile = 'A\u0000B\u001bC\u007fD\u0085E\u200bF\u200eG\u202eH\u2066I\ufeffJ\ue000K\u{f0000}L\u00adM';
  assert.equal(normalizeText(hostile), 'ABCDEFGHIJKLM');
});

test('lone surrogates become U+FFFD; pairs are kept', () => {
  assert.equal(normalizeText('x\ud800y\udc00z'), 'x\ufffdy\ufffdz');
  assert.equal(normalizeText('emoji \u{1f600}'), 'emoji \u{1f600}');
});

test('ordinary text, accents and scripts pass unchanged', () => {
  const s = 'Café — 東京 — שלום — عربى — ñ';
  assert.equal(normalizeText(s), s);
});

test('deep values: keys and nested strings are normalized, numbers and booleans kept', () => {
  const out = normalizeUntrusted({ 'ke\u200by': ['a\r\nb', { n: 1, ok: true, nil: null, bad: Number.NaN }], skip: undefined });
  assert.deepEqual(out, { key: ['a\nb', { n: 1, ok: true, nil: null, bad: null }] });
});

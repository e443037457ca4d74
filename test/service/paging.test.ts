import assert from 'node:assert/strict';
import { test } from 'node:test';
import { indexCodePoints, jsonBytes, jsonStringBytes, linePage, splitLines, textPage, utf16Index } from '../../src/service/paging.js';

// Code-point and line pages, measured the way JSON.stringify encodes them.

const SAMPLES = ['a', '"', '\\', '\n', '\r', '\t', '\b', '\f', '\u0000', '\u001b', '\u007f', 'é', '\u2028', '€', '\uFEFF', '\u{1F600}', '\u{10FFFF}', '\uD800', '\uDFFF'];

test('jsonBytes is the UTF-8 length of each code point inside a JSON string', () => {
  for (const ch of SAMPLES) assert.equal(jsonBytes(ch.codePointAt(0)!), Buffer.byteLength(JSON.stringify(ch)) - 2, JSON.stringify(ch));
  const mixed = SAMPLES.join('x');
  assert.equal(jsonStringBytes(mixed), Buffer.byteLength(JSON.stringify(mixed)) - 2);
});

test('code-point offsets map to UTF-16 indexes across checkpoints, lone surrogates counting as one', () => {
  const text = `${'\u{1F600}a'.repeat(5000)}\uD800z`;
  const index = indexCodePoints(text);
  assert.equal(index.length, [...text].length);
  const points = [...text];
  for (const offset of [0, 1, 4095, 4096, 4097, 9999, 10_000, 10_001, index.length]) {
    assert.equal(utf16Index(text, index, offset), points.slice(0, offset).join('').length, String(offset));
  }
  const plain = indexCodePoints('plain ascii');
  assert.deepEqual(plain.checkpoints, []);
  assert.equal(utf16Index('plain ascii', plain, 6), 6);
});

test('a text page stops at the limit or before the byte bound, never inside a character', () => {
  const text = '\u{1F600}"\n'.repeat(10);
  const index = indexCodePoints(text);
  assert.deepEqual(textPage(text, index, 1, 4, 1000), { text: '"\n\u{1F600}"', count: 4, shortened: false });
  const bounded = textPage(text, index, 0, 30, 17);
  assert.equal(bounded.shortened, true);
  assert.ok(jsonStringBytes(bounded.text) <= 17);
  assert.equal(bounded.count, [...bounded.text].length);
  assert.equal(bounded.count, 6);
});

test('lines keep their endings; a terminal ending adds no line', () => {
  assert.deepEqual(splitLines('a\r\nb\rc\nd'), ['a\r\n', 'b\r', 'c\n', 'd']);
  assert.deepEqual(splitLines('a\n'), ['a\n']);
  assert.deepEqual(splitLines('\n\n'), ['\n', '\n']);
  assert.deepEqual(splitLines('\r\r\n'), ['\r', '\r\n']);
  assert.deepEqual(splitLines(''), []);
  assert.deepEqual(linePage(['ab\n', 'cd\n', 'ef'], 1, 5, 1000), { text: 'cd\nef', count: 2, shortened: false });
  assert.deepEqual(linePage(['ab\n', 'cd\n', 'ef'], 0, 5, 8), { text: 'ab\ncd\n', count: 2, shortened: true });
});

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SNIPPET_CHARS, makeSnippet } from '../../src/engine/snippet.js';
import { stem } from '../../src/engine/text/tokenize.js';

const stems = (...words: string[]): string[] => words.map(stem);
/** The snippet's text without marks and ellipses. */
const plain = (s: string): string => s.replace(/\*\*/g, '').replace(/^… /, '').replace(/ …$/, '');
const marked = (s: string): string[] => [...s.matchAll(/\*\*(.+?)\*\*/g)].map((m) => m[1]!);
const WELL_FORMED = /^(?:[^\ud800-\udfff]|[\ud800-\udbff][\udc00-\udfff])*$/;

const words = (n: number, word = 'lorem'): string => Array.from({ length: n }, (_, i) => `${word}${i}`).join(' ');

describe('makeSnippet: marks', () => {
  test('marks every matched word with **, stemmed forms included', () => {
    assert.equal(makeSnippet('Running late, she runs to the run.', stems('running')), '**Running** late, she **runs** to the **run**.');
  });

  test('marks words whose stem changes the third letter (day -> dai)', () => {
    assert.equal(makeSnippet('One day, then two days later.', stems('days')), 'One **day**, then two **days** later.');
  });

  test('marks short stems of longer words (has -> ha)', () => {
    assert.equal(makeSnippet('She has it.', stems('has')), 'She **has** it.');
  });

  test('does not mark words that only share a prefix', () => {
    assert.equal(makeSnippet('rusty rust rusts', stems('rust')), 'rusty **rust** **rusts**');
  });

  test('matches case- and diacritic-insensitively, keeping the text as written', () => {
    assert.equal(makeSnippet('Un CAFÉ au lait, un café noir.', stems('cafe')), 'Un **CAFÉ** au lait, un **café** noir.');
    assert.equal(makeSnippet('RUST and Rust', stems('rust')), '**RUST** and **Rust**');
  });

  test('marks non-Latin words', () => {
    assert.deepEqual(marked(makeSnippet('Ωμέγα notes and йогурт', ['ωμέγα', 'йогурт'])), ['Ωμέγα', 'йогурт']);
  });

  test('marks nothing without stems or without matches', () => {
    assert.equal(makeSnippet('Plain text here.', []), 'Plain text here.');
    assert.equal(makeSnippet('Plain text here.', stems('absent')), 'Plain text here.');
  });
});

describe('makeSnippet: length and ellipses', () => {
  test('collapses whitespace', () => {
    assert.equal(makeSnippet('a\n\n  rust\t\tb  ', stems('rust')), 'a **rust** b');
  });

  test('short text comes back whole, without ellipses', () => {
    const s = makeSnippet('Error handling in Rust.', stems('rust'));
    assert.equal(s, 'Error handling in **Rust**.');
  });

  test('long text without a match: the start, then a trailing ellipsis', () => {
    const text = words(200);
    const s = makeSnippet(text, []);
    assert.ok(s.startsWith('lorem0 lorem1 '));
    assert.ok(s.endsWith(' …'));
    assert.ok(plain(s).length <= SNIPPET_CHARS);
    assert.ok(text.startsWith(plain(s)));
  });

  test('a match deep in long text: ellipses on both sides, whole words, the match inside', () => {
    const text = `${words(150)} the needle is here ${words(150, 'ipsum')}`;
    const s = makeSnippet(text, stems('needle'));
    assert.ok(s.startsWith('… '));
    assert.ok(s.endsWith(' …'));
    assert.deepEqual(marked(s), ['needle']);
    const body = plain(s);
    assert.ok(body.length <= SNIPPET_CHARS, `${body.length} chars`);
    const at = text.indexOf(body);
    assert.ok(at > 0, 'the snippet is a passage of the text');
    assert.equal(text[at - 1], ' ', 'starts at a word');
    assert.equal(text[at + body.length], ' ', 'ends at a word');
  });

  test('a match near the end has no trailing ellipsis', () => {
    const s = makeSnippet(`${words(150)} the needle`, stems('needle'));
    assert.ok(s.startsWith('… '));
    assert.ok(s.endsWith('the **needle**'));
  });

  test('prefers the window holding the most distinct matched words', () => {
    const text = `alpha ${words(100)} alpha beta together ${words(100, 'ipsum')}`;
    const s = makeSnippet(text, stems('alpha', 'beta'));
    assert.deepEqual(marked(s), ['alpha', 'beta']);
  });

  test('a custom width is respected', () => {
    const s = makeSnippet(`${words(50)} needle ${words(50)}`, stems('needle'), 80);
    assert.ok(plain(s).length <= 80);
    assert.deepEqual(marked(s), ['needle']);
  });

  test('never splits a surrogate pair, wherever the window falls', () => {
    for (const lead of ['', 'x', 'xy']) {
      const text = `${lead}${'😀'.repeat(200)} rust ${'😀'.repeat(200)}`;
      const s = makeSnippet(text, stems('rust'));
      assert.match(s, WELL_FORMED);
      assert.deepEqual(marked(s), ['rust']);
    }
    assert.match(makeSnippet('😀'.repeat(300), []), WELL_FORMED);
  });
});

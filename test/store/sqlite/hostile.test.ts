import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { App } from '../../../src/app.js';
import { MAX_QUERY_LENGTH, parseQuery } from '../../../src/engine/query/parse.js';
import { TroveError } from '../../../src/errors.js';
import { MAX_QUERY_EXPANSIONS, type Vocabulary, compileQuery } from '../../../src/store/sqlite/compile.js';
import type { SqliteStore } from '../../../src/store/sqlite/store.js';
import { testApp } from '../../helpers.js';
import { ALL_URLS, NOW, URLS, loadCorpus, matches, search } from './corpus.js';

const many = (n: number, f: (i: number) => string, sep = ' '): string => Array.from({ length: n }, (_, i) => f(i)).join(sep);

const HOSTILE: Record<string, string[]> = {
  quotes: ['"', '""', '"""', '""""', '"a', 'a"', 'a"b', '"a""b"', '"a" "b', '\'', "''", "it's", '`rm -rf`', '\\"', '\\', '“smart quotes”', 'title:"', 'domain:"', '-"', '"-"'],
  'control characters': ['\u0000', 'rust\u0000', '\u0000rust\u0000', 'ru\u0001st', '\u0007\u001b[31mred\u001b[0m', '\u007f', '\u0085', '\r\n', '\t\ttitle:\trust', '\u200b', '\ufeffrust', '\u2028\u2029'],
  'fts5 syntax': [
    'NEAR', 'AND', 'OR', 'NOT', 'near', 'NEAR(a b)', 'NEAR(a b, 2)', 'NEAR/2', 'a NEAR b', 'a AND b', 'a OR b', 'NOT a', 'a NOT b', 'a:b', 'text:a:b', '{title}:x', '{title text}: x',
    '^x', '^', '"a" + "b"', 'a + b', '+', 'a*b', 'text:NEAR', 'title:AND', 'url:OR', 'title:NOT', '-NEAR', 'NEAR*', '*NEAR*', '(NEAR|AND|OR)', 'title:(NOT|NEAR)', 'col:*', 'rank:x', 'rowid:1', 'chunk_fts:x', '*:x',
  ],
  'query-language edge cases': [
    '(', ')', '|', '((', '))', '(a|(b))', 'a|b', 'a||b', '(a||b)', '*a*b*', '**', '-', '--', '- -', '-(', '-)', 'title:title:title', 'sort:', 'sort:sort:date', 'sort:-', 'added:', 'added:<', 'added:<<7d',
    'added:>7d7d', 'added:-', 'added:>-7d', 'added:9999999d', 'added:>999999w', 'updated:0000-01-01', 'updated:9999-12-31', 'metadata.:x', 'metadata..a:x', 'metadata.a:', 'type:', ':', '::', ':x', 'x:', 'title:(a|b', '(a|b)*', 'domain:*', 'label:**',
  ],
  'sql injection': [
    "'; DROP TABLE documents; --", '") OR 1=1 --', "label:'; DROP TABLE documents; --", "label:x' OR '1'='1", "metadata.author:' OR '1'='1", "metadata.a'b:x", 'metadata.x"y:1', 'title:") OR 1=1 --',
    '1; SELECT * FROM documents', 'domain:%', 'domain:_', 'label:%', 'label:_%', 'language:%', 'domain:\\', 'label:\\%', "domain:*'*", 'metadata.author:%', '\'; ATTACH DATABASE \'/tmp/x\' AS x; --', 'UNION SELECT', 'language:en\'--',
  ],
  'long terms': ['a'.repeat(MAX_QUERY_LENGTH), 'a'.repeat(MAX_QUERY_LENGTH + 1), `${'x'.repeat(4000)}*`, `*${'x'.repeat(4000)}*`, `title:${'y'.repeat(4000)}`, `label:${'z'.repeat(4000)}`, `"${'ab '.repeat(1300)}"`, '*'.repeat(MAX_QUERY_LENGTH)],
  unicode: [
    '😀', '😀*', '*😀*', 'title:😀', 'label:😀', '👨‍👩‍👧‍👦 family', 'שלום', 'مرحبا بالعالم', '\u202erust', '\u202e\u202d\u202c', 'e\u0301', '\u0301\u0301\u0301', 'cafe\u0301', 'Z̤͔ͧ̑̓ä͖̭̈̇lͮ̒ͫǫ̗̻̊',
    '\ud800', 'a\udc00b', '\udfff*', '*\ud83d', 'label:\ud800', 'domain:\udc00', '"\ud800"', '\uffff', '\ufffd', '𝔘𝔫𝔦𝔠𝔬𝔡𝔢', '\u0130stanbul', 'ß*', 'ǅ',
  ],
  'many clauses and wildcards': [
    many(128, () => 'a*'),
    many(128, () => '*e*'),
    many(128, (i) => `*${String.fromCharCode(97 + (i % 26))}*`),
    many(129, (i) => `w${i}`),
    many(10_000, (i) => `w${i}`),
    `(${many(64, (i) => `${String.fromCharCode(97 + (i % 26))}*`, '|')})`,
    `(${many(65, (i) => `o${i}`, '|')})`,
    many(30, () => `(${many(64, (i) => `*${String.fromCharCode(97 + (i % 26))}*`, '|')})`).slice(0, MAX_QUERY_LENGTH),
    many(128, (i) => `-w${i}`),
    many(128, (i) => `title:(a|b|c${i}*)`).slice(0, MAX_QUERY_LENGTH),
  ],
};

describe('hostile queries', () => {
  let app: App;
  let cleanup: () => Promise<void>;
  let documents: number;

  before(async () => {
    ({ app, cleanup } = testApp());
    await loadCorpus(app);
    documents = (await search(app, '*')).total;
    assert.equal(documents, ALL_URLS.length);
  });
  after(() => cleanup());

  for (const [group, queries] of Object.entries(HOSTILE)) {
    test(`${group}: succeed or fail with INVALID_QUERY at a position inside the query`, async () => {
      for (const q of queries) {
        const label = JSON.stringify(q.length > 60 ? `${q.slice(0, 60)}…(${q.length})` : q);
        try {
          const res = await search(app, q);
          assert.ok(Array.isArray(res.results), label);
          assert.ok(res.total >= 0 && res.total <= documents, label);
        } catch (err) {
          assert.ok(err instanceof TroveError, `${label} threw ${String(err)}`);
          assert.equal(err.code, 'INVALID_QUERY', `${label} gave ${err.code}`);
          const position = err.details?.position;
          assert.ok(typeof position === 'number' && Number.isInteger(position) && position >= 0 && position <= q.length, `${label} position ${String(position)}`);
        }
      }
    });
  }

  test('too many terms is INVALID_QUERY with a position', async () => {
    const expectPosition = async (q: string, position: number) => {
      await assert.rejects(search(app, q), (err: unknown) => err instanceof TroveError && err.code === 'INVALID_QUERY' && err.details?.position === position);
    };
    // 10,000 terms do not fit in 4,096 characters: the length limit answers first.
    await expectPosition(many(10_000, (i) => `w${i}`), MAX_QUERY_LENGTH);
    const q = many(129, (i) => `w${i}`);
    await expectPosition(q, q.indexOf('w128'));
  });

  test('wildcards share one expansion budget, and a late wildcard still expands', async () => {
    assert.deepEqual(await matches(app, '(*e*|*a*|*i*|*o*|*u*|*n*) jek*'), [URLS.pages]);
    assert.deepEqual(await matches(app, '(*e*|*a*|*i*|*o*|*u*|*n*) *kyll'), [URLS.pages]);
  });

  test('FTS5 keywords are searched as words', async () => {
    assert.deepEqual(await matches(app, 'NEAR'), [URLS.meeting]);
    assert.deepEqual(await matches(app, 'near'), [URLS.meeting]);
    assert.deepEqual(await matches(app, '"NEAR"'), [URLS.meeting]);
    assert.deepEqual(await matches(app, 'text:NEAR'), [URLS.meeting]);
    assert.deepEqual(await matches(app, 'title:NEAR'), []);
    assert.deepEqual(await matches(app, 'NEAR(term roadmap)'), [URLS.meeting]);
    assert.ok((await matches(app, 'AND')).includes(URLS.meeting));
    assert.deepEqual(await matches(app, 'AND gate'), [URLS.meeting]);
    assert.deepEqual(await matches(app, 'NEAR AND'), [URLS.meeting]);
    assert.deepEqual(await matches(app, 'OR'), []);
  });

  test('injection attempts find nothing and change nothing', async () => {
    assert.deepEqual(await matches(app, "label:x' OR '1'='1"), []);
    assert.deepEqual(await matches(app, "metadata.author:' OR '1'='1"), []);
    assert.deepEqual(await matches(app, 'domain:%'), []);
    assert.deepEqual(await matches(app, 'label:_%'), []);
  });

  test('afterwards every document and table is still there', async () => {
    const all = await search(app, '*');
    assert.equal(all.total, documents);
    assert.deepEqual(await matches(app, 'jekyll'), [URLS.pages]);
    const db = (app.store as SqliteStore).database;
    assert.equal(db.prepare('SELECT count(*) FROM documents').pluck().get(), documents);
    assert.equal(db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'x' OR sql LIKE '%/tmp/x%'").pluck().get(), 0);
    assert.deepEqual(db.prepare('PRAGMA database_list').all().map((r) => (r as { name: string }).name), ['main']);
  });
});

describe('wildcard expansion budget', () => {
  test('all wildcards of one query together expand to a bounded number of words', () => {
    const limits: number[] = [];
    const vocab: Vocabulary = {
      withPrefix: (prefix, limit) => (limits.push(limit), Array.from({ length: limit }, (_, i) => `${prefix}x${i}`)),
      like: (_pattern, limit) => (limits.push(limit), Array.from({ length: limit }, (_, i) => `w${i}`)),
    };
    const groups = 15;
    const query = parseQuery(many(groups, () => `(${many(64, (i) => `*${(i % 36).toString(36)}*`, '|')})`), NOW);
    const compiled = compileQuery(query, vocab);
    const atoms = groups * 64;
    const phrases = compiled.fts!.match(/"[^"]*"/g)!.length;
    assert.equal(limits.length, atoms);
    assert.ok(limits.every((n) => n >= 1), 'every wildcard gets at least one word');
    assert.ok(phrases <= MAX_QUERY_EXPANSIONS + atoms, `${phrases} phrases`);
  });
});

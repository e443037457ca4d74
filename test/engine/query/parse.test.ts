import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Clause, DateClause, KeywordClause, MatchClause, Query } from '../../../src/engine/query/ast.js';
import { MAX_CLAUSES, MAX_QUERY_LENGTH, parseQuery } from '../../../src/engine/query/parse.js';
import { TroveError } from '../../../src/errors.js';

const NOW = Date.UTC(2026, 5, 15, 12);
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

const parse = (q: string): Query => parseQuery(q, NOW);
const only = (q: string): Clause => {
  const { clauses } = parse(q);
  assert.equal(clauses.length, 1, `one clause in ${JSON.stringify(q)}`);
  return clauses[0]!;
};
const term = (text: string, wildcard: 'none' | 'prefix' | 'suffix' | 'infix' = 'none') => ({ type: 'term', text, wildcard });
const phrase = (text: string) => ({ type: 'phrase', text });

describe('parseQuery: terms and phrases', () => {
  test('a bare term is an unfielded match clause with its offsets', () => {
    const q = parse('rust');
    assert.deepEqual(q, {
      clauses: [{ kind: 'match', field: null, options: [term('rust')], negated: false, start: 0, end: 4 }],
      sort: { key: 'relevance', reverse: false },
      matchAll: false,
    });
  });

  test('several bare terms become separate clauses (AND), with exact offsets', () => {
    const { clauses } = parse('  error   handling ');
    assert.deepEqual(
      clauses.map((c) => [(c as MatchClause).options, c.start, c.end]),
      [
        [[term('error')], 2, 7],
        [[term('handling')], 10, 18],
      ],
    );
  });

  test('a quoted phrase keeps its inner text as typed', () => {
    assert.deepEqual(only('"Error  Handling"'), { kind: 'match', field: null, options: [phrase('Error  Handling')], negated: false, start: 0, end: 17 });
  });

  test('text:"a b" and title:"a b" are fielded phrases', () => {
    assert.deepEqual(only('text:"a b"'), { kind: 'match', field: 'text', options: [phrase('a b')], negated: false, start: 0, end: 10 });
    assert.deepEqual(only('title:"a b"'), { kind: 'match', field: 'title', options: [phrase('a b')], negated: false, start: 0, end: 11 });
  });

  test('control characters (NUL included) separate terms like spaces and keep offsets', () => {
    const { clauses } = parse('rust\u0000cargo\u001fcrate');
    assert.deepEqual(
      clauses.map((c) => [(c as MatchClause).options[0], c.start]),
      [
        [term('rust'), 0],
        [term('cargo'), 5],
        [term('crate'), 11],
      ],
    );
  });

  test('an unknown field name is plain text, not a field', () => {
    assert.deepEqual(only('foo:bar'), { kind: 'match', field: null, options: [term('foo:bar')], negated: false, start: 0, end: 7 });
  });
});

describe('parseQuery: fields', () => {
  test('title:, text:, url: are full-text fields', () => {
    for (const field of ['title', 'text', 'url'] as const) {
      assert.deepEqual(only(`${field}:rust`), { kind: 'match', field, options: [term('rust')], negated: false, start: 0, end: field.length + 5 });
    }
  });

  test('domain:, label:, language:, type: are keyword fields; values are kept as typed', () => {
    assert.deepEqual(only('domain:GitHub.com'), { kind: 'keyword', field: 'domain', options: [term('GitHub.com')], negated: false, start: 0, end: 17 });
    assert.deepEqual(only('label:Work'), { kind: 'keyword', field: 'label', options: [term('Work')], negated: false, start: 0, end: 10 });
    assert.deepEqual(only('language:en'), { kind: 'keyword', field: 'language', options: [term('en')], negated: false, start: 0, end: 11 });
    assert.deepEqual(only('type:local'), { kind: 'keyword', field: 'type', options: [term('local')], negated: false, start: 0, end: 10 });
  });

  test('type accepts web, local and memory in any case', () => {
    for (const t of ['web', 'local', 'memory', 'WEB', 'Memory']) assert.equal((only(`type:${t}`) as KeywordClause).field, 'type');
  });

  test('metadata.KEY: keeps the key (nested keys too)', () => {
    assert.deepEqual(only('metadata.author:Alice'), { kind: 'keyword', field: 'metadata', key: 'author', options: [term('Alice')], negated: false, start: 0, end: 21 });
    assert.equal((only('metadata.og.site_name:x') as KeywordClause).key, 'og.site_name');
  });

  test('field names are case-insensitive', () => {
    assert.equal((only('TITLE:Rust') as MatchClause).field, 'title');
    assert.deepEqual((only('TITLE:Rust') as MatchClause).options, [term('Rust')]);
    assert.equal((only('Domain:x.org') as KeywordClause).field, 'domain');
    assert.equal((only('METADATA.author:x') as KeywordClause).key, 'author');
  });
});

describe('parseQuery: dates', () => {
  const date = (q: string) => only(q) as DateClause;

  test('relative ages name now minus the age', () => {
    assert.deepEqual(date('added:>7d'), { kind: 'date', field: 'added', op: '>', from: NOW - 7 * DAY, negated: false, start: 0, end: 9 });
    assert.equal(date('added:<12h').from, NOW - 12 * HOUR);
    assert.equal(date('updated:>=2w').from, NOW - 14 * DAY);
    assert.equal(date('updated:<=30m').from, NOW - 30 * MIN);
    assert.equal(date('added:>7D').from, NOW - 7 * DAY);
  });

  test('a bare age means "within": added:7d is >= now-7d', () => {
    const c = date('added:7d');
    assert.equal(c.op, '>=');
    assert.equal(c.from, NOW - 7 * DAY);
    assert.equal(c.to, undefined);
  });

  test('a bare date is that UTC day, [midnight, next midnight)', () => {
    assert.deepEqual(date('updated:2026-06-01'), { kind: 'date', field: 'updated', op: '=', from: Date.UTC(2026, 5, 1), to: Date.UTC(2026, 5, 2), negated: false, start: 0, end: 18 });
  });

  test('a compared date is midnight UTC', () => {
    for (const op of ['<', '<=', '>', '>='] as const) {
      const c = date(`added:${op}2024-02-29`);
      assert.equal(c.op, op);
      assert.equal(c.from, Date.UTC(2024, 1, 29));
      assert.equal(c.to, undefined);
    }
  });
});

describe('parseQuery: negation', () => {
  test('-term, -"phrase", -field:value and field:-value are negated clauses', () => {
    assert.deepEqual(only('-rust'), { kind: 'match', field: null, options: [term('rust')], negated: true, start: 0, end: 5 });
    assert.deepEqual(only('-"a b"'), { kind: 'match', field: null, options: [phrase('a b')], negated: true, start: 0, end: 6 });
    assert.deepEqual(only('-title:rust'), { kind: 'match', field: 'title', options: [term('rust')], negated: true, start: 0, end: 11 });
    assert.deepEqual(only('title:-rust'), { kind: 'match', field: 'title', options: [term('rust')], negated: true, start: 0, end: 11 });
    assert.deepEqual(only('label:-work'), { kind: 'keyword', field: 'label', options: [term('work')], negated: true, start: 0, end: 11 });
    assert.equal((only('-added:7d') as DateClause).negated, true);
    assert.equal((only('added:-7d') as DateClause).negated, true);
    assert.equal(only('-(a|b)').negated, true);
  });

  test('a hyphen inside a word is not negation', () => {
    assert.deepEqual(only('rust-lang'), { kind: 'match', field: null, options: [term('rust-lang')], negated: false, start: 0, end: 9 });
  });
});

describe('parseQuery: wildcards', () => {
  test('term* is prefix, *term* infix, *term suffix', () => {
    assert.deepEqual((only('asyn*') as MatchClause).options, [term('asyn', 'prefix')]);
    assert.deepEqual((only('*sync*') as MatchClause).options, [term('sync', 'infix')]);
    assert.deepEqual((only('*sync') as MatchClause).options, [term('sync', 'suffix')]);
    assert.deepEqual((only('title:asyn*') as MatchClause).options, [term('asyn', 'prefix')]);
    assert.deepEqual((only('domain:*.io') as KeywordClause).options, [term('.io', 'suffix')]);
  });

  test('a lone * (or several) matches everything and adds no clause', () => {
    assert.deepEqual(parse('*'), { clauses: [], sort: { key: 'relevance', reverse: false }, matchAll: true });
    assert.equal(parse('***').matchAll, true);
    const q = parse('rust *');
    assert.equal(q.matchAll, true);
    assert.equal(q.clauses.length, 1);
  });
});

describe('parseQuery: alternation', () => {
  test('(a|b|"c d") is one clause with three options; spaces around bars are fine', () => {
    const expected = [term('a'), term('b'), phrase('c d')];
    assert.deepEqual(only('(a|b|"c d")'), { kind: 'match', field: null, options: expected, negated: false, start: 0, end: 11 });
    assert.deepEqual((only('( a | b | "c d" )') as MatchClause).options, expected);
  });

  test('field:(a|b) alternates within the field; wildcards work inside', () => {
    assert.deepEqual(only('title:(rust|jek*)'), { kind: 'match', field: 'title', options: [term('rust'), term('jek', 'prefix')], negated: false, start: 0, end: 17 });
    assert.deepEqual((only('domain:(github.com|example.org)') as KeywordClause).options, [term('github.com'), term('example.org')]);
    assert.deepEqual((only('type:(web|local)') as KeywordClause).options, [term('web'), term('local')]);
  });
});

describe('parseQuery: sort', () => {
  test('sort:relevance|date|domain, case-insensitive, adds no clause', () => {
    assert.deepEqual(parse('rust sort:date').sort, { key: 'date', reverse: false });
    assert.deepEqual(parse('rust sort:DOMAIN').sort, { key: 'domain', reverse: false });
    assert.deepEqual(parse('SORT:relevance rust').sort, { key: 'relevance', reverse: false });
    assert.equal(parse('rust sort:date').clauses.length, 1);
  });

  test('sort directives alone match everything in that order', () => {
    const q = parse('sort:-date');
    assert.equal(q.matchAll, true);
    assert.deepEqual(q.clauses, []);
    assert.deepEqual(q.sort, { key: 'date', reverse: true });
    assert.equal(parse('rust sort:date').matchAll, false);
  });

  test('a leading - reverses: sort:-date is oldest first', () => {
    assert.deepEqual(parse('rust sort:-date').sort, { key: 'date', reverse: true });
    assert.deepEqual(parse('rust sort:-domain').sort, { key: 'domain', reverse: true });
    assert.deepEqual(parse('rust sort:-relevance').sort, { key: 'relevance', reverse: true });
  });

  test('the last sort wins', () => {
    assert.deepEqual(parse('sort:-date rust sort:domain').sort, { key: 'domain', reverse: false });
    assert.deepEqual(parse('sort:date rust sort:relevance').sort, { key: 'relevance', reverse: false });
  });

  test('quoted "sort:date" is plain text', () => {
    const q = parse('"sort:date"');
    assert.deepEqual(q.sort, { key: 'relevance', reverse: false });
    assert.deepEqual(q.clauses, [{ kind: 'match', field: null, options: [phrase('sort:date')], negated: false, start: 0, end: 11 }]);
  });
});

describe('parseQuery: malformed queries', () => {
  const long = 'a'.repeat(MAX_QUERY_LENGTH + 1);
  const tooMany = Array.from({ length: MAX_CLAUSES + 1 }, (_, i) => `w${i}`).join(' ');
  const tooManyAt = tooMany.lastIndexOf(' ') + 1;
  const options = `(${Array.from({ length: 65 }, (_, i) => `o${i}`).join('|')})`;
  const cases: Array<[string, string, number]> = [
    ['empty query', '', 0],
    ['blank query', '   \t ', 0],
    ['unterminated quote', '"error handling', 0],
    ['unterminated quote after a term', 'rust "error', 5],
    ['unterminated quote in a field', 'title:"error', 6],
    ['empty phrase', 'rust ""', 5],
    ['blank phrase', '" "', 0],
    ['unclosed (', '(a|b', 0],
    ['unclosed ( after a term', 'rust (a|b', 5],
    ['unclosed ( in a field', 'title:(a|b', 6],
    ['unclosed ( ending in a bar', '(a|', 0],
    ['empty group', '()', 1],
    ['empty alternative', '(a|)', 3],
    ['leading bar', '(|a)', 1],
    ['nested groups', '((a))', 1],
    ['nested group after an option', '(a|(b))', 3],
    ['missing bar', '(a b)', 3],
    ['stray )', 'rust )', 5],
    ['stray |', '|', 0],
    ['missing value after title:', 'title:', 6],
    ['missing value after title: before a space', 'title: rust', 6],
    ['missing value after a negated field', 'rust title:-', 12],
    ['missing value after domain:', 'domain:', 7],
    ['missing date', 'added:', 6],
    ['bad date', 'added:2026-13-01', 6],
    ['impossible day', 'updated:2026-02-30', 8],
    ['bad age unit', 'added:>7y', 6],
    ['operator without a value', 'updated:>=', 8],
    ['words as a date', 'added:yesterday', 6],
    ['bad sort key', 'rust sort:name', 10],
    ['empty sort key', 'rust sort:', 10],
    ['reversed bad sort key', 'rust sort:-name', 10],
    ['negated sort', 'rust -sort:date', 5],
    ['bad type', 'type:pdf', 5],
    ['bad type among options', 'type:(web|pdf)', 5],
    ['type wildcard', 'type:we*', 5],
    ['* in the middle of a term', 'ru*st', 2],
    ['* in the middle of an infix term', '*ru*st*', 3],
    ['double trailing *', 'rust**', 4],
    ['* in the middle of a field value', 'title:ru*st', 8],
    ['field value only *', 'title:*', 6],
    ['lone - at the start', '- rust', 0],
    ['lone - at the end', 'rust -', 5],
    ['negated everything', '-*', 0],
    ['double negation', '-title:-rust', 7],
    ['query too long', long, MAX_QUERY_LENGTH],
    ['too many clauses', tooMany, tooManyAt],
    ['too many alternatives', options, options.indexOf('o64') + 3],
  ];

  for (const [name, input, position] of cases) {
    test(`${name}: INVALID_QUERY at ${position}`, () => {
      assert.throws(
        () => parse(input),
        (err: unknown) => {
          assert.ok(err instanceof TroveError, `TroveError for ${JSON.stringify(input.slice(0, 40))}`);
          assert.equal(err.code, 'INVALID_QUERY');
          assert.deepEqual(err.details, { position });
          return true;
        },
      );
    });
  }

  test('limits are inclusive: exactly 4096 characters and exactly 128 clauses parse', () => {
    assert.equal(parse('a'.repeat(MAX_QUERY_LENGTH)).clauses.length, 1);
    const max = Array.from({ length: MAX_CLAUSES }, (_, i) => `w${i}`).join(' ');
    assert.equal(parse(max).clauses.length, MAX_CLAUSES);
  });
});

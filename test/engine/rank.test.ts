import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Sort } from '../../src/engine/query/ast.js';
import { namesDomain, rerank } from '../../src/engine/rank.js';
import type { Candidate } from '../../src/store/types.js';

const OPTS = { phraseBoost: 1.5, domainBoost: 2 };
const RELEVANCE: Sort = { key: 'relevance', reverse: false };

interface Spec {
  score: number;
  match?: 'full' | 'partial';
  text?: string;
  domain?: string;
  updatedAt?: number;
}

function candidate(id: string, spec: Spec): Candidate {
  return {
    document: {
      id,
      ownerId: null,
      kind: 'web',
      url: `https://${spec.domain ?? 'example.org'}/${id}`,
      title: id,
      domain: spec.domain ?? 'example.org',
      language: 'en',
      label: null,
      source: 'test',
      metadata: {},
      addedAt: spec.updatedAt ?? 1000,
      updatedAt: spec.updatedAt ?? 1000,
      versionCount: 1,
    },
    score: spec.score,
    match: spec.match ?? 'full',
    chunkText: spec.text ?? '',
  };
}

const ids = (ranked: ReadonlyArray<{ document: { id: string } }>): string[] => ranked.map((c) => c.document.id);
const scores = (ranked: ReadonlyArray<{ document: { id: string }; finalScore: number }>): Record<string, number> =>
  Object.fromEntries(ranked.map((c) => [c.document.id, c.finalScore]));

describe('namesDomain', () => {
  test('a bare word naming the site or the whole domain', () => {
    assert.equal(namesDomain(['github'], 'github.com'), true);
    assert.equal(namesDomain(['github'], 'gist.github.com'), true);
    assert.equal(namesDomain(['rust', 'github'], 'GitHub.com'), true);
    assert.equal(namesDomain(['github', 'com'], 'github.com'), true);
    assert.equal(namesDomain(['example', 'org'], 'docs.example.org'), true);
    assert.equal(namesDomain(['bbc'], 'news.bbc.co.uk'), true);
    assert.equal(namesDomain(['localhost'], 'localhost'), true);
  });

  test('not a word that only contains the site, a subdomain, the suffix, or nothing', () => {
    assert.equal(namesDomain(['github'], 'notgithub.com'), false);
    assert.equal(namesDomain(['hub'], 'github.com'), false);
    assert.equal(namesDomain(['gist'], 'gist.github.com'), false);
    assert.equal(namesDomain(['com'], 'github.com'), false);
    assert.equal(namesDomain(['co'], 'bbc.co.uk'), false);
    assert.equal(namesDomain([], 'github.com'), false);
    assert.equal(namesDomain(['github'], ''), false);
  });
});

describe('rerank', () => {
  test('relevance: higher score first, ties broken by recency', () => {
    const ranked = rerank(
      [candidate('low', { score: 1 }), candidate('old', { score: 3, updatedAt: 1 }), candidate('new', { score: 3, updatedAt: 2 })],
      [],
      null,
      OPTS,
      RELEVANCE,
    );
    assert.deepEqual(ids(ranked), ['new', 'old', 'low']);
    assert.deepEqual(scores(ranked), { new: 3, old: 3, low: 1 });
  });

  test('the exact phrase of a multi-word query is boosted', () => {
    const ranked = rerank(
      [
        candidate('apart', { score: 2, text: 'Error codes and the handling of panics.' }),
        candidate('reversed', { score: 2, text: 'Handling error codes.' }),
        candidate('phrase', { score: 1.5, text: 'A guide to error handling in Rust.' }),
      ],
      ['error', 'handling'],
      ['error', 'handling'],
      OPTS,
      RELEVANCE,
    );
    assert.deepEqual(scores(ranked), { apart: 2, reversed: 2, phrase: 2.25 });
    assert.equal(ids(ranked)[0], 'phrase');
  });

  test('the phrase matches across case, diacritics and punctuation', () => {
    const ranked = rerank([candidate('a', { score: 1, text: 'Un CAFÉ-crème, s’il vous plaît.' })], ['cafe', 'creme'], ['cafe', 'creme'], OPTS, RELEVANCE);
    assert.equal(ranked[0]!.finalScore, 1.5);
  });

  test('no phrase boost without a phrase', () => {
    const ranked = rerank([candidate('a', { score: 1, text: 'error handling' })], ['error'], null, OPTS, RELEVANCE);
    assert.equal(ranked[0]!.finalScore, 1);
  });

  test('a bare word naming the domain is boosted, and boosts multiply', () => {
    const ranked = rerank(
      [
        candidate('other', { score: 3, domain: 'example.org', text: 'github actions' }),
        candidate('site', { score: 2, domain: 'docs.github.com', text: 'github actions' }),
        candidate('lookalike', { score: 2.5, domain: 'notgithub.com', text: 'nothing here' }),
      ],
      ['github', 'actions'],
      ['github', 'actions'],
      OPTS,
      RELEVANCE,
    );
    assert.deepEqual(ids(ranked), ['site', 'other', 'lookalike']);
    assert.deepEqual(scores(ranked), { site: 2 * 1.5 * 2, other: 3 * 1.5, lookalike: 2.5 });
  });

  test('full matches always come before partial ones, whatever their scores', () => {
    const ranked = rerank(
      [candidate('p1', { score: 50, match: 'partial', domain: 'github.com' }), candidate('f1', { score: 0.1 }), candidate('p2', { score: 10, match: 'partial' }), candidate('f2', { score: 0.2 })],
      ['github'],
      null,
      OPTS,
      RELEVANCE,
    );
    assert.deepEqual(ids(ranked), ['f2', 'f1', 'p1', 'p2']);
  });

  test('sort:-relevance reverses the order within each tier, full still first', () => {
    const ranked = rerank(
      [candidate('p', { score: 9, match: 'partial' }), candidate('hi', { score: 3 }), candidate('lo', { score: 1 })],
      [],
      null,
      OPTS,
      { key: 'relevance', reverse: true },
    );
    assert.deepEqual(ids(ranked), ['lo', 'hi', 'p']);
  });

  test('date and domain sorts keep the store order and apply no boosts', () => {
    const input = [
      candidate('a', { score: 1, domain: 'github.com', text: 'error handling', updatedAt: 1 }),
      candidate('b', { score: 5, updatedAt: 3 }),
      candidate('c', { score: 2, updatedAt: 2 }),
    ];
    for (const sort of [{ key: 'date', reverse: false }, { key: 'domain', reverse: true }] as Sort[]) {
      const ranked = rerank(input, ['github', 'error', 'handling'], ['error', 'handling'], OPTS, sort);
      assert.deepEqual(ids(ranked), ['a', 'b', 'c']);
      assert.deepEqual(scores(ranked), { a: 1, b: 5, c: 2 });
    }
  });

  test('no boosts for a score of 0 (queries without words)', () => {
    const ranked = rerank([candidate('a', { score: 0, domain: 'github.com', text: 'error handling' })], ['github'], ['error', 'handling'], OPTS, RELEVANCE);
    assert.equal(ranked[0]!.finalScore, 0);
  });

  test('does not reorder its input array', () => {
    const input = [candidate('lo', { score: 1 }), candidate('hi', { score: 2 })];
    rerank(input, [], null, OPTS, RELEVANCE);
    assert.deepEqual(ids(input), ['lo', 'hi']);
  });
});

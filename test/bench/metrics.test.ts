import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ndcgAt, quantile, recallAt } from '../../bench/metrics.js';

const judged = (pairs: Array<[string, number]>) => new Map(pairs);

describe('ndcgAt', () => {
  test('1 for the ideal order, 0 when nothing relevant is ranked or judged', () => {
    assert.equal(ndcgAt(10, ['a', 'b', 'x'], judged([['a', 2], ['b', 1]])), 1);
    assert.equal(ndcgAt(10, ['x', 'y'], judged([['a', 1]])), 0);
    assert.equal(ndcgAt(10, ['a'], judged([])), 0);
  });

  test('discounts by log2 of the rank and grades by gain', () => {
    // one relevant document at rank 2: (1/log2 3) / 1
    assert.ok(Math.abs(ndcgAt(10, ['x', 'a'], judged([['a', 1]])) - 1 / Math.log2(3)) < 1e-12);
    // gains 1 then 2 against the ideal 2 then 1
    const got = 1 + 2 / Math.log2(3);
    const ideal = 2 + 1 / Math.log2(3);
    assert.ok(Math.abs(ndcgAt(10, ['b', 'a'], judged([['a', 2], ['b', 1]])) - got / ideal) < 1e-12);
  });

  test('only the first k distinct results count; a repeated id counts once', () => {
    assert.equal(ndcgAt(2, ['x', 'y', 'a'], judged([['a', 1]])), 0);
    assert.equal(ndcgAt(2, ['x', 'x', 'a'], judged([['a', 1]])), 1 / Math.log2(3));
    // the ideal is cut at k too: two relevant, k = 1, the best one first is perfect
    assert.equal(ndcgAt(1, ['a', 'x'], judged([['a', 1], ['b', 1]])), 1);
  });
});

describe('recallAt', () => {
  test('share of relevant documents in the first k', () => {
    assert.equal(recallAt(2, ['a', 'x', 'b'], judged([['a', 1], ['b', 1]])), 0.5);
    assert.equal(recallAt(3, ['a', 'x', 'b'], judged([['a', 1], ['b', 1]])), 1);
    assert.equal(recallAt(5, ['a'], judged([['a', 0]])), 0, 'a zero grade is not relevant');
  });
});

describe('quantile', () => {
  test('nearest rank', () => {
    assert.equal(quantile([5, 1, 3, 2, 4], 0.5), 3);
    assert.equal(quantile([1, 2, 3, 4], 0.95), 4);
    assert.equal(quantile([], 0.5), 0);
  });
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RRF_K, reciprocalRankFusion } from '../../src/engine/fusion.js';

const id = (s: string) => s;

test('scores are the sums of 1/(k + rank) over the lists holding an item', () => {
  const fused = reciprocalRankFusion([{ items: ['a', 'b', 'c'] }, { items: ['c', 'a', 'd'] }], id);
  const score = Object.fromEntries(fused.map((f) => [f.key, f.score]));
  assert.equal(RRF_K, 60);
  assert.equal(score.a, 1 / 61 + 1 / 62);
  assert.equal(score.c, 1 / 63 + 1 / 61);
  assert.equal(score.b, 1 / 62);
  assert.equal(score.d, 1 / 63);
  assert.deepEqual(fused.map((f) => f.key), ['a', 'c', 'b', 'd']);
  assert.deepEqual(fused.find((f) => f.key === 'c')!.ranks, [3, 1]);
  assert.deepEqual(fused.find((f) => f.key === 'd')!.ranks, [undefined, 3]);
});

test('an item in both lists beats items at the top of only one', () => {
  const keyword = ['k1', 'k2', 'both'];
  const vector = ['v1', 'both', 'v2'];
  assert.equal(reciprocalRankFusion([{ items: keyword }, { items: vector }], id)[0]!.key, 'both');
});

test('ties keep the order of first appearance: list order, then rank', () => {
  const fused = reciprocalRankFusion([{ items: ['x', 'y'] }, { items: ['p', 'q'] }], id);
  assert.deepEqual(fused.map((f) => f.key), ['x', 'p', 'y', 'q']);
});

test('k changes how much the top ranks dominate; weights scale a list', () => {
  const lists = [{ items: ['a', 'b', 'c'] }, { items: ['x', 'y', 'z', 'c'] }];
  assert.equal(reciprocalRankFusion(lists, id, 0)[0]!.key, 'a');
  assert.equal(reciprocalRankFusion(lists, id, 1000)[0]!.key, 'c');
  const weighted = reciprocalRankFusion([{ items: ['a'] }, { items: ['b'], weight: 2 }], id);
  assert.deepEqual(weighted.map((f) => [f.key, f.score]), [['b', 2 / 61], ['a', 1 / 61]]);
  assert.throws(() => reciprocalRankFusion(lists, id, -1), RangeError);
});

test('items keyed alike merge; a repeat within one list counts once, at its best rank; the first object is kept', () => {
  const a1 = { id: 1, from: 'keyword' };
  const a2 = { id: 1, from: 'vector' };
  const fused = reciprocalRankFusion([{ items: [a1, a1] }, { items: [{ id: 2, from: 'vector' }, a2] }], (x) => String(x.id));
  assert.equal(fused[0]!.item, a1);
  assert.equal(fused[0]!.score, 1 / 61 + 1 / 62);
  assert.equal(fused.length, 2);
});

test('empty input and empty lists fuse to nothing; one list keeps its order', () => {
  assert.deepEqual(reciprocalRankFusion([], id), []);
  assert.deepEqual(reciprocalRankFusion([{ items: [] }, { items: [] }], id), []);
  assert.deepEqual(reciprocalRankFusion([{ items: ['c', 'a', 'b'] }], id).map((f) => f.key), ['c', 'a', 'b']);
});

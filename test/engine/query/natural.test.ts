import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { contentWords, isQuestion, NAME_WEIGHT, nameWords, weightedWords } from '../../../src/engine/query/natural.js';

describe('natural-language queries', () => {
  test('content words drop stop words and one-letter leftovers, keep order, fall back to all words', () => {
    assert.deepEqual(contentWords("What are the user's programming language preferences?"), ['user', 'programming', 'language', 'preferences']);
    assert.deepEqual(contentWords('who are you'), ['who', 'are', 'you']);
    assert.deepEqual(contentWords('?!'), []);
  });

  test('questions are told from statements', () => {
    for (const q of ['Where does Mateo live?', 'when is the deadline', 'Does Ana have a cat', 'Is it raining?']) assert.ok(isQuestion(q), q);
    for (const s of ['Mateo lives in Porto.', 'IL-6 levels rise after exercise', 'Whenever it rains we stay in']) assert.ok(!isQuestion(s), s);
  });

  test('name words: capitalised or with inner capitals, never the first word', () => {
    assert.deepEqual([...nameWords('When did Mateo move to São Paulo with his iPhone?')].sort(), ['iphone', 'mateo', 'paulo', 'sao']);
    assert.deepEqual([...nameWords('Mateo moved')], []);
  });

  test("a question's names count NAME_WEIGHT times; a statement's words once", () => {
    const words = weightedWords('What does Mateo like to drink in the morning?');
    assert.equal(words.filter((w) => w === 'mateo').length, NAME_WEIGHT);
    assert.equal(words.filter((w) => w === 'morning').length, 1);
    assert.deepEqual(weightedWords('Mateo likes espresso in the morning.'), ['mateo', 'likes', 'espresso', 'morning']);
  });
});

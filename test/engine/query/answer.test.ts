import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ANSWER_BOOST, boostAnswers, expectedAnswer, holdsAnswer } from '../../../src/engine/query/answer.js';

describe('answer kinds', () => {
  test('questions ask for a date, a place, a person, or nothing in particular', () => {
    assert.equal(expectedAnswer('When was Noor born?'), 'date');
    assert.equal(expectedAnswer('What year did I move?'), 'date');
    assert.equal(expectedAnswer('Where does Greta work?'), 'place');
    assert.equal(expectedAnswer('Which city is Ana based in?'), 'place');
    assert.equal(expectedAnswer('Who is the designer on Falcon?'), 'person');
    assert.equal(expectedAnswer('Whose wedding is in June?'), 'person');
    assert.equal(expectedAnswer('Which friend likes Korean food?'), 'person');
    assert.equal(expectedAnswer('What does Ana do for a living?'), null);
    assert.equal(expectedAnswer('Vitamin D lowers the risk of fractures.'), null);
    assert.equal(expectedAnswer('Men are more susceptible to pneumonia when compared to women.'), null, 'a statement asks for nothing');
  });

  test('a passage holds an answer only if it is not one of the question words', () => {
    const own = new Set(['noor', 'born']);
    assert.ok(holdsAnswer('date', "Noor's birthday is on March 3.", own));
    assert.ok(holdsAnswer('date', 'The release is due in 2027.', own));
    assert.ok(!holdsAnswer('date', 'Noor works as a pilot.', own));
    assert.ok(holdsAnswer('place', 'My cousin Noor lives in Porto.', own));
    assert.ok(!holdsAnswer('place', 'We met Noor in March.', own), 'a month is not a place');
    assert.ok(!holdsAnswer('place', 'She lives in town.', own));
    assert.ok(holdsAnswer('person', 'The designer on Falcon is Ravi.', new Set(['designer', 'falcon'])));
    assert.ok(!holdsAnswer('person', 'Falcon needs a designer.', new Set(['designer', 'falcon'])), 'a sentence start is not a name');
  });

  test('passages with the kind of answer asked for move up; others keep their order', () => {
    const ranked = [
      { id: 'job', text: 'Mateo works as a carpenter.', score: 10 },
      { id: 'pet', text: 'Mateo adopted a beagle.', score: 9.5 },
      { id: 'birthday', text: "Mateo's birthday is on October 8.", score: 9 },
    ];
    const boosted = boostAnswers('When was Mateo born?', ranked);
    assert.deepEqual(boosted.map((h) => h.id), ['birthday', 'job', 'pet']);
    assert.equal(boosted[0]!.score, 9 * ANSWER_BOOST);
    assert.deepEqual(boostAnswers('What does Mateo do?', ranked).map((h) => h.id), ['job', 'pet', 'birthday']);
    assert.deepEqual(boostAnswers('When was Mateo born?', []), []);
  });
});

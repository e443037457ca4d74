import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { type LanguageDetector, createLanguageDetector, declaredCode } from '../../src/ingest/language.js';

const EN = 'The sea otter is a marine mammal native to the coasts of the northern Pacific Ocean. It has the densest fur of any animal and spends much of its day grooming.';
const DE = 'Der Seeotter ist ein Meeressäugetier, das an den Küsten des nördlichen Pazifiks lebt. Er hat das dichteste Fell aller Tiere und verbringt viel Zeit mit der Fellpflege.';
const FR = "La loutre de mer est un mammifère marin qui vit sur les côtes du nord de l'océan Pacifique. Elle possède la fourrure la plus dense de tous les animaux.";

describe('language detection', () => {
  let lang: LanguageDetector;
  before(async () => {
    lang = await createLanguageDetector();
  });

  test('English, German and French prose', () => {
    assert.equal(lang.detect(EN), 'en');
    assert.equal(lang.detect(DE), 'de');
    assert.equal(lang.detect(FR), 'fr');
  });

  test('short text is unknown, or the declared language', () => {
    assert.equal(lang.detect('Hello world'), 'unknown');
    assert.equal(lang.detect('ok'), 'unknown');
    assert.equal(lang.detect(''), 'unknown');
    assert.equal(lang.detect('12345 67890 !!!'), 'unknown');
    assert.equal(lang.detect('Hallo Welt', 'de-AT'), 'de');
  });

  test('mixed text is unknown unless the page declares a language', () => {
    const mixed = `${EN} ${DE} ${FR}`;
    assert.equal(lang.detect(mixed), 'unknown');
    assert.equal(lang.detect(mixed, 'fr-CA'), 'fr');
  });

  test('the text wins over a declaration it contradicts', () => {
    assert.equal(lang.detect(DE, 'en-US'), 'de');
    assert.equal(lang.detect(EN, 'en-GB'), 'en');
  });

  test('declared tags reduce to their primary subtag', () => {
    assert.equal(declaredCode('en-US'), 'en');
    assert.equal(declaredCode('pt_BR'), 'pt');
    assert.equal(declaredCode('ZH-Hant-TW'), 'zh');
    assert.equal(declaredCode('und'), undefined);
    assert.equal(declaredCode('x'), undefined);
    assert.equal(declaredCode('english please'), undefined);
    assert.equal(declaredCode(undefined), undefined);
  });
});

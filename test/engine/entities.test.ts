import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { canonicalUrl, type EntityKind, type EntityMention, extractEntities } from '../../src/engine/entities.js';

/** The mentions of one kind as "name×count", in the order returned. */
function of(found: EntityMention[], kind: EntityKind): string[] {
  return found.filter((e) => e.kind === kind).map((e) => `${e.name}×${e.count}`);
}

function names(found: EntityMention[], kind: EntityKind): string[] {
  return found.filter((e) => e.kind === kind).map((e) => e.name).sort();
}

describe('extractEntities: conversational memories', () => {
  test('people, places, organisations and relations a user tells an assistant', () => {
    const found = extractEntities(
      'My sister Ana lives in Lisbon and works at Stripe. Last week I had lunch with Priya Raman and her manager ' +
        'Tomasz Kowalski; Priya moved to Berlin in May. Dr. Okafor is my dentist.',
    );
    assert.deepEqual(names(found, 'person'), ['Ana', 'Okafor', 'Priya Raman', 'Tomasz Kowalski']);
    assert.deepEqual(names(found, 'place'), ['Berlin', 'Lisbon']);
    assert.deepEqual(names(found, 'organization'), ['Stripe']);
    assert.deepEqual(of(found, 'person').find((p) => p.startsWith('Priya')), 'Priya Raman×2', 'the first name alone is folded into the full name');
  });

  test('a name that only opens sentences needs a second mention; a known first name does not', () => {
    assert.deepEqual(names(extractEntities('Orchard Lane is lovely. We walked there.'), 'person'), []);
    assert.deepEqual(names(extractEntities('Sarah Chen is my manager.'), 'person'), ['Sarah Chen']);
    const twice = extractEntities('Zeev Sharon runs a hotel. Guests like it, says Zeev Sharon.');
    assert.deepEqual(of(twice, 'person'), ['Zeev Sharon×2']);
  });

  test('sentence openers, months and days are not names', () => {
    const found = extractEntities('Yesterday Alice Smith called. On Monday we meet in March. The Weather Was Nice.');
    assert.deepEqual(names(found, 'person'), ['Alice Smith']);
    assert.equal(found.filter((e) => /Monday|March|Yesterday|Weather/.test(e.name)).length, 0);
  });

  test('ambiguous first names count only with a cue', () => {
    assert.deepEqual(names(extractEntities('We will meet. Mark the date, and Hope for sun.'), 'person'), []);
    assert.deepEqual(names(extractEntities('Tomorrow I have dinner with my friend June.'), 'person'), ['June']);
  });

  test('honorifics make a person and are dropped from the name', () => {
    const found = extractEntities('Dr. Emily Chen met Mrs Patel and Prof Ngozi Okonjo-Iweala.');
    assert.deepEqual(names(found, 'person'), ['Emily Chen', 'Ngozi Okonjo-Iweala', 'Patel']);
  });
});

describe('extractEntities: organisations', () => {
  test('company suffixes are one entity however they are written', () => {
    const found = extractEntities('I met Jane at Acme Inc. yesterday. Acme, Inc. is hiring and ACME Inc has 40 staff; Acme Inc’s office is near.');
    assert.deepEqual(of(found, 'organization'), ['Acme Inc×4']);
  });

  test('universities, banks, publishers and acronyms', () => {
    const found = extractEntities(
      'She studied at the University of Oxford, then Harvard University, and now works for the Bank of England. ' +
        'The New York Times quoted NASA and the WHO. It was OK, FYI, about the API and HTML.',
    );
    assert.deepEqual(names(found, 'organization'), ['Bank of England', 'Harvard University', 'NASA', 'New York Times', 'University of Oxford']);
  });

  test('a first word alone is folded into the one company it begins', () => {
    const found = extractEntities('Sam joined Globex. Globex Corporation then went public.');
    assert.deepEqual(of(found, 'organization'), ['Globex Corp×2']);
  });
});

describe('extractEntities: emails, URLs, hashtags, dates', () => {
  test('emails are lower-cased and not mistaken for names', () => {
    const found = extractEntities('Write to Ana.Silva@Example.COM or mailto:bob@x.org; not me@localhost or @handle.');
    assert.deepEqual(names(found, 'email'), ['ana.silva@example.com', 'bob@x.org']);
    assert.deepEqual(found.filter((e) => e.kind !== 'email'), []);
  });

  test('URLs: lower-case scheme and host, no credentials, fragment or trailing slash, surrounding punctuation left out', () => {
    const found = extractEntities(
      'See HTTPS://Example.COM/Docs/#intro, (https://en.wikipedia.org/wiki/Foo_(bar)) and www.github.com/trove/. ' +
        'Also https://user:secret@host.example/a?b=1. And https://example.com/Docs again.',
    );
    assert.deepEqual(of(found, 'url'), [
      'https://example.com/Docs×2',
      'https://en.wikipedia.org/wiki/Foo_(bar)×1',
      'https://www.github.com/trove×1',
      'https://host.example/a?b=1×1',
    ]);
    assert.equal(canonicalUrl('https://nohost'), null);
  });

  test('hashtags are lower-cased and need a letter', () => {
    const found = extractEntities('Loving #Rust and #rust, not #1 or C# or &#39; or https://x.org/#frag. #TypeScript_5');
    assert.deepEqual(of(found, 'hashtag'), ['#rust×2', '#typescript_5×1']);
  });

  test('dates in four spellings become YYYY-MM-DD; impossible dates are rejected', () => {
    const found = extractEntities(
      'Due 2026-03-14, or 14 March 2026, or March 14, 2026, or 2026/03/14. Moved to 14th of Mar. 2026. ' +
        'Not 2026-02-30, 31 April 2026, 2025-13-01 or 1.2026-03-14x. Leap day 29 February 2028 is fine; 29 Feb 2027 is not.',
    );
    assert.deepEqual(of(found, 'date'), ['2026-03-14×5', '2028-02-29×1']);
  });
});

describe('extractEntities: web text', () => {
  test('title-case headings and navigation give no people', () => {
    const found = extractEntities(
      'How To Build A Better Mousetrap\nRead More\nPrivacy Policy\n\nAddress Bar Preferences\n\n' +
        'The team shipped it on Friday. Visual Studio Code and Google Docs support it.',
    );
    assert.deepEqual(names(found, 'person'), []);
  });

  test('a mention inside another kind is not counted twice', () => {
    const found = extractEntities('Contact Jane.Doe@Acme.com about https://Acme.com/Jane-Doe.');
    assert.deepEqual(found.map((e) => e.kind).sort(), ['email', 'url']);
  });

  test('counts and ordering: most mentioned first, then first seen', () => {
    const found = extractEntities('Lisbon, Berlin. Then Lisbon again, #a #b #b.');
    assert.deepEqual(found.map((e) => `${e.kind}:${e.name}×${e.count}`), ['place:Lisbon×2', 'hashtag:#b×2', 'place:Berlin×1', 'hashtag:#a×1']);
  });

  test('empty and entity-free text give nothing', () => {
    assert.deepEqual(extractEntities(''), []);
    assert.deepEqual(extractEntities('just some lower case words, nothing else here.'), []);
  });
});

describe('extractEntities: hostile input', () => {
  const MB = 1 << 20;
  const fill = (unit: string) => unit.repeat(Math.ceil(MB / unit.length)).slice(0, MB);
  const cases: Array<[string, string]> = [
    ['one long word', fill('a')],
    ['one long capitalised word', fill('A')],
    ['capitalised words', fill('Ab ')],
    ['email-like without a domain', fill('a.b-c+')],
    ['at signs', fill('a@')],
    ['dotted domains without a TLD end', `x@${fill('a1.')}`],
    ['URLs without spaces', fill('http://')],
    ['hashtags of digits', fill('#1')],
    ['date-like digits', fill('2026-')],
    ['months and digits', fill('March 1 ')],
    ['honorifics', fill('Dr. ')],
    ['apostrophes and hyphens in a name', `A${fill("b'c-")}`],
    ['spaces before a name', `${' '.repeat(MB)}Jane Smith`],
  ];
  for (const [label, text] of cases) {
    test(`1 MB of ${label} finishes with sane output`, { timeout: 60_000 }, () => {
      const found = extractEntities(text);
      assert.ok(Array.isArray(found));
      for (const e of found) {
        assert.ok(e.count >= 1 && e.name.length > 0);
        assert.ok(e.name.length <= 4096, `${e.kind} name of ${e.name.length} characters`);
      }
    });
  }
});

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { App } from '../../src/app.js';
import { OWNER, authorize } from '../../src/service/access.js';
import { findBank } from '../../src/service/banks.js';
import { addContents } from '../../src/service/documents.js';
import { rankChunks } from '../../src/service/keyword.js';
import { retain } from '../../src/service/memory.js';
import { ALL_OWNERS, type ChunkFilter } from '../../src/store/types.js';
import { testApp } from '../helpers.js';

// The natural-language keyword ranking recall uses, on a real store: names, answer kinds, paging, pages too.

const owner = authorize(OWNER, 'memory.write');

const FACTS = [
  'Mateo works as a carpenter.',
  "Mateo's birthday is on October 8.",
  'My cousin Ana lives in Porto.',
  'Ana adopted a beagle called Waffles.',
  'Jonas always orders espresso when we meet for breakfast.',
  'The user dislikes video calls before nine in the morning.',
  'Priya designs the screens for project Falcon.',
  'Project Falcon needs a new logo.',
];

describe('rankChunks', () => {
  let app: App;
  let cleanup: () => Promise<void>;
  let memories: ChunkFilter;
  const ids = new Map<string, string>();

  before(async () => {
    ({ app, cleanup } = testApp());
    for (const content of FACTS) ids.set((await retain(app, { bank: 'alice', content, source: 'mcp:test', grant: owner })).id, content);
    const bank = await findBank(app, owner, 'alice');
    memories = { scope: owner.scope, bankId: bank!.id, kinds: ['memory'] };
  });
  after(() => cleanup());

  const ask = async (text: string, k = 3, offset = 0) => (await rankChunks(app, text, memories, k, offset)).map((h) => ids.get(h.documentId));

  test("a question's name outweighs a rarer ordinary word; a statement's does not", async () => {
    const top = await ask('What does Mateo like to drink in the morning?', 2);
    assert.ok(top.every((t) => t!.startsWith('Mateo')), JSON.stringify(top));
    assert.equal((await ask('Mateo likes to drink something in the morning.', 1))[0], FACTS[5]);
  });

  test('the passage holding the kind of answer asked for comes first', async () => {
    assert.equal((await ask('When was Mateo born?'))[0], "Mateo's birthday is on October 8.");
    assert.equal((await ask('Which city is Ana based in?'))[0], 'My cousin Ana lives in Porto.');
    assert.equal((await ask('Who is the designer on Falcon?'))[0], 'Priya designs the screens for project Falcon.');
  });

  test('pages of any size put together give the same order', async () => {
    const query = 'Mateo Ana Falcon morning espresso';
    const all = await ask(query, 20);
    assert.equal(all.length, FACTS.length);
    const paged = [...(await ask(query, 3, 0)), ...(await ask(query, 3, 3)), ...(await ask(query, 14, 6))];
    assert.deepEqual(paged, all);
  });

  test('nothing to search for, nothing found, k of zero: empty', async () => {
    assert.deepEqual(await ask('?!'), []);
    assert.deepEqual(await ask('submarine weather'), []);
    assert.deepEqual(await ask('Mateo', 0), []);
  });

  test('web pages rank by title and text, scores best first', async () => {
    await addContents(app, [
      { url: 'https://example.org/rust-errors', title: 'Error handling in Rust', text: 'The question mark operator propagates errors to the caller.', source: 'test' },
      { url: 'https://example.org/go', title: 'Go concurrency', text: 'Goroutines and channels; errors are values in Go.', source: 'test' },
    ]);
    const hits = await rankChunks(app, 'How do I handle errors in Rust?', { scope: ALL_OWNERS, bankId: null }, 5);
    assert.equal(hits[0]?.url, 'https://example.org/rust-errors');
    assert.ok(hits.every((h, i) => i === 0 || hits[i - 1]!.score >= h.score));
    assert.ok(hits.every((h) => h.kind === 'web'), 'no memories without a bank');
  });
});

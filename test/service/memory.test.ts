import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { App } from '../../src/app.js';
import { TroveError } from '../../src/errors.js';
import { OWNER, authorize } from '../../src/service/access.js';
import { deleteBank, listBanks } from '../../src/service/banks.js';
import { eventDate, memoryType, normalizeMemory, recall, retain } from '../../src/service/memory.js';
import { createUser } from '../../src/service/users.js';
import { testApp } from '../helpers.js';

// retain and recall as the service does them, on a real store: merging, types, dates, ranking without a model.

const owner = authorize(OWNER, 'memory.write');
const code = (err: unknown) => (err instanceof TroveError ? err.code : String(err));
const rejects = async (p: Promise<unknown>, want: string) => assert.equal(await p.then(() => 'resolved', code), want);

const FACTS: Array<[string, string]> = [
  ['User prefers Python over JavaScript for backend development', 'programming_preferences'],
  ['The user lives in Lyon and works from home on Fridays', 'general'],
  ['User is allergic to peanuts', 'health'],
  ['Their daughter Maya plays the violin', 'family'],
  ['User drinks green tea every morning', 'general'],
  ['The team deploys on Kubernetes with Helm charts', 'work'],
];

describe('retain and recall', () => {
  let app: App;
  let cleanup: () => Promise<void>;

  before(async () => {
    ({ app, cleanup } = testApp());
    for (const [content, context] of FACTS) await retain(app, { bank: 'alice', content, context, source: 'mcp:test', grant: owner });
  });
  after(() => cleanup());

  const ask = async (query: string, bank = 'alice') => (await recall(app, { bank, query, grant: owner })).results.map((r) => r.text);

  test('natural-language questions find their facts without any model', async () => {
    const r = await recall(app, { bank: 'alice', query: "What are the user's programming language preferences?", grant: owner });
    assert.equal(r.results[0]?.text, FACTS[0]![0]);
    assert.equal(r.results[0]?.context, 'programming_preferences');
    assert.equal(r.results[0]?.type, 'world');
    assert.equal(r.results[0]?.event_date, null);
    assert.equal(r.mode, 'keyword');
    assert.match(r.notice ?? '', /keyword/);
    assert.equal((await ask('Where does the user live?'))[0], FACTS[1]![0]);
    assert.equal((await ask('Does the user have any food allergies?'))[0], FACTS[2]![0], 'allergies -> allergic (stemming)');
    assert.equal((await ask('what instrument does her daughter play'))[0], FACTS[3]![0]);
    assert.equal((await ask('How do we deploy?'))[0], FACTS[5]![0]);
    assert.deepEqual(await ask('submarine weather'), []);
  });

  test('max_results: default 10, at most 50, whole numbers from 1', async () => {
    assert.equal((await recall(app, { bank: 'alice', query: 'user', maxResults: 2, grant: owner })).results.length, 2);
    assert.equal((await recall(app, { bank: 'alice', query: 'user', maxResults: 1000, grant: owner })).results.length, 4);
    for (const bad of [0, -1, 2.5]) await rejects(recall(app, { bank: 'alice', query: 'user', maxResults: bad, grant: owner }), 'INVALID_ARGUMENT');
    await rejects(recall(app, { bank: 'alice', query: '   ', grant: owner }), 'INVALID_ARGUMENT');
  });

  test('the same text again is merged: same id, no second memory', async () => {
    const first = await retain(app, { bank: 'merge', content: 'Café au lait  every\tday', source: 'api', grant: owner });
    assert.deepEqual({ merged: first.merged, count: first.retained_count }, { merged: false, count: 1 });
    // Whitespace runs, surrounding space and Unicode composition do not make a new memory.
    const again = await retain(app, { bank: 'merge', content: '  Cafe\u0301 au lait every day\n', source: 'api', grant: owner });
    assert.deepEqual(again, { id: first.id, merged: true, retained_count: 2 });
    assert.equal((await listBanks(app, null)).banks.find((b) => b.name === 'merge')?.memories, 1);
    const other = await retain(app, { bank: 'merge', content: 'Café au lait every night', source: 'api', grant: owner });
    assert.equal(other.merged, false);
    assert.notEqual(other.id, first.id);
    const hit = (await recall(app, { bank: 'merge', query: 'every day', grant: owner })).results[0];
    assert.equal(hit?.text, 'Café au lait every day');
  });

  test('bad input is refused with a code and stores nothing', async () => {
    const before = (await app.store.info()).counts.memory;
    for (const bank of ['', '.', '..', 'a/b', 'a b', 'x'.repeat(65), 'caf\u00e9']) {
      await rejects(retain(app, { bank, content: 'x', source: 'api', grant: owner }), 'INVALID_ARGUMENT');
      await rejects(recall(app, { bank, query: 'x', grant: owner }), 'INVALID_ARGUMENT');
    }
    await rejects(retain(app, { bank: 'alice', content: ' \n\t ', source: 'api', grant: owner }), 'INVALID_ARGUMENT');
    await rejects(retain(app, { bank: 'alice', content: 'x'.repeat(20_000), source: 'api', grant: owner }), 'TOO_LARGE');
    await rejects(retain(app, { bank: 'alice', content: 'fine', context: 'c'.repeat(201), source: 'api', grant: owner }), 'INVALID_ARGUMENT');
    assert.equal((await app.store.info()).counts.memory, before);
  });

  test('a bank nobody retained into holds nothing; it is not an error', async () => {
    const r = await recall(app, { bank: 'never-made', query: 'python', grant: owner });
    assert.deepEqual(r.results, []);
    assert.ok(!(await listBanks(app, null)).banks.some((b) => b.name === 'never-made'), 'recall creates no bank');
  });

  test('banks are per bank and per user', async () => {
    const alice = await createUser(app, { name: 'alice', admin: false });
    const root = await createUser(app, { name: 'root', admin: true });
    const userA = authorize({ kind: 'user', userId: (await app.store.getUser('alice'))!.id, name: 'alice', admin: false }, 'memory.write');
    const admin = authorize({ kind: 'user', userId: (await app.store.getUser('root'))!.id, name: 'root', admin: true }, 'memory.write');
    assert.ok(alice.token && root.token);
    await retain(app, { bank: 'alice', content: 'Alice the user keeps bees on the roof', source: 'api', grant: userA });
    assert.deepEqual(await ask('bees'), [], "the owner's bank alice is another bank");
    assert.deepEqual((await recall(app, { bank: 'alice', query: 'bees', grant: admin })).results, [], 'an admin reads only their own banks');
    assert.equal((await recall(app, { bank: 'alice', query: 'bees', grant: userA })).results.length, 1);
    assert.deepEqual((await recall(app, { bank: 'alice', query: 'python', grant: userA })).results, []);
    assert.deepEqual((await recall(app, { bank: 'other', query: 'bees', grant: userA })).results, []);
    assert.deepEqual((await listBanks(app, userA.writeOwner)).banks.map((b) => b.name), ['alice']);
    await rejects(deleteBank(app, userA.writeOwner, 'merge'), 'NOT_FOUND');
  });

  test('secrets are redacted before a memory is stored', async () => {
    const token = `ghp_${'a1B2c3D4e5'.repeat(3)}xyzXYZ`;
    await retain(app, { bank: 'secrets', content: `The deploy token is ${token}`, source: 'api', grant: owner });
    const [hit] = (await recall(app, { bank: 'secrets', query: 'deploy token', grant: owner })).results;
    assert.ok(hit && !hit.text.includes(token));
    assert.match(hit.text, /\[REDACTED:github-token\]/);
  });

  test('deleting a bank removes its memories', async () => {
    await retain(app, { bank: 'doomed', content: 'Doomed fact about walruses', source: 'api', grant: owner });
    assert.deepEqual(await deleteBank(app, null, 'doomed'), { bank: 'doomed', deleted: true, memories: 1 });
    assert.deepEqual(await ask('walruses', 'doomed'), []);
    await rejects(deleteBank(app, null, 'doomed'), 'NOT_FOUND');
  });
});

describe('memory text rules', () => {
  test('normalization: NFC, one space for each whitespace run, trimmed', () => {
    assert.equal(normalizeMemory('  a\u0301  b\n\tc  '), '\u00e1 b c');
  });

  test('type: opinion, experience, else world', () => {
    assert.equal(memoryType('User prefers Python over JavaScript'), 'world');
    assert.equal(memoryType('I moved to Lyon last spring'), 'experience');
    assert.equal(memoryType('We shipped the release on time'), 'experience');
    assert.equal(memoryType('I think microservices are overused'), 'opinion');
    assert.equal(memoryType('In my opinion tabs beat spaces'), 'opinion');
    assert.equal(memoryType('Immigration rules changed'), 'world', '"I" only as a word');
  });

  test('event_date: the first date the text mentions', () => {
    assert.equal(eventDate('The wedding is on 5 March 2027 in Porto'), '2027-03-05');
    assert.equal(eventDate('Started the job 2024-09-02, promoted 2025-01-10'), '2024-09-02');
    assert.equal(eventDate('No date here'), null);
  });
});

describe('recall ranks by what memories say', () => {
  test('the bank name and the word "memory" match nothing by themselves (urls are memory:<bank>/<id>)', async () => {
    const { app, cleanup } = testApp();
    try {
      await retain(app, { bank: 'alice', content: 'Prefers window seats on long flights', source: 'api', grant: owner });
      await retain(app, { bank: 'alice', content: 'Alice has a good memory for faces', source: 'api', grant: owner });
      const texts = async (query: string) => (await recall(app, { bank: 'alice', query, grant: owner })).results.map((r) => r.text);
      assert.deepEqual(await texts('alice'), ['Alice has a good memory for faces']);
      assert.deepEqual(await texts('memory'), ['Alice has a good memory for faces']);
      assert.deepEqual(await texts('flights'), ['Prefers window seats on long flights']);
    } finally {
      await cleanup();
    }
  });
});

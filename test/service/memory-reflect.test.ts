import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { App } from '../../src/app.js';
import { OWNER, authorize } from '../../src/service/access.js';
import { NO_MODEL_STATEMENT, groupByTheme, keepValidCitations, reflect } from '../../src/service/memory-reflect.js';
import { type MemoryHit, retain } from '../../src/service/memory.js';
import { testApp } from '../helpers.js';
import { type ChatMessageIn, type OpenAiServer, startOpenAiServer } from '../providers/openai-server.js';

// reflect without a model (the evidence by theme, said plainly) and with one (a local server speaking the
// OpenAI chat API): citations of ids that were not in the evidence never survive.

const grant = authorize(OWNER, 'memory.write');
const MISSING = '01ZZZZZZZZZZZZZZZZZZZZZZZZ';

const DECISIONS: Array<[string, string]> = [
  ['Chose a modular monolith for the billing service architecture', 'architecture'],
  ['Rejected microservices architecture for the small team', 'architecture'],
  ['Picked event sourcing architecture for the audit log', 'architecture'],
  ['Asked Acme Corp for an architecture review of the monolith', 'general'],
  ['Acme Corp recommended keeping the architecture simple', 'general'],
  ['Went hiking near Grenoble to think about architecture', 'general'],
  ['Moved the architecture decision records into the wiki', 'docs'],
];

async function seed(app: App): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (const [content, context] of DECISIONS) ids.set(content, (await retain(app, { bank: 'decisions', content, context, source: 'mcp:test', grant })).id);
  return ids;
}

/** The ids a prompt showed the model, in order. */
const shownIds = (messages: ChatMessageIn[]) => [...messages.map((m) => m.content).join('\n').matchAll(/\[mem:([0-9A-Z]{26})\]/g)].map((m) => m[1]!);

describe('reflect without a model', () => {
  let app: App;
  let cleanup: () => Promise<void>;
  let ids: Map<string, string>;
  before(async () => {
    ({ app, cleanup } = testApp());
    ids = await seed(app);
  });
  after(() => cleanup());

  test('a plain statement and the evidence grouped by theme', async () => {
    const r = await reflect(app, { bank: 'decisions', query: 'What architecture style do I prefer?', budget: 'mid', grant });
    assert.equal(r.mode, 'evidence');
    assert.equal(r.statement, NO_MODEL_STATEMENT);
    assert.equal(r.answer, null);
    assert.deepEqual(r.cited_ids, []);
    assert.equal(r.evidence.length, DECISIONS.length);
    const theme = (name: string) => r.themes.find((t) => t.theme === name)?.memory_ids.slice().sort();
    const idsOf = (...texts: string[]) => texts.map((t) => ids.get(t)!).sort();
    assert.deepEqual(theme('architecture'), idsOf(DECISIONS[0]![0], DECISIONS[1]![0], DECISIONS[2]![0]), 'by context');
    assert.deepEqual(theme('Acme Corp'), idsOf(DECISIONS[3]![0], DECISIONS[4]![0]), 'by a shared entity');
    assert.deepEqual(theme('docs'), idsOf(DECISIONS[6]![0]));
    assert.deepEqual(theme('general'), idsOf(DECISIONS[5]![0]), 'what shares nothing');
    assert.equal(r.themes.flatMap((t) => t.memory_ids).length, DECISIONS.length, 'each memory in one theme');
  });

  test('budget sets how much evidence is gathered', async () => {
    const q = { bank: 'decisions', query: 'architecture', grant };
    assert.equal((await reflect(app, { ...q, budget: 'low' })).evidence.length, 5);
    assert.equal((await reflect(app, q)).budget, 'low');
    assert.equal((await reflect(app, { ...q, budget: 'high' })).evidence.length, DECISIONS.length);
  });

  test('an empty bank reflects to no evidence', async () => {
    const r = await reflect(app, { bank: 'empty', query: 'anything at all', grant });
    assert.deepEqual([r.evidence, r.themes, r.mode], [[], [], 'evidence']);
  });
});

describe('reflect with a model', () => {
  let app: App;
  let cleanup: () => Promise<void>;
  let server: OpenAiServer;
  let ids: Map<string, string>;
  before(async () => {
    server = await startOpenAiServer({
      models: ['fake-chat'],
      // Cites the first memory it was shown, a made-up id, and a lower-case copy of the second shown id.
      chat: (messages) => {
        const [first, second] = shownIds(messages);
        return `You prefer a modular monolith [mem:${first}] and never microservices [mem:${MISSING}]. Simplicity wins [mem:${second!.toLowerCase()}][mem:${first}].`;
      },
    });
    ({ app, cleanup } = testApp({ 'llm.enabled': 'true', 'llm.base_url': server.url, 'llm.model': 'fake-chat' }));
    ids = await seed(app);
  });
  after(async () => {
    await cleanup();
    await server.close();
  });

  test('the answer cites only evidence ids; a made-up id is dropped', async () => {
    const r = await reflect(app, { bank: 'decisions', query: 'What architecture style do I prefer?', context: 'planning a new service', budget: 'mid', grant });
    assert.equal(r.mode, 'model');
    assert.equal(r.model, 'fake-chat');
    assert.equal(r.statement, undefined);
    const evidence = new Set(r.evidence.map((m) => m.id));
    assert.equal(r.cited_ids.length, 2);
    for (const id of r.cited_ids) assert.ok(evidence.has(id) && [...ids.values()].includes(id), id);
    assert.ok(!r.cited_ids.includes(MISSING));
    assert.ok(!r.answer!.includes(MISSING), r.answer!);
    assert.match(r.answer!, /^You prefer a modular monolith \[mem:[0-9A-Z]{26}\] and never microservices\. Simplicity wins \[mem:[0-9A-Z]{26}\]\[mem:[0-9A-Z]{26}\]\.$/);
    // What the model was sent: the question, the context, every evidence id, the budget's token bound.
    const sent = server.chatRequests().at(-1)!.body;
    assert.equal(sent.model, 'fake-chat');
    assert.equal(sent.max_tokens, 1024);
    assert.deepEqual(shownIds(sent.messages).sort(), [...evidence].sort());
    assert.match(sent.messages.at(-1).content, /What architecture style do I prefer\?[\s\S]*planning a new service/);
  });

  test('the budget bounds the model tokens', async () => {
    for (const [budget, tokens] of [['low', 256], ['high', 4096]] as const) {
      await reflect(app, { bank: 'decisions', query: 'architecture', budget, grant });
      assert.equal(server.chatRequests().at(-1)!.body.max_tokens, tokens);
    }
  });

  test('a failing model falls back to the evidence with a notice', async () => {
    for (const failure of [{ mode: 'status', status: 503 }, { mode: 'not_json' }, { mode: 'reset' }] as const) {
      server.fail(failure, { endpoint: 'chat', times: 1 });
      const r = await reflect(app, { bank: 'decisions', query: 'architecture', grant });
      assert.equal(r.mode, 'evidence', failure.mode);
      assert.equal(r.answer, null);
      assert.match(r.notice ?? '', /language model did not answer \([A-Z_]+\)/);
      assert.ok(r.evidence.length > 0 && r.themes.length > 0);
      assert.doesNotMatch(JSON.stringify(r), /at \/|node:internal|Error:/);
    }
    server.fail(undefined);
  });

  test('no evidence: the model is not asked', async () => {
    const before = server.chatRequests().length;
    const r = await reflect(app, { bank: 'decisions', query: 'submarines', grant });
    assert.equal(r.evidence.length, 0);
    assert.equal(server.chatRequests().length, before);
    assert.match(r.statement ?? '', /not asked/);
  });
});

describe('reflect helpers', () => {
  const hit = (id: string, context = 'general'): MemoryHit => ({ id, text: id, type: 'world', context, event_date: null, score: 1 });

  test('keepValidCitations drops unknown ids and tidies the text', () => {
    const r = keepValidCitations('A [mem:X1] . B [mem:abc][mem:Y2]!', new Set(['ABC', 'Y2']));
    assert.deepEqual(r, { answer: 'A. B [mem:ABC][mem:Y2]!', cited: ['ABC', 'Y2'] });
  });

  test('groupByTheme ignores dates and needs two memories to share an entity', () => {
    const date = { id: 1, kind: 'date', name: '2026-01-01', mentions: 1 };
    const ada = { id: 2, kind: 'person', name: 'Ada', mentions: 1 };
    const groups = groupByTheme([
      { memory: hit('a'), entities: [date, ada] },
      { memory: hit('b'), entities: [date] },
      { memory: hit('c'), entities: [ada] },
      { memory: hit('d', 'work'), entities: [ada] },
    ]);
    assert.deepEqual(groups, [{ theme: 'work', memory_ids: ['d'] }, { theme: 'Ada', memory_ids: ['a', 'c'] }, { theme: 'general', memory_ids: ['b'] }]);
  });
});

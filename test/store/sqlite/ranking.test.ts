import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { addContent } from '../../../src/service/documents.js';
import { searchDocuments } from '../../../src/service/search.js';
import { testApp } from '../../helpers.js';

const T = Date.UTC(2026, 2, 1);
let t: ReturnType<typeof testApp>;

before(async () => {
  t = testApp();
  const same = { title: 'Lighthouse keeping', text: 'Keeping a lighthouse lamp lit through the storm.', source: 'test' };
  await addContent(t.app, { ...same, url: 'https://tie.example/aa', capturedAt: T });
  await addContent(t.app, { ...same, url: 'https://tie.example/bb', capturedAt: T + 86_400_000 });
  await addContent(t.app, { ...same, url: 'https://tie.example/cc', capturedAt: T - 86_400_000 });
});
after(() => t.cleanup());

test('equal scores are ordered newest first', async () => {
  const r = await searchDocuments(t.app, { query: 'lighthouse' });
  assert.deepEqual(r.results.map((x) => x.url), ['https://tie.example/bb', 'https://tie.example/aa', 'https://tie.example/cc']);
  assert.equal(new Set(r.results.map((x) => x.score)).size, 1);
});

test('sort:-relevance keeps the same documents in reverse', async () => {
  const r = await searchDocuments(t.app, { query: 'lighthouse sort:-relevance' });
  assert.deepEqual(r.results.map((x) => x.url), ['https://tie.example/cc', 'https://tie.example/aa', 'https://tie.example/bb']);
});

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { formatStatus } from '../../src/cli/format.js';
import { startServer } from '../../src/http/server.js';
import { addContents } from '../../src/service/documents.js';
import { getStatus } from '../../src/service/status.js';
import { testApp } from '../helpers.js';
import { type OpenAiServer, startOpenAiServer } from '../providers/openai-server.js';

// `trove status` and GET /api/status report semantic search: model, length, embedded and queued passages.

let embed: OpenAiServer;
before(async () => {
  embed = await startOpenAiServer({ dimensions: 20 });
});
after(() => embed.close());

test('semantic enabled: model, endpoint, then counts as the queue drains', async () => {
  const { app, cleanup } = testApp({
    'semantic.enabled': 'true', 'semantic.base_url': embed.url.replace('http://', 'http://user:pw@'), 'semantic.model': 'fake-embed', 'semantic.api_key': 'sk-status-secret',
    'llm.enabled': 'true', 'llm.model': 'llama3.2', 'searxng.enabled': 'true',
  });
  try {
    await addContents(app, [1, 2, 3].map((i) => ({ url: `https://s.example/${i}`, title: `S ${i}`, text: `status note ${i}`, source: 'test' })));
    const before = await getStatus(app);
    assert.deepEqual(
      { ...before.semantic, worker: undefined },
      { enabled: true, model: 'fake-embed', endpoint: `${embed.url}/`, dimensions: null, embedded: 0, queued: 3, failed: 0, worker: undefined },
    );
    assert.deepEqual(before.semantic.worker, { running: false, last_error: null });
    assert.deepEqual(before.llm, { enabled: true, model: 'llama3.2', endpoint: 'http://localhost:11434/' });
    assert.deepEqual(before.searxng, { enabled: true, endpoint: 'http://localhost:8080/' });
    await app.embedder!.drain();
    const done = await getStatus(app);
    assert.equal(done.semantic.dimensions, 20);
    assert.equal(done.semantic.embedded, 3);
    assert.equal(done.semantic.queued, 0);
    assert.match(formatStatus(done), /^semantic: {2}fake-embed \(20 dimensions\) at http:\/\/127\.0\.0\.1:\d+\/; 3 embedded, 0 queued, 0 refused$/m);
    const server = await startServer(app, { host: '127.0.0.1', port: 0 });
    try {
      const text = await (await fetch(`${server.url}/api/status`)).text();
      const body = JSON.parse(text);
      assert.equal(body.semantic.embedded, 3);
      assert.ok(!text.includes('sk-status-secret') && !text.includes(':pw@'), 'no secrets in the status');
    } finally {
      await server.close();
    }
  } finally {
    await cleanup();
  }
});

test('semantic disabled: said so, no counts', async () => {
  const { app, cleanup } = testApp();
  try {
    const s = await getStatus(app);
    assert.deepEqual(s.semantic, { enabled: false });
    assert.deepEqual(s.llm, { enabled: false });
    assert.deepEqual(s.searxng, { enabled: false });
    assert.match(formatStatus(s), /^semantic: {2}off/m);
  } finally {
    await cleanup();
  }
});

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type App, createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/load.js';
import { createLogger } from '../../src/log.js';
import { addContent } from '../../src/service/documents.js';
import { EmbeddingWorker, MAX_INPUT_CHARS, embeddingInput } from '../../src/service/embedding-worker.js';
import { tempDir } from '../helpers.js';
import { type OpenAiServer, startOpenAiServer } from '../providers/openai-server.js';

// The background embedder against a local OpenAI-compatible server: batches, resume, back-off while the
// endpoint is down, passages the endpoint refuses, a new model re-embedding everything.

interface Built {
  app: App;
  logs: string[];
  close(): Promise<void>;
}

function build(dir: string, server: OpenAiServer, env: Record<string, string> = {}): Built {
  const logs: string[] = [];
  const config = loadConfig({
    dataDir: dir,
    env: { XDG_CONFIG_HOME: dir, TROVE_SEMANTIC_ENABLED: 'true', TROVE_SEMANTIC_BASE_URL: server.url, TROVE_SEMANTIC_MODEL: 'fake-model', TROVE_SEMANTIC_BATCH_SIZE: '4', ...env },
  });
  const app = createApp(config, createLogger('debug', (l) => logs.push(l)), { extractionWorkers: 0 });
  return { app, logs, close: () => app.close() };
}

/** A worker on the app's store and provider with short pauses, so a test need not wait for the defaults. */
function quickWorker(app: App): EmbeddingWorker {
  return new EmbeddingWorker(app.store, app.embeddings!, app.log, { batchSize: 4, idleMs: 20, backoffMs: 10, maxBackoffMs: 40 });
}

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 2000; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  assert.fail(`gave up waiting for ${what}`);
}

async function addNotes(app: App, n: number, prefix = 'note'): Promise<void> {
  for (let i = 0; i < n; i++) await addContent(app, { url: `https://notes.example/${prefix}/${i}`, title: `${prefix} ${i}`, text: `The ${prefix} number ${i} talks about topic ${i % 3}.`, source: 'test' });
}

describe('embedding worker', () => {
  const t = tempDir('trove-embed-');
  let server: OpenAiServer;
  before(async () => {
    server = await startOpenAiServer({ dimensions: 24 });
  });
  after(async () => {
    await server.close();
    t.cleanup();
  });

  test('embedding input: the title before the text, memories as they are, bounded length', () => {
    assert.equal(embeddingInput({ kind: 'web', title: 'Otters', text: 'They hold hands.' }), 'Otters\n\nThey hold hands.');
    assert.equal(embeddingInput({ kind: 'web', title: '', text: 'No title.' }), 'No title.');
    assert.equal(embeddingInput({ kind: 'local', title: 'Readme', text: 'Readme\nwith the title in it' }), 'Readme\nwith the title in it');
    assert.equal(embeddingInput({ kind: 'memory', title: 'User likes tea', text: 'User likes tea' }), 'User likes tea');
    assert.equal(embeddingInput({ kind: 'web', title: 't', text: 'x'.repeat(MAX_INPUT_CHARS * 2) }).length, MAX_INPUT_CHARS);
  });

  test('drain embeds every queued passage in batches, learning the length from a probe', async () => {
    const b = build(`${t.dir}/drain`, server);
    try {
      await addNotes(b.app, 10);
      const before = server.embeddingRequests().length;
      assert.equal(await b.app.embedder!.drain(), 10);
      const sent = server.embeddingRequests().slice(before);
      assert.deepEqual(sent[0]!.body.input, ['trove'], 'one probe first: semantic.dimensions is 0');
      assert.deepEqual(sent.slice(1).map((r) => r.body.input.length), [4, 4, 2]);
      assert.equal(sent[1]!.body.input[0], 'note 0\n\nThe note number 0 talks about topic 0.');
      const counts = await b.app.store.embeddingCounts();
      assert.deepEqual(counts, { space: { model: 'fake-model', dimensions: 24 }, embedded: 10, queued: 0, failed: 0 });
      assert.equal(await b.app.embedder!.drain(), 0, 'nothing left');
    } finally {
      await b.close();
    }
  });

  test('started, it picks up new writes, and close stops it', async () => {
    const b = build(`${t.dir}/background`, server);
    const worker = quickWorker(b.app);
    try {
      worker.start();
      await addNotes(b.app, 6);
      worker.kick();
      await until(async () => (await b.app.store.embeddingCounts()).embedded === 6, 'six vectors');
      assert.equal(worker.state.running, true);
      assert.equal(worker.state.lastError, null);
    } finally {
      await worker.close();
      assert.equal(worker.state.running, false);
      await b.close();
    }
  });

  test('an endpoint that is down is retried with pauses, logged, and the queue finishes once it is back', async () => {
    const b = build(`${t.dir}/down`, server);
    const worker = quickWorker(b.app);
    try {
      await addNotes(b.app, 5);
      await server.down();
      worker.start();
      await until(async () => worker.state.lastError?.code === 'UPSTREAM_UNAVAILABLE', 'the failure to show');
      assert.ok(b.logs.some((l) => l.includes('WARN embedding paused') && l.includes('UPSTREAM_UNAVAILABLE')), b.logs.join(''));
      assert.equal(worker.state.lastError?.retryable, true);
      assert.equal((await b.app.store.embeddingCounts()).embedded, 0);
      await server.up();
      await until(async () => (await b.app.store.embeddingCounts()).embedded === 5, 'the queue to finish');
      await until(async () => worker.state.lastError === null, 'the error to clear');
      assert.ok(b.logs.some((l) => l.includes('embeddings endpoint answers again')));
    } finally {
      await worker.close();
      await b.close();
    }
  });

  test('5xx answers are retried the same way; nothing is lost', async () => {
    const b = build(`${t.dir}/fivexx`, server);
    const worker = quickWorker(b.app);
    try {
      await addNotes(b.app, 5);
      server.fail({ mode: 'status', status: 503 }, { times: 3, endpoint: 'embeddings' });
      worker.start();
      await until(async () => (await b.app.store.embeddingCounts()).embedded === 5, 'the queue to finish');
      assert.ok(b.logs.some((l) => l.includes('UPSTREAM_FAILED')));
    } finally {
      server.fail(undefined);
      await worker.close();
      await b.close();
    }
  });

  test('a passage the endpoint refuses (400) is skipped alone; the rest of its batch is stored', async () => {
    const b = build(`${t.dir}/refused`, server);
    try {
      await addNotes(b.app, 4);
      await b.app.embedder!.drain();
      await addNotes(b.app, 4, 'fresh');
      // The batch is refused, then its first passage alone; the other three are embedded one by one.
      server.fail({ mode: 'status', status: 400 }, { times: 2, endpoint: 'embeddings' });
      assert.equal(await b.app.embedder!.drain(), 3);
      const counts = await b.app.store.embeddingCounts();
      assert.equal(counts.failed, 1);
      assert.equal(counts.queued, 0);
      assert.equal(counts.embedded, 7);
      assert.ok(b.logs.some((l) => l.includes('refused a passage')));
    } finally {
      server.fail(undefined);
      await b.close();
    }
  });

  test('wrong vector lengths stop the batch with UPSTREAM_INVALID and keep it queued', async () => {
    const b = build(`${t.dir}/invalid`, server, { TROVE_SEMANTIC_DIMENSIONS: '24' });
    try {
      await addNotes(b.app, 3);
      server.fail({ mode: 'wrong_length' }, { times: 1, endpoint: 'embeddings' });
      await assert.rejects(b.app.embedder!.drain(), (e: any) => e.code === 'UPSTREAM_INVALID');
      assert.equal((await b.app.store.embeddingCounts()).queued, 3);
      assert.equal(await b.app.embedder!.drain(), 3);
    } finally {
      await b.close();
    }
  });

  test('another model re-embeds everything; restarting with the same model does not', async () => {
    const dir = `${t.dir}/model`;
    let b = build(dir, server);
    await addNotes(b.app, 5);
    assert.equal(await b.app.embedder!.drain(), 5);
    await b.close();
    b = build(dir, server);
    assert.equal(await b.app.embedder!.drain(), 0, 'same model after a restart: nothing to do');
    await b.close();
    b = build(dir, server, { TROVE_SEMANTIC_MODEL: 'other-model', TROVE_SEMANTIC_DIMENSIONS: '12' });
    try {
      assert.equal(await b.app.embedder!.drain(), 5);
      assert.deepEqual(await b.app.store.embeddingCounts(), { space: { model: 'other-model', dimensions: 12 }, embedded: 5, queued: 0, failed: 0 });
      assert.ok(b.logs.some((l) => l.includes('embedding every passage for a new model')));
    } finally {
      await b.close();
    }
  });

  test('two processes with different models: the one whose index moved reports CONFLICT, then takes it back', async () => {
    const dir = `${t.dir}/conflict`;
    const a = build(dir, server);
    const b = build(dir, server, { TROVE_SEMANTIC_MODEL: 'model-b' });
    try {
      await addNotes(a.app, 3);
      assert.equal(await a.app.embedder!.drain(), 3);
      assert.equal(await b.app.embedder!.drain(), 3, 'b moves the store to its model');
      await addNotes(a.app, 1, 'late');
      await assert.rejects(a.app.embedder!.drain(), (e: any) => e.code === 'CONFLICT');
      assert.equal(await a.app.embedder!.drain(), 4, 'a reopens its model: everything again');
      assert.equal((await a.app.store.embeddingCounts()).space?.model, 'fake-model');
    } finally {
      await b.close();
      await a.close();
    }
  });

  test('without [semantic] there is no embedder and writes still queue for later', async () => {
    const dir = `${t.dir}/off`;
    const config = loadConfig({ dataDir: dir, env: { XDG_CONFIG_HOME: dir } });
    const app = createApp(config, createLogger('silent'), { extractionWorkers: 0 });
    try {
      assert.equal(app.embeddings, undefined);
      assert.equal(app.embedder, undefined);
      await addNotes(app, 2);
    } finally {
      await app.close();
    }
    const b = build(dir, server);
    try {
      assert.equal(await b.app.embedder!.drain(), 2);
    } finally {
      await b.close();
    }
  });
});

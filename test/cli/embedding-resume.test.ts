import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/load.js';
import { createLogger } from '../../src/log.js';
import { addContents } from '../../src/service/documents.js';
import { SqliteStore } from '../../src/store/sqlite/store.js';
import { TROVE_BIN, cliEnv, ok, parseJson, runCli, startServe } from '../cli-run.js';
import { tempDir } from '../helpers.js';
import { call, stdioClient } from '../mcp/client.js';
import { type OpenAiServer, fakeEmbedding, startOpenAiServer } from '../providers/openai-server.js';

// The embedding queue survives a kill: `trove serve` (the built CLI) is SIGKILLed while a batch is in
// flight, started again, and finishes with every passage embedded exactly once. `trove mcp` embeds too.

const N = 300;
const BATCH = 16;
const DIMS = 64;
const WORDS = ['amber', 'birch', 'cobalt', 'dune', 'ember', 'fjord', 'garnet', 'harbor', 'iris', 'juniper', 'kelp', 'lagoon', 'maple', 'nectar', 'onyx', 'pebble', 'quartz', 'reef', 'saffron', 'tundra'];

const title = (i: number) => `Field note ${i}`;
const text = (i: number) => `Entry ${i}: ${WORDS[i % 20]} ${WORDS[Math.floor(i / 20) % 20]} and ${WORDS[(i * 7) % 20]} near the ${WORDS[(i * 3 + 1) % 20]} camp.`;
const url = (i: number) => `https://notes.example/${i}`;

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 6000; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  assert.fail(`gave up waiting for ${what}`);
}

describe('embedding queue across a kill', () => {
  const t = tempDir('trove-resume-');
  const dataDir = join(t.dir, 'data');
  let server: OpenAiServer;
  let env: NodeJS.ProcessEnv;

  before(async () => {
    server = await startOpenAiServer({ dimensions: DIMS });
    env = cliEnv(t.dir, {
      TROVE_DATA_DIR: dataDir, TROVE_SEMANTIC_ENABLED: 'true', TROVE_SEMANTIC_BASE_URL: server.url,
      TROVE_SEMANTIC_MODEL: 'fake-model', TROVE_SEMANTIC_BATCH_SIZE: String(BATCH), TROVE_LOG_LEVEL: 'warn',
    });
    // Written without semantic search: the passages wait in the queue the writes filled.
    const app = createApp(loadConfig({ dataDir, env: { XDG_CONFIG_HOME: t.dir } }), createLogger('silent'), { extractionWorkers: 0 });
    await addContents(app, Array.from({ length: N }, (_, i) => ({ url: url(i), title: title(i), text: text(i), source: 'test' })));
    assert.equal((await app.store.info()).counts.chunks, N);
    await app.close();
  });
  after(async () => {
    await server.close();
    t.cleanup();
  });

  test('SIGKILL in the middle, then a restart: all passages embedded once, each with its own vector', async () => {
    const first = await startServe([], env);
    await server.waitForEmbeddingRequests(6);
    server.pause();
    await server.waitForHeld(1);
    const exited = new Promise((r) => first.child.once('exit', r));
    first.child.kill('SIGKILL');
    await exited;
    server.resume();

    const store = new SqliteStore({ path: join(dataDir, 'trove.db'), busyTimeoutMs: 5000 });
    try {
      const mid = await store.embeddingCounts();
      assert.ok(mid.embedded > 0 && mid.embedded < N, `killed in the middle: ${JSON.stringify(mid)}`);
      assert.equal(mid.embedded + mid.queued, N);

      const second = await startServe([], env);
      try {
        await until(async () => (await store.embeddingCounts()).queued === 0, 'the queue to finish');
      } finally {
        await second.stop();
      }
      assert.equal(second.child.exitCode, 0, second.stderr());
      assert.deepEqual(await store.embeddingCounts(), { space: { model: 'fake-model', dimensions: DIMS }, embedded: N, queued: 0, failed: 0 });

      for (let i = 0; i < N; i++) {
        const vector = Float32Array.from(fakeEmbedding(`${title(i)}\n\n${text(i)}`, DIMS));
        const hits = (await store.searchVectors({ space: { model: 'fake-model', dimensions: DIMS }, vector, filter: { scope: { all: true }, bankId: null }, limit: 3 }))!;
        const own = hits.find((h) => h.url === url(i));
        assert.ok(own && own.score > 0.999, `note ${i} has its own vector`);
      }
    } finally {
      await store.close();
    }

    const sent = server.embeddingRequests().flatMap((r) => r.body.input as string[]).filter((s) => s !== 'trove');
    assert.equal(new Set(sent).size, N, 'every passage was sent');
    assert.ok(sent.length <= N + BATCH, `only the batch in flight at the kill was sent again (${sent.length} sent)`);
  });

  test('`trove mcp` embeds in the background too, and the tools rank by meaning', async () => {
    const more = Array.from({ length: 3 }, (_, i) => ({ url: `https://mcp.example/${i}`, title: `Vet visit ${i}`, text: `Took the puppy to the clinic, visit ${i}.`, source: 'test' }));
    const app = createApp(loadConfig({ dataDir, env: { XDG_CONFIG_HOME: t.dir } }), createLogger('silent'), { extractionWorkers: 0 });
    await addContents(app, more);
    await app.close();
    const client = await stdioClient(process.execPath, [TROVE_BIN, 'mcp'], env as Record<string, string>, 'legacy');
    const store = new SqliteStore({ path: join(dataDir, 'trove.db'), busyTimeoutMs: 5000 });
    try {
      await until(async () => (await store.embeddingCounts()).embedded === N + 3, 'the new passages to be embedded');
      const r = await call(client, 'search', { query: 'dog clinic', semantic: true, limit: 3 });
      assert.equal(r.trusted.mode, 'hybrid');
      assert.match(r.untrusted_content[0].fields.url, /^https:\/\/mcp\.example\//);
    } finally {
      await store.close();
      await client.close();
    }
    const cli = parseJson(ok(await runCli(['search', '--semantic', '--json', '--limit', '3', 'dog', 'clinic'], { env })));
    assert.equal(cli.mode, 'hybrid');
    assert.match(cli.results[0].url, /^https:\/\/mcp\.example\//);
    const plain = ok(await runCli(['search', '--semantic', 'dog', 'clinic'], { env: { ...env, TROVE_SEMANTIC_ENABLED: 'false' } }));
    assert.match(plain.stderr, /semantic search is not configured/);
  });
});

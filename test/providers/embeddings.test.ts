import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../src/config/load.js';
import { TroveError } from '../../src/errors.js';
import { createProviders } from '../../src/providers/create.js';
import type { EmbeddingsProvider } from '../../src/providers/types.js';
import { type OpenAiServer, type OpenAiServerOptions, cosine, fakeEmbedding, startOpenAiServer } from './openai-server.js';

// The embeddings provider contract, run against a local server speaking the OpenAI embeddings API,
// set up the way Ollama (no key, learns the length) and OpenAI (key, asked length, base_url with /v1) run.

const KEY = 'sk-test-secret-key-0123456789abcdef';

interface Setup {
  name: string;
  server: OpenAiServerOptions;
  /** TROVE_SEMANTIC_* values besides enabled/base_url. */
  env: (url: string) => Record<string, string>;
  dimensions: number;
}

const SETUPS: Setup[] = [
  {
    name: 'ollama-like',
    server: { dimensions: 48, models: ['nomic-embed-text'] },
    env: (url) => ({ TROVE_SEMANTIC_BASE_URL: url, TROVE_SEMANTIC_MODEL: 'nomic-embed-text' }),
    dimensions: 48,
  },
  {
    name: 'openai-like',
    server: { dimensions: 1536, apiKey: KEY, models: ['text-embedding-3-small'], reverseOrder: true },
    env: (url) => ({
      TROVE_SEMANTIC_BASE_URL: `${url}/v1`, TROVE_SEMANTIC_MODEL: 'text-embedding-3-small',
      TROVE_SEMANTIC_DIMENSIONS: '256', TROVE_SEMANTIC_API_KEY: KEY, TROVE_SEMANTIC_BATCH_SIZE: '3',
    }),
    dimensions: 256,
  },
];

function providerFor(url: string, env: Record<string, string>): EmbeddingsProvider {
  const config = loadConfig({ dataDir: '/nonexistent', env: { XDG_CONFIG_HOME: '/nonexistent', TROVE_SEMANTIC_ENABLED: 'true', TROVE_SEMANTIC_TIMEOUT_MS: '2000', ...env } });
  const p = createProviders(config).embeddings;
  assert.ok(p);
  return p;
}

async function rejectsWith(call: Promise<unknown>, code: string, check?: (e: TroveError) => void): Promise<void> {
  await assert.rejects(call, (err: unknown) => {
    assert.ok(err instanceof TroveError, `not a TroveError: ${String(err)}`);
    assert.equal(err.code, code, err.message);
    assert.ok(!err.message.includes(KEY) && !JSON.stringify(err.details ?? {}).includes(KEY), 'the api key leaks');
    assert.doesNotMatch(err.message, /\n\s+at /, 'a stack leaks');
    check?.(err);
    return true;
  });
}

for (const setup of SETUPS) {
  describe(`embeddings provider contract: ${setup.name}`, () => {
    let server: OpenAiServer;
    let provider: EmbeddingsProvider;
    before(async () => {
      server = await startOpenAiServer(setup.server);
      provider = providerFor(server.url, setup.env(server.url));
    });
    after(() => server.close());

    test('one vector per text, in order, of the model length, the same as the server computes', async () => {
      const texts = ['My physician said to rest', 'The doctor told me to rest', 'rust borrow checker', 'sourdough starter', 'an empty one:', 'sixth', 'seventh'];
      const vectors = await provider.embed(texts);
      assert.equal(vectors.length, texts.length);
      assert.equal(provider.dimensions, setup.dimensions);
      texts.forEach((t, i) => {
        assert.ok(vectors[i] instanceof Float32Array);
        assert.equal(vectors[i]!.length, setup.dimensions);
        const expected = fakeEmbedding(t, setup.dimensions);
        assert.ok(cosine(vectors[i]!, expected) > 0.9999, `vector ${i} is not the one for its text`);
      });
      assert.ok(cosine(vectors[0]!, vectors[1]!) > cosine(vectors[0]!, vectors[2]!), 'paraphrases are closer than unrelated texts');
    });

    test('sends the model, the asked length and the key as the endpoint expects, in batches of batch_size', async () => {
      const before = server.embeddingRequests().length;
      await provider.embed(['a', 'b', 'c', 'd', 'e']);
      const sent = server.embeddingRequests().slice(before);
      const batch = setup.name === 'openai-like' ? 3 : 32;
      assert.equal(sent.length, Math.ceil(5 / batch));
      assert.deepEqual(sent.flatMap((r) => r.body.input), ['a', 'b', 'c', 'd', 'e']);
      for (const r of sent) {
        assert.equal(r.body.model, setup.name === 'openai-like' ? 'text-embedding-3-small' : 'nomic-embed-text');
        if (setup.name === 'openai-like') {
          assert.equal(r.body.dimensions, 256);
          assert.equal(r.headers.authorization, `Bearer ${KEY}`);
        } else {
          assert.equal(r.body.dimensions, undefined, 'no length is asked when the config leaves it to the model');
          assert.equal(r.headers.authorization, undefined);
        }
      }
    });

    test('an empty list asks nothing', async () => {
      const before = server.requests.length;
      assert.deepEqual(await provider.embed([]), []);
      assert.equal(server.requests.length, before);
    });

    test('5xx and 429 are UPSTREAM_FAILED, retryable', async () => {
      server.fail({ mode: 'status', status: 500 }, { times: 1 });
      await rejectsWith(provider.embed(['x']), 'UPSTREAM_FAILED', (e) => {
        assert.equal(e.spec.retryable, true);
        assert.equal(e.details?.status, 500);
        assert.equal(e.details?.service, 'embeddings');
      });
      server.fail({ mode: 'status', status: 429 }, { times: 1 });
      await rejectsWith(provider.embed(['x']), 'UPSTREAM_FAILED');
      assert.equal((await provider.embed(['x'])).length, 1, 'the next call works again');
    });

    test('an unknown model is UPSTREAM_REJECTED with the upstream code', async () => {
      const other = providerFor(server.url, { ...setup.env(server.url), TROVE_SEMANTIC_MODEL: 'no-such-model' });
      await rejectsWith(other.embed(['x']), 'UPSTREAM_REJECTED', (e) => {
        assert.equal(e.details?.status, 404);
        assert.equal(e.details?.upstream_code, 'model_not_found');
        assert.equal(e.spec.retryable, false);
      });
    });

    test('no answer within timeout_ms is UPSTREAM_TIMEOUT', async () => {
      server.fail({ mode: 'hang' }, { times: 1 });
      const quick = providerFor(server.url, { ...setup.env(server.url), TROVE_SEMANTIC_TIMEOUT_MS: '200' });
      await rejectsWith(quick.embed(['x']), 'UPSTREAM_TIMEOUT', (e) => assert.equal(e.spec.retryable, true));
      server.resume();
    });

    test('vectors of the wrong length or count, non-JSON and malformed answers are UPSTREAM_INVALID', async () => {
      for (const mode of ['wrong_length', 'wrong_count', 'not_json'] as const) {
        server.fail({ mode }, { times: 1 });
        await rejectsWith(provider.embed(['one', 'two']), 'UPSTREAM_INVALID', (e) => assert.equal(e.spec.retryable, false));
      }
      server.fail({ mode: 'status', status: 200, body: '{"data": "nope"}' }, { times: 1 });
      await rejectsWith(provider.embed(['x']), 'UPSTREAM_INVALID');
    });

    test('a reset connection and a server that is down are UPSTREAM_UNAVAILABLE, retryable', async () => {
      server.fail({ mode: 'reset' }, { times: 1 });
      await rejectsWith(provider.embed(['x']), 'UPSTREAM_UNAVAILABLE', (e) => assert.equal(e.spec.retryable, true));
      await server.down();
      try {
        await rejectsWith(provider.embed(['x']), 'UPSTREAM_UNAVAILABLE', (e) => assert.match(e.message, /ECONNREFUSED|UND_ERR_SOCKET|cannot be reached/));
      } finally {
        await server.up();
      }
      assert.equal((await provider.embed(['back'])).length, 1);
    });
  });
}

describe('embeddings provider: keys and config', () => {
  let server: OpenAiServer;
  before(async () => {
    server = await startOpenAiServer({ apiKey: KEY });
  });
  after(() => server.close());

  test('a wrong or missing key is UPSTREAM_REJECTED 401, and neither key shows in the error', async () => {
    const wrong = providerFor(server.url, { TROVE_SEMANTIC_BASE_URL: server.url, TROVE_SEMANTIC_API_KEY: 'sk-wrong-9876543210' });
    await rejectsWith(wrong.embed(['x']), 'UPSTREAM_REJECTED', (e) => {
      assert.equal(e.details?.status, 401);
      assert.ok(!e.message.includes('sk-wrong-9876543210'));
    });
    const none = providerFor(server.url, { TROVE_SEMANTIC_BASE_URL: server.url });
    await rejectsWith(none.embed(['x']), 'UPSTREAM_REJECTED', (e) => assert.equal(e.details?.status, 401));
  });

  test('a base_url with credentials sends them as Basic authentication and never shows them in errors', async () => {
    const open = await startOpenAiServer();
    try {
      const basic = providerFor(open.url, { TROVE_SEMANTIC_BASE_URL: open.url.replace('http://', 'http://alice:hunter2@') });
      assert.equal((await basic.embed(['x'])).length, 1);
      assert.equal(open.requests.at(-1)!.headers.authorization, `Basic ${Buffer.from('alice:hunter2').toString('base64')}`);
    } finally {
      await open.close();
    }
    await server.down();
    try {
      const withUser = providerFor(server.url, { TROVE_SEMANTIC_BASE_URL: server.url.replace('http://', 'http://alice:hunter2@') });
      await rejectsWith(withUser.embed(['x']), 'UPSTREAM_UNAVAILABLE', (e) => assert.ok(!e.message.includes('hunter2')));
    } finally {
      await server.up();
    }
  });

  test('semantic.enabled without a model is INVALID_CONFIG; disabled makes no provider', () => {
    const env = { XDG_CONFIG_HOME: '/nonexistent', TROVE_SEMANTIC_ENABLED: 'true', TROVE_SEMANTIC_MODEL: ' ' };
    assert.throws(() => createProviders(loadConfig({ dataDir: '/nonexistent', env })), (e: unknown) => e instanceof TroveError && e.code === 'INVALID_CONFIG');
    const off = createProviders(loadConfig({ dataDir: '/nonexistent', env: { XDG_CONFIG_HOME: '/nonexistent' } }));
    assert.equal(off.embeddings, undefined);
    assert.equal(off.llm, undefined);
    assert.equal(off.searxng, undefined);
  });

  test('base_url must be an http(s) URL', () => {
    const env = { XDG_CONFIG_HOME: '/nonexistent', TROVE_SEMANTIC_BASE_URL: 'localhost:11434' };
    assert.throws(() => loadConfig({ dataDir: '/nonexistent', env }), (e: unknown) => e instanceof TroveError && e.code === 'INVALID_CONFIG');
  });
});

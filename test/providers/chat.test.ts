import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../src/config/load.js';
import { TroveError } from '../../src/errors.js';
import { createProviders } from '../../src/providers/create.js';
import type { ChatProvider } from '../../src/providers/types.js';
import { type OpenAiServer, startOpenAiServer } from './openai-server.js';

// The chat provider against a local server speaking the OpenAI chat-completions API.

const KEY = 'sk-chat-secret-0123456789';

function chatFor(url: string, env: Record<string, string> = {}): ChatProvider {
  const config = loadConfig({
    dataDir: '/nonexistent',
    env: { XDG_CONFIG_HOME: '/nonexistent', TROVE_LLM_ENABLED: 'true', TROVE_LLM_BASE_URL: url, TROVE_LLM_MODEL: 'llama3.2', TROVE_LLM_API_KEY: KEY, ...env },
  });
  const llm = createProviders(config).llm;
  assert.ok(llm);
  return llm;
}

async function rejectsWith(call: Promise<unknown>, code: string): Promise<void> {
  await assert.rejects(call, (err: unknown) => {
    assert.ok(err instanceof TroveError);
    assert.equal(err.code, code, err.message);
    assert.ok(!err.message.includes(KEY));
    return true;
  });
}

describe('chat provider', () => {
  let server: OpenAiServer;
  before(async () => {
    server = await startOpenAiServer({
      apiKey: KEY,
      models: ['llama3.2'],
      chat: (messages) => `answer to "${messages.at(-1)!.content}" after ${messages.length} messages`,
    });
  });
  after(() => server.close());

  test('sends model, messages, max_tokens and temperature; returns the content and usage', async () => {
    const llm = chatFor(server.url);
    const r = await llm.complete({ messages: [{ role: 'system', content: 'be brief' }, { role: 'user', content: 'what is trove' }], maxTokens: 128, temperature: 0.2 });
    assert.equal(r.text, 'answer to "what is trove" after 2 messages');
    assert.deepEqual(r.usage, { promptTokens: 5, completionTokens: 8 });
    const sent = server.chatRequests().at(-1)!;
    assert.equal(sent.body.model, 'llama3.2');
    assert.equal(sent.body.max_tokens, 128);
    assert.equal(sent.body.temperature, 0.2);
    assert.deepEqual(sent.body.messages, [{ role: 'system', content: 'be brief' }, { role: 'user', content: 'what is trove' }]);
    assert.equal(sent.headers.authorization, `Bearer ${KEY}`);
  });

  test('a base_url ending in /v1 is not doubled', async () => {
    const r = await chatFor(`${server.url}/v1/`).complete({ messages: [{ role: 'user', content: 'hi' }], maxTokens: 8 });
    assert.match(r.text, /^answer to "hi"/);
    assert.equal(server.chatRequests().at(-1)!.path, '/v1/chat/completions');
  });

  test('failures map to codes: 503, timeout, not JSON, no content, wrong key, down', async () => {
    const ask = (llm = chatFor(server.url)) => llm.complete({ messages: [{ role: 'user', content: 'q' }], maxTokens: 8 });
    server.fail({ mode: 'status', status: 503 }, { times: 1, endpoint: 'chat' });
    await rejectsWith(ask(), 'UPSTREAM_FAILED');
    server.fail({ mode: 'hang' }, { times: 1, endpoint: 'chat' });
    await rejectsWith(ask(chatFor(server.url, { TROVE_LLM_TIMEOUT_MS: '200' })), 'UPSTREAM_TIMEOUT');
    server.resume();
    server.fail({ mode: 'not_json' }, { times: 1, endpoint: 'chat' });
    await rejectsWith(ask(), 'UPSTREAM_INVALID');
    server.fail({ mode: 'status', status: 200, body: '{"choices": []}' }, { times: 1, endpoint: 'chat' });
    await rejectsWith(ask(), 'UPSTREAM_INVALID');
    await rejectsWith(ask(chatFor(server.url, { TROVE_LLM_API_KEY: 'sk-wrong' })), 'UPSTREAM_REJECTED');
    await server.down();
    try {
      await rejectsWith(ask(), 'UPSTREAM_UNAVAILABLE');
    } finally {
      await server.up();
    }
    assert.match((await ask()).text, /^answer to "q"/);
  });

  test('an aborted call rejects with the abort, not an upstream error', async () => {
    server.fail({ mode: 'hang' }, { times: 1, endpoint: 'chat' });
    const ac = new AbortController();
    const call = chatFor(server.url).complete({ messages: [{ role: 'user', content: 'q' }], maxTokens: 8, signal: ac.signal });
    await server.waitForHeld(1);
    ac.abort(new Error('caller went away'));
    await assert.rejects(call, /caller went away/);
    server.resume();
  });

  test('llm.enabled without a model is INVALID_CONFIG', () => {
    const env = { XDG_CONFIG_HOME: '/nonexistent', TROVE_LLM_ENABLED: 'true' };
    assert.throws(() => createProviders(loadConfig({ dataDir: '/nonexistent', env })), (e: unknown) => e instanceof TroveError && e.code === 'INVALID_CONFIG');
  });
});

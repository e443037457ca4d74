import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/load.js';
import { createLogger } from '../../src/log.js';
import { authorize } from '../../src/service/access.js';
import { retain } from '../../src/service/memory.js';
import { TROVE_BIN, cliEnv, failed, ok, runCli } from '../cli-run.js';
import { tempDir } from '../helpers.js';
import { ERAS, type Era, call, stdioClient } from './client.js';

// Banks over stdio: `trove mcp --bank NAME`, else mcp.default_bank (TROVE_MCP_DEFAULT_BANK).

describe('memory banks over stdio (trove mcp)', () => {
  let root: ReturnType<typeof tempDir>;
  let env: Record<string, string>;
  let data: string;

  before(async () => {
    root = tempDir('trove-mcp-bank-');
    env = cliEnv(root.dir) as Record<string, string>;
    data = join(root.dir, 'data');
    ok(await runCli(['--data-dir', data, 'create-user', 'dana'], { env }));
    // A user's bank "alice": the stdio owner's bank of that name is another bank.
    const app = createApp(loadConfig({ dataDir: data, env: { XDG_CONFIG_HOME: join(root.dir, 'config') } }), createLogger('silent'));
    try {
      const dana = authorize({ kind: 'user', userId: (await app.store.getUser('dana'))!.id, name: 'dana', admin: false }, 'memory.write');
      await retain(app, { bank: 'alice', content: 'Dana rides a tandem bicycle to work', source: 'api', grant: dana });
    } finally {
      await app.close();
    }
  });
  after(() => root.cleanup());

  async function session<T>(era: Era, args: string[], fn: (c: Client) => Promise<T>, extraEnv: Record<string, string> = {}): Promise<T> {
    const c = await stdioClient(process.execPath, [TROVE_BIN, '--data-dir', data, 'mcp', ...args], { ...env, ...extraEnv }, era, 'Claude Desktop');
    try {
      return await fn(c);
    } finally {
      await c.close();
    }
  }

  async function seen(c: Client, words: string, chunkId: string) {
    return {
      bank: (await call(c, 'recall', { query: words })).trusted.bank,
      recall: (await call(c, 'recall', { query: words })).untrusted_content.map((x: any) => x.fields.text),
      search: (await call(c, 'memory.search', { query: words })).trusted.result_count,
      browse: (await call(c, 'tree.browse', { source_kinds: ['memory'] })).trusted.result_count,
      read: (await call(c, 'tree.read_chunk', { chunk_id: chunkId })).ok === true,
      history: (await call(c, 'search', { query: words })).trusted.result_count,
    };
  }

  for (const era of ERAS) {
    test(`${era}: retain -> recall round trip in bank alice, invisible from bob, the default bank and other users`, async () => {
      const fact = `The user owns a red kayak named Wavelet (${era})`;
      const words = `kayak Wavelet ${era}`;
      const { id, chunkId, provenance } = await session(era, ['--bank', `alice-${era}`], async (c) => {
        const r = await call(c, 'retain', { content: fact, context: 'hobbies' });
        assert.deepEqual([r.trusted.bank, r.trusted.merged], [`alice-${era}`, false]);
        const found = await call(c, 'recall', { query: 'What kind of boat does the user own?' });
        assert.deepEqual(found.untrusted_content[0].fields, { id: r.trusted.id, text: fact, type: 'world', context: 'hobbies', event_date: null });
        const chunk = (await call(c, 'tree.browse', { source_kinds: ['memory'] })).untrusted_content[0].fields;
        return { id: r.trusted.id, chunkId: chunk.chunk_id, provenance: chunk.source_id };
      });
      assert.match(id, /^[0-9A-Z]{26}$/);
      assert.equal(provenance, 'memory:mcp:claude-desktop', 'the client is the provenance');
      const visible = { bank: `alice-${era}`, recall: [fact], search: 1, browse: 1, read: true, history: 1 };
      assert.deepEqual(await session(era, ['--bank', `alice-${era}`], (c) => seen(c, words, chunkId)), visible);
      assert.deepEqual(await session(era, [], (c) => seen(c, words, chunkId), { TROVE_MCP_DEFAULT_BANK: `alice-${era}` }), visible);
      const hidden = { recall: [], search: 0, browse: 0, read: false, history: 0 };
      assert.deepEqual(await session(era, ['--bank', 'bob'], (c) => seen(c, words, chunkId)), { ...hidden, bank: 'bob' });
      assert.deepEqual(await session(era, [], (c) => seen(c, words, chunkId)), { ...hidden, bank: 'default' });
    });
  }

  test("a user's bank of the same name stays theirs", async () => {
    const r = await session('modern', ['--bank', 'alice'], (c) => call(c, 'recall', { query: 'tandem bicycle' }));
    assert.deepEqual(r.untrusted_content, []);
  });

  test('a malformed --bank is refused before serving', async () => {
    failed(await runCli(['--data-dir', data, 'mcp', '--bank', 'a/b'], { env }), 'INVALID_ARGUMENT');
    failed(await runCli(['--data-dir', data, 'mcp', '--bank', '..'], { env }), 'INVALID_ARGUMENT');
  });
});

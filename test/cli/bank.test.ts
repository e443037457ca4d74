import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/load.js';
import { createLogger } from '../../src/log.js';
import { OWNER, authorize } from '../../src/service/access.js';
import { retain } from '../../src/service/memory.js';
import { cliEnv, failed, failedJson, ok, parseJson, runCli } from '../cli-run.js';
import { tempDir } from '../helpers.js';

// `trove bank list | delete` on the store in-process: the owner's banks, or a user's with --user.

describe('trove bank', () => {
  let root: ReturnType<typeof tempDir>;
  let data: string;
  const trove = (...args: string[]) => runCli(['--data-dir', data, ...args], { env: cliEnv(root.dir) });

  before(async () => {
    root = tempDir('trove-cli-bank-');
    data = join(root.dir, 'data');
    ok(await trove('create-user', 'carol'));
    const app = createApp(loadConfig({ dataDir: data, env: { XDG_CONFIG_HOME: join(root.dir, 'config') } }), createLogger('silent'));
    try {
      const owner = authorize(OWNER, 'memory.write');
      const carol = authorize({ kind: 'user', userId: (await app.store.getUser('carol'))!.id, name: 'carol', admin: false }, 'memory.write');
      await retain(app, { bank: 'work', content: 'Standup is at 9:30', source: 'mcp:test', grant: owner });
      await retain(app, { bank: 'work', content: 'The build runs on Fridays', source: 'mcp:test', grant: owner });
      await retain(app, { bank: 'home', content: 'Bins go out on Tuesday', source: 'mcp:test', grant: owner });
      await retain(app, { bank: 'diary', content: 'Carol started pottery classes', source: 'mcp:test', grant: carol });
    } finally {
      await app.close();
    }
  });
  after(() => root.cleanup());

  test('list: the owner\u2019s banks, or a user\u2019s with --user', async () => {
    const text = ok(await trove('bank', 'list')).stdout;
    assert.match(text, /^home\s+1 memory\s+last activity \d{4}-\d\d-\d\dT[\d:.]+Z\nwork\s+2 memories\s+last activity .+\n2 banks\n$/);
    const json = parseJson(ok(await trove('bank', 'list', '--json')));
    assert.deepEqual(json.banks.map((b: any) => [b.name, b.memories]), [['home', 1], ['work', 2]]);
    assert.deepEqual(Object.keys(json.banks[0]).sort(), ['created', 'last_activity', 'memories', 'name']);
    assert.deepEqual(parseJson(ok(await trove('bank', 'list', '--user', 'carol', '--json'))).banks.map((b: any) => b.name), ['diary']);
    failed(await trove('bank', 'list', '--user', 'nobody'), 'NOT_FOUND');
  });

  test('delete: the bank and its memories; unknown and malformed names fail with a code', async () => {
    assert.equal(ok(await trove('bank', 'delete', 'work')).stdout, 'deleted bank work (2 memories)\n');
    assert.deepEqual(parseJson(ok(await trove('bank', 'list', '--json'))).banks.map((b: any) => b.name), ['home']);
    failed(await trove('bank', 'delete', 'work'), 'NOT_FOUND');
    failedJson(await trove('bank', 'delete', 'work', '--json'), 'NOT_FOUND');
    failed(await trove('bank', 'delete', 'no/slashes'), 'INVALID_ARGUMENT');
    failed(await trove('bank', 'delete', 'diary'), 'NOT_FOUND', 1);
    assert.deepEqual(parseJson(ok(await trove('bank', 'delete', 'diary', '--user', 'carol', '--json'))), { bank: 'diary', deleted: true, memories: 1 });
    assert.equal(ok(await trove('bank', 'list', '--user', 'carol')).stdout, '0 banks\n');
  });
});

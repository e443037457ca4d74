import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/load.js';
import { createLogger } from '../../src/log.js';
import { addContent } from '../../src/service/documents.js';
import { recordOpened } from '../../src/service/history.js';
import { type CliResult, cliEnv, failed, failedJson, ok, parseJson, runCli } from '../cli-run.js';
import { tempDir } from '../helpers.js';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

function failedWithField(r: CliResult, code: string, field: string): void {
  assert.equal(failedJson(r, code).error.details?.field, field);
}

describe('trove history', () => {
  let root: ReturnType<typeof tempDir>;
  let data: string;
  const trove = (...args: string[]) => runCli(['--data-dir', data, ...args], { env: cliEnv(root.dir) });

  before(async () => {
    root = tempDir('trove-cli-history-');
    data = join(root.dir, 'data');
    // Documents and opened results written in-process into the store the CLI then reads.
    const app = createApp(loadConfig({ dataDir: data, env: { XDG_CONFIG_HOME: join(root.dir, 'config') } }), createLogger('silent'));
    try {
      for (let i = 0; i < 3; i++) {
        await addContent(app, { url: `https://cli.example/${i}`, title: `Doc ${i}`, text: `document ${i}`, source: 'test', capturedAt: Date.UTC(2026, 0, 1 + i) });
      }
      await recordOpened(app, { url: 'https://cli.example/1', query: 'doc one' });
      await recordOpened(app, { url: 'https://gone.example/', title: 'Gone' });
    } finally {
      await app.close();
    }
  });
  after(() => root?.cleanup());

  test('--json: indexed documents newest first, paged with --page-key', async () => {
    const all = parseJson(ok(await trove('history', '--json')));
    assert.equal(all.mode, 'indexed');
    assert.deepEqual(all.items.map((i: any) => i.title), ['Doc 2', 'Doc 1', 'Doc 0']);
    assert.deepEqual(Object.keys(all.items[0]), ['id', 'title', 'url', 'indexed', 'version_count']);
    assert.equal(all.items[0].indexed, '2026-01-03T00:00:00.000Z');
    assert.ok(!('next_page_key' in all));
    const first = parseJson(ok(await trove('history', '--limit', '2', '--json')));
    assert.equal(first.items.length, 2);
    const rest = parseJson(ok(await trove('history', '--limit', '2', '--page-key', first.next_page_key, '--json')));
    assert.deepEqual(rest.items.map((i: any) => i.title), ['Doc 0']);
    assert.ok(!('next_page_key' in rest));
  });

  test('human output lists the items and how to get the next page', async () => {
    const r = ok(await trove('history', '--limit', '1'));
    assert.match(r.stdout, /^2026-01-03T00:00:00\.000Z  Doc 2\n   https:\/\/cli\.example\/2\n   1 version · id [0-9A-Z]{26}\n1 indexed item shown\nmore: trove history --page-key [A-Za-z0-9_-]+\n$/);
    const key = /--page-key (\S+)/.exec(r.stdout)![1]!;
    assert.match(ok(await trove('history', '--limit', '1', '--page-key', key)).stdout, /Doc 1/);
  });

  test('--opened: opened results with query and version count, paged with --last-id', async () => {
    const all = parseJson(ok(await trove('history', '--opened', '--json')));
    assert.equal(all.mode, 'opened');
    assert.deepEqual(all.items.map((i: any) => [i.title, i.query, i.version_count]), [['Gone', '', 0], ['Doc 1', 'doc one', 1]]);
    assert.match(all.items[0].opened, ISO);
    const first = parseJson(ok(await trove('history', '--opened', '--limit', '1', '--json')));
    assert.equal(first.next_last_id, all.items[0].id);
    const rest = parseJson(ok(await trove('history', '--opened', '--last-id', String(first.next_last_id), '--json')));
    assert.deepEqual(rest.items.map((i: any) => i.title), ['Doc 1']);
    assert.match(ok(await trove('history', '--opened', '--limit', '1')).stdout, /more: trove history --opened --last-id \d+\n$/);
  });

  test('bad flags are INVALID_ARGUMENT naming the field', async () => {
    failedWithField(await trove('history', '--page-key', 'garbage', '--json'), 'INVALID_ARGUMENT', 'page_key');
    failedWithField(await trove('history', '--limit', 'ten', '--json'), 'INVALID_ARGUMENT', 'limit');
    failedWithField(await trove('history', '--last-id', '3', '--json'), 'INVALID_ARGUMENT', 'last_id');
    failedWithField(await trove('history', '--opened', '--last-id', '0', '--json'), 'INVALID_ARGUMENT', 'last_id');
    failed(await trove('history', '--opened', '--page-key', 'aTEuMS4x'), 'INVALID_ARGUMENT');
  });
});

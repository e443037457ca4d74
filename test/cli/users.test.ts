import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/load.js';
import { createLogger } from '../../src/log.js';
import { hashToken, resolveToken } from '../../src/service/users.js';
import { type CliResult, cliEnv, failed, failedJson, ok, parseJson, runCli } from '../cli-run.js';
import { tempDir } from '../helpers.js';

const TOKEN = /trove_[A-Za-z0-9_-]{43}/g;

/** The one token a command printed. */
function tokenOf(r: CliResult): string {
  const found = r.stdout.match(TOKEN) ?? [];
  assert.equal(found.length, 1, r.stdout);
  return found[0]!;
}

describe('trove user commands', () => {
  let root: ReturnType<typeof tempDir>;
  let data: string;
  const tokens: string[] = [];
  const outputs: CliResult[] = [];
  const trove = async (...args: string[]) => {
    const r = await runCli(['--data-dir', data, ...args], { env: cliEnv(root.dir) });
    outputs.push(r);
    return r;
  };
  /** Resolves a token in-process against the store the CLI wrote. */
  const resolve = async (token: string) => {
    const app = createApp(loadConfig({ dataDir: data, env: { XDG_CONFIG_HOME: join(root.dir, 'config') } }), createLogger('silent'));
    try {
      return await resolveToken(app, token);
    } finally {
      await app.close();
    }
  };

  before(() => {
    root = tempDir('trove-cli-users-');
    data = join(root.dir, 'data');
  });
  after(() => root.cleanup());

  test('create-user prints the token once, on stdout; --json gives {user, token}', async () => {
    const alice = ok(await trove('create-user', 'alice'));
    const token = tokenOf(alice);
    tokens.push(token);
    assert.ok(!alice.stderr.includes(token));
    assert.deepEqual(await resolve(token).then((p) => p && { name: p.name, admin: p.admin }), { name: 'alice', admin: false });

    const bob = parseJson(ok(await trove('create-user', 'bob', '--admin', '--json')));
    assert.deepEqual(Object.keys(bob).sort(), ['token', 'user']);
    assert.equal(bob.user.name, 'bob');
    assert.equal(bob.user.admin, true);
    assert.match(bob.token, /^trove_[A-Za-z0-9_-]{43}$/);
    tokens.push(bob.token);
    assert.equal((await resolve(bob.token))?.admin, true);
  });

  test('create-user refuses a taken or malformed name', async () => {
    failed(await trove('create-user', 'alice'), 'CONFLICT');
    failedJson(await trove('create-user', 'alice', '--json'), 'CONFLICT');
    failed(await trove('create-user', 'no spaces'), 'INVALID_ARGUMENT');
    failed(await trove('create-user', 'x'.repeat(65)), 'INVALID_ARGUMENT');
  });

  test('show-user and list-users never show a token or its hash', async () => {
    const shown = parseJson(ok(await trove('show-user', 'alice', '--json')));
    assert.deepEqual(Object.keys(shown).sort(), ['admin', 'created', 'name', 'token_created', 'token_last_used']);
    assert.equal(shown.name, 'alice');
    assert.match(ok(await trove('show-user', 'bob')).stdout, /bob/);
    const listed = parseJson(ok(await trove('list-users', '--json')));
    assert.deepEqual(listed.users.map((u: { name: string }) => u.name), ['alice', 'bob']);
    const human = ok(await trove('list-users')).stdout;
    assert.match(human, /^alice /m);
    assert.match(human, /^bob /m);
    failed(await trove('show-user', 'nobody'), 'NOT_FOUND');
    failedJson(await trove('show-user', 'nobody', '--json'), 'NOT_FOUND');
  });

  test('update-user --regen-token prints a new token once; the old one stops working', async () => {
    const old = tokens[0]!;
    const r = ok(await trove('update-user', 'alice', '--regen-token'));
    const fresh = tokenOf(r);
    tokens.push(fresh);
    assert.notEqual(fresh, old);
    assert.equal(await resolve(old), undefined);
    assert.equal((await resolve(fresh))?.name, 'alice');
    const again = parseJson(ok(await trove('update-user', 'alice', '--regen-token', '--json')));
    tokens.push(again.token);
    assert.equal(again.user.name, 'alice');
    assert.equal(await resolve(fresh), undefined);
    assert.equal((await resolve(again.token))?.name, 'alice');
    failed(await trove('update-user', 'alice'), 'INVALID_ARGUMENT');
    failed(await trove('update-user', 'nobody', '--regen-token'), 'NOT_FOUND');
  });

  test('delete-user removes the user and their token', async () => {
    assert.deepEqual(parseJson(ok(await trove('delete-user', 'bob', '--json'))), { name: 'bob', deleted: true });
    assert.equal(await resolve(tokens[1]!), undefined);
    failed(await trove('delete-user', 'bob'), 'NOT_FOUND');
    failed(await trove('show-user', 'bob'), 'NOT_FOUND');
    ok(await trove('create-user', 'carol'));
    ok(await trove('delete-user', 'carol'));
    assert.deepEqual(parseJson(ok(await trove('list-users', '--json'))).users.map((u: { name: string }) => u.name), ['alice']);
  });

  test('--verbose logs an audit line per change, never a token or hash', async () => {
    const created = ok(await trove('--verbose', 'create-user', 'dora'));
    const token = tokenOf(created);
    tokens.push(token);
    const audit = created.stderr.split('\n').find((l) => / INFO audit /.test(l));
    assert.ok(audit, created.stderr);
    assert.deepEqual(JSON.parse(audit.slice(audit.indexOf('{'))), { action: 'user.create', principal: 'cli', target: 'dora' });
    const regen = ok(await trove('--verbose', 'update-user', 'dora', '--regen-token'));
    tokens.push(tokenOf(regen));
    assert.match(regen.stderr, /INFO audit \{"action":"token.regenerate","principal":"cli","target":"dora"\}/);
    assert.match(ok(await trove('--verbose', 'delete-user', 'dora')).stderr, /INFO audit \{"action":"user.delete","principal":"cli","target":"dora"\}/);
    const stderr = outputs.map((o) => o.stderr).join('');
    for (const t of tokens) {
      assert.ok(!stderr.includes(t), 'a token on stderr');
      assert.ok(!stderr.includes(hashToken(t)), 'a token hash on stderr');
    }
  });
});

import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type App, createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/load.js';
import { TroveError } from '../../src/errors.js';
import { createLogger } from '../../src/log.js';
import { createUser, deleteUser, hashToken, listUsers, newToken, regenerateToken, resolveToken, showUser } from '../../src/service/users.js';
import { tempDir } from '../helpers.js';

const TOKEN = /^trove_[A-Za-z0-9_-]{43}$/;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

async function refused(call: Promise<unknown>, code: string, field?: string): Promise<void> {
  try {
    await call;
  } catch (err) {
    assert.ok(err instanceof TroveError, String(err));
    assert.equal(err.code, code, err.message);
    if (field !== undefined) assert.equal(err.details?.field, field);
    return;
  }
  assert.fail(`expected ${code}`);
}

describe('users service', () => {
  const t = tempDir('trove-users-service-');
  const logLines: string[] = [];
  const issued: string[] = [];
  let app: App;

  before(() => {
    const config = loadConfig({ dataDir: t.dir, env: { XDG_CONFIG_HOME: t.dir } });
    app = createApp(config, createLogger('info', (line) => logLines.push(line)));
  });
  after(async () => {
    await app.close();
    t.cleanup();
  });

  test('tokens are trove_ and 32 random bytes in base64url', () => {
    const a = newToken();
    const b = newToken();
    assert.match(a, TOKEN);
    assert.equal(Buffer.from(a.slice('trove_'.length), 'base64url').length, 32);
    assert.notEqual(a, b);
    assert.match(hashToken(a), /^[0-9a-f]{64}$/);
  });

  test('user names are 1..64 characters of A-Z a-z 0-9 . _ -', async () => {
    for (const bad of ['', 'x'.repeat(65), 'a b', 'ann/x', 'jürgen', 'a:b', 'tab\t', 'new\nline', '@admin']) {
      await refused(createUser(app, { name: bad }), 'INVALID_ARGUMENT', 'name');
      await refused(showUser(app, bad), 'INVALID_ARGUMENT', 'name');
      await refused(deleteUser(app, bad), 'INVALID_ARGUMENT', 'name');
      await refused(regenerateToken(app, bad), 'INVALID_ARGUMENT', 'name');
    }
    await refused(createUser(app, { name: 42 as unknown as string }), 'INVALID_ARGUMENT', 'name');
    for (const good of ['a', 'x'.repeat(64), 'Ann.B_c-9']) {
      const r = await createUser(app, { name: good });
      issued.push(r.token);
      assert.equal(r.user.name, good);
    }
    assert.equal((await listUsers(app)).users.length, 3);
  });

  test('creates a user with a token shown once; the view carries neither token nor hash', async () => {
    const r = await createUser(app, { name: 'alice', admin: true });
    issued.push(r.token);
    assert.match(r.token, TOKEN);
    assert.deepEqual(Object.keys(r.user).sort(), ['admin', 'created', 'name', 'token_created', 'token_last_used']);
    assert.equal(r.user.admin, true);
    assert.match(r.user.created, ISO);
    assert.match(r.user.token_created!, ISO);
    assert.equal(r.user.token_last_used, null);
    const shown = await showUser(app, 'alice');
    assert.deepEqual(shown, r.user);
    const listed = JSON.stringify(await listUsers(app));
    for (const secret of [r.token, hashToken(r.token)]) {
      assert.ok(!JSON.stringify(shown).includes(secret));
      assert.ok(!listed.includes(secret));
    }
    await refused(createUser(app, { name: 'alice' }), 'CONFLICT', 'name');
    const bob = await createUser(app, { name: 'bob' });
    issued.push(bob.token);
    assert.equal(bob.user.admin, false);
  });

  test('resolves a personal token to its user principal, and nothing else', async () => {
    const { token } = await createUser(app, { name: 'carol' });
    issued.push(token);
    const carol = await app.store.getUser('carol');
    assert.deepEqual(await resolveToken(app, token), { kind: 'user', userId: carol!.id, name: 'carol', admin: false });
    assert.match((await showUser(app, 'carol')).token_last_used!, ISO);
    const last = token.at(-1) === 'A' ? 'B' : 'A';
    for (const wrong of [newToken(), `${token.slice(0, -1)}${last}`, token.slice(0, -1), `${token}x`, token.slice('trove_'.length), hashToken(token), '', ` ${token}`, token.toUpperCase()]) {
      assert.equal(await resolveToken(app, wrong), undefined, wrong);
    }
  });

  test('regenerating a token makes the old one stop at once', async () => {
    const first = await createUser(app, { name: 'dave' });
    const second = await regenerateToken(app, 'dave');
    issued.push(first.token, second.token);
    assert.match(second.token, TOKEN);
    assert.notEqual(second.token, first.token);
    assert.equal(second.user.name, 'dave');
    assert.equal(await resolveToken(app, first.token), undefined);
    assert.equal((await resolveToken(app, second.token))?.name, 'dave');
    await refused(regenerateToken(app, 'nobody'), 'NOT_FOUND', 'name');
  });

  test('deleting a user ends their token; unknown users are NOT_FOUND', async () => {
    const r = await createUser(app, { name: 'erin' });
    issued.push(r.token);
    assert.deepEqual(await deleteUser(app, 'erin'), { name: 'erin', deleted: true });
    assert.equal(await resolveToken(app, r.token), undefined);
    await refused(deleteUser(app, 'erin'), 'NOT_FOUND', 'name');
    await refused(showUser(app, 'erin'), 'NOT_FOUND', 'name');
  });

  test('audits every user change without a token or hash in any log line', () => {
    const audits = logLines.filter((l) => / INFO audit /.test(l)).map((l) => JSON.parse(l.slice(l.indexOf('{'))) as Record<string, string>);
    const has = (action: string, target: string) => audits.some((a) => a.action === action && a.target === target && a.principal === 'cli');
    assert.ok(has('user.create', 'alice'));
    assert.ok(has('token.regenerate', 'dave'));
    assert.ok(has('user.delete', 'erin'));
    assert.ok(!has('user.create', 'nobody'), 'refused calls are not audited as done');
    const all = logLines.join('');
    for (const token of issued) {
      assert.ok(!all.includes(token), 'a token in the log');
      assert.ok(!all.includes(hashToken(token)), 'a token hash in the log');
    }
  });

  test('the store file holds token hashes only, never a token', async () => {
    const live = (await createUser(app, { name: 'frank' })).token;
    issued.push(live);
    await app.close();
    const files = readdirSync(t.dir).filter((f) => f.startsWith('trove.db'));
    const bytes = Buffer.concat(files.map((f) => readFileSync(join(t.dir, f))));
    assert.ok(bytes.includes(hashToken(live)), 'the hash of a live token is stored (the right file was read)');
    for (const token of issued) {
      assert.ok(!bytes.includes(token), 'a token in the store');
      assert.ok(!bytes.includes(token.slice('trove_'.length)), 'a token body in the store');
    }
    app = createApp(loadConfig({ dataDir: t.dir, env: { XDG_CONFIG_HOME: t.dir } }), createLogger('silent'));
    assert.equal((await resolveToken(app, live))?.name, 'frank');
  });
});

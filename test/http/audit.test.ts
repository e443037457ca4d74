import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type App, createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/load.js';
import { type RunningServer, startServer } from '../../src/http/server.js';
import { createLogger } from '../../src/log.js';
import { createUser, hashToken, regenerateToken } from '../../src/service/users.js';
import { tempDir } from '../helpers.js';
import { call, httpClient } from '../mcp/client.js';

// Every write is audited with its principal and source; no token (or token hash) ever reaches a log line.

const STATIC = 'static-audit-token-abcdefghijklmnop';

describe('audit log', () => {
  const lines: string[] = [];
  let app: App;
  let dir: { dir: string; cleanup: () => void };
  let server: RunningServer;
  const seen: string[] = [STATIC];

  before(async () => {
    dir = tempDir();
    const config = loadConfig({ dataDir: dir.dir, env: { XDG_CONFIG_HOME: dir.dir }, overrides: { 'app.user_handling': 'true', 'app.access_token': STATIC } });
    app = createApp(config, createLogger('debug', (l) => lines.push(l)));
    server = await startServer(app, { host: '127.0.0.1', port: 0 });
  });
  after(async () => {
    await server.close();
    await app.close();
    dir.cleanup();
  });

  test('a day of use: users, tokens, writes, reads and failures', async () => {
    const alice = await createUser(app, { name: 'alice', admin: false });
    seen.push(alice.token);
    const again = await regenerateToken(app, 'alice');
    seen.push(again.token);
    const req = async (token: string, method: string, path: string, body?: unknown) => {
      const res = await fetch(`${server.url}${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      await res.arrayBuffer();
      return res.status;
    };
    assert.equal(await req(again.token, 'POST', '/api/documents', { url: 'https://audit.example/a', text: 'audited words' }), 201);
    assert.equal(await req(STATIC, 'POST', '/api/batch', { operations: [{ op: 'add', url: 'https://audit.example/b', text: 'more words' }] }), 200);
    assert.equal(await req(again.token, 'POST', '/api/history/opened', { url: 'https://audit.example/a' }), 201);
    assert.equal(await req(alice.token, 'GET', '/api/search?q=words'), 401, 'the old token stopped working');
    assert.equal(await req('trove_not-a-real-token-0000000000000000000000000', 'GET', '/api/search?q=x'), 401);
    const fresh = await fetch(`${server.url}/api/profile/token`, { method: 'POST', headers: { authorization: `Bearer ${again.token}`, 'content-type': 'application/json' }, body: '{}' });
    const rotated = ((await fresh.json()) as { token: string }).token;
    seen.push(rotated);
    assert.equal(await req(rotated, 'DELETE', '/api/documents/https%3A%2F%2Faudit.example%2Fa'), 200);
    const client = await httpClient(`${server.url}/mcp`, 'modern', 'Audit Client', { authorization: `Bearer ${rotated}` });
    try {
      assert.equal((await call(client, 'search', { query: 'words' })).ok, true);
    } finally {
      await client.close();
    }

    const audits = lines.filter((l) => l.includes(' audit '));
    const expectAudit = (action: string, principal: string) =>
      assert.ok(audits.some((l) => l.includes(`"action":"${action}"`) && l.includes(`"principal":"${principal}"`)), `${action} by ${principal}:\n${audits.join('')}`);
    expectAudit('user.create', 'cli');
    expectAudit('token.regenerate', 'cli');
    expectAudit('POST /api/documents', 'user:alice');
    expectAudit('POST /api/batch', 'owner');
    expectAudit('POST /api/history/opened', 'user:alice');
    expectAudit('POST /api/profile/token', 'user:alice');
    expectAudit('DELETE /api/documents/:id', 'user:alice');
    for (const l of audits.filter((x) => x.includes('/api/'))) assert.match(l, /"source":"api"/);
  });

  test('no token or token hash appears in any log line', () => {
    assert.ok(lines.length > 10, 'the run logged');
    const all = lines.join('');
    for (const t of seen) {
      assert.ok(!all.includes(t), 'a token is in the log');
      assert.ok(!all.includes(hashToken(t)), 'a token hash is in the log');
      assert.ok(!all.includes(t.slice(6, 26)), 'part of a token is in the log');
    }
  });
});

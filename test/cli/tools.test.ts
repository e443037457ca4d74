import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type CliResult, cliEnv, failed, ok, parseJson, runCli } from '../cli-run.js';
import { tempDir } from '../helpers.js';

describe('trove tools and trove mcp-config', () => {
  let root: ReturnType<typeof tempDir>;
  let env: NodeJS.ProcessEnv;
  const trove = (...args: string[]) => runCli(args, { env, cwd: root.dir });

  before(() => {
    root = tempDir('trove-cli-tools-');
    env = cliEnv(root.dir);
  });
  after(() => root.cleanup());

  test('trove tools --json prints the registry entries', async () => {
    const body = parseJson(ok(await trove('tools', '--json')));
    assert.deepEqual(Object.keys(body), ['tools']);
    const search = body.tools.find((t: any) => t.tool_id === 'search');
    assert.equal(search.route, 'mcp:tools/call search');
    assert.equal(search.enabled, true);
    assert.deepEqual(search.health, { status: 'ok' });
    assert.equal(search.input_schema.type, 'object');
  });

  test('trove tools prints a table; mcp.enabled = false marks every tool unavailable', async () => {
    const table = ok(await trove('tools')).stdout;
    assert.match(table, /^TOOL_ID\s+TOOLSET\s+ENABLED\s+HEALTH\s+TITLE\n/);
    assert.match(table, /^search\s+history\s+yes\s+ok\s+\S/m);
    const off = parseJson(ok(await trove('--set', 'mcp.enabled=false', 'tools', '--json')));
    for (const t of off.tools) assert.equal(t.health.status, 'unavailable');
    assert.match(ok(await trove('--set', 'mcp.enabled=false', 'tools')).stdout, /^get_history\s+history\s+no\s+unavailable\s/m);
  });

  test('mcp-config prints a snippet per client for server.address', async () => {
    const url = 'http://127.0.0.1:4999/mcp';
    const set = ['--set', 'server.address=127.0.0.1:4999'];
    for (const client of ['claude-desktop', 'cursor']) {
      assert.deepEqual(JSON.parse(ok(await trove(...set, 'mcp-config', client)).stdout), { mcpServers: { trove: { url } } });
    }
    assert.deepEqual(JSON.parse(ok(await trove(...set, 'mcp-config', 'vscode')).stdout), { servers: { trove: { type: 'http', url } } });
    assert.equal(ok(await trove(...set, 'mcp-config', 'claude-code')).stdout, `claude mcp add --transport http trove ${url}\n`);
  });

  test('a configured token is a placeholder unless --include-token; --token wins', async () => {
    const config = join(root.dir, 'token.toml');
    writeFileSync(config, '[app]\naccess_token = "configured-secret"\n');
    const header = async (...args: string[]) => JSON.parse(ok(await trove('--config', config, 'mcp-config', 'cursor', ...args)).stdout).mcpServers.trove.headers.Authorization;
    const plain = ok(await trove('--config', config, 'mcp-config', 'cursor'));
    assert.ok(!plain.stdout.includes('configured-secret') && !plain.stderr.includes('configured-secret'));
    assert.equal(JSON.parse(plain.stdout).mcpServers.trove.headers.Authorization, 'Bearer <your-access-token>');
    assert.equal(await header('--include-token'), 'Bearer configured-secret');
    assert.equal(await header('--token', 'given'), 'Bearer given');
    const code = ok(await trove('--config', config, 'mcp-config', 'claude-code', '--url', 'https://trove.example/mcp')).stdout;
    assert.equal(code, 'claude mcp add --transport http trove https://trove.example/mcp --header "Authorization: Bearer <your-access-token>"\n');
  });

  test('--stdio: the client starts trove mcp with the same data directory', async () => {
    const data = join(root.dir, 'data');
    const vscode = JSON.parse(ok(await trove('--data-dir', data, 'mcp-config', 'vscode', '--stdio')).stdout);
    assert.deepEqual(vscode, { servers: { trove: { type: 'stdio', command: 'trove', args: ['--data-dir', data, 'mcp'] } } });
    const desktop = JSON.parse(ok(await trove('mcp-config', 'claude-desktop', '--stdio')).stdout);
    assert.deepEqual(desktop, { mcpServers: { trove: { command: 'trove', args: ['mcp'] } } });
    assert.equal(ok(await trove('mcp-config', 'claude-code', '--stdio')).stdout, 'claude mcp add --transport stdio trove -- trove mcp\n');
  });

  test('--bank: an X-Bank-Id header over HTTP, trove mcp --bank over stdio; a bad name is refused', async () => {
    const http = JSON.parse(ok(await trove('mcp-config', 'claude-desktop', '--bank', 'work')).stdout);
    assert.equal(http.mcpServers.trove.headers['X-Bank-Id'], 'work');
    const stdio = JSON.parse(ok(await trove('mcp-config', 'cursor', '--stdio', '--bank', 'work')).stdout);
    assert.deepEqual(stdio.mcpServers.trove.args, ['mcp', '--bank', 'work']);
    failed(await trove('mcp-config', 'cursor', '--bank', 'a/b'), 'INVALID_ARGUMENT');
    failed(await trove('mcp-config', 'cursor', '--bank', '..'), 'INVALID_ARGUMENT');
  });

  test('bad input: unknown client, --stdio with --url', async () => {
    failed(await trove('mcp-config', 'zed'), 'INVALID_ARGUMENT');
    failed(await trove('mcp-config', 'cursor', '--stdio', '--url', 'http://x/mcp'), 'INVALID_ARGUMENT');
  });
});

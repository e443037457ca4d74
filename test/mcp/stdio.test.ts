import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { TROVE_BIN, cliEnv, runCli } from '../cli-run.js';
import { tempDir } from '../helpers.js';
import { DEFAULT_TOOLS, ERAS, call, stdioClient } from './client.js';

// `trove mcp` as an assistant launches it: the compiled CLI over stdin/stdout.

const SMOKE = [
  '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"smoke","version":"0"}}}',
  '{"jsonrpc":"2.0","method":"notifications/initialized"}',
  '{"jsonrpc":"2.0","id":2,"method":"tools/list"}',
];

function pipeThrough(args: string[], env: NodeJS.ProcessEnv, lines: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [TROVE_BIN, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(`${lines.join('\n')}\n`);
  });
}

describe('trove mcp (stdio)', () => {
  let dir: string;
  let cleanup: () => void;
  let env: Record<string, string>;
  let args: string[];

  before(async () => {
    ({ dir, cleanup } = tempDir());
    env = cliEnv(dir) as Record<string, string>;
    args = ['--data-dir', `${dir}/data`];
    const note = `${dir}/otters.md`;
    await import('node:fs').then((fs) => fs.writeFileSync(note, '# Otter facts\n\nSea otters hold hands while they sleep.\n'));
    const added = await runCli([...args, 'add', note], { env });
    assert.equal(added.code, 0, added.stderr);
  });
  after(() => cleanup());

  test("seed 001's smoke test writes exactly two compact JSON lines", async () => {
    const r = await pipeThrough([...args, 'mcp'], env, SMOKE);
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.split('\n').filter((l) => l !== '');
    assert.equal(lines.length, 2, r.stdout);
    assert.ok(r.stdout.endsWith('\n'));
    const [hello, list] = lines.map((l) => JSON.parse(l));
    for (const [i, l] of lines.entries()) assert.equal(l, JSON.stringify(JSON.parse(l)), `line ${i + 1} is not compact`);
    assert.equal(hello.id, 1);
    assert.deepEqual(hello.result.capabilities, { tools: {}, resources: {} });
    assert.equal(hello.result.serverInfo.name, 'trove');
    assert.equal(list.id, 2);
    assert.deepEqual(list.result.tools.map((t: any) => t.name), DEFAULT_TOOLS);
  });

  test('--verbose: debug logs go to stderr, stdout still carries protocol only', async () => {
    const r = await pipeThrough(['--verbose', ...args, 'mcp'], env, SMOKE);
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.split('\n').filter((l) => l !== '');
    assert.equal(lines.length, 2);
    for (const l of lines) assert.equal(JSON.parse(l).jsonrpc, '2.0');
    assert.match(r.stderr, /DEBUG/);
  });

  test('a line that is not JSON gets a parse error and the session goes on', async () => {
    const r = await pipeThrough([...args, 'mcp'], env, [SMOKE[0]!, 'this is not json', SMOKE[2]!]);
    const replies = r.stdout.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
    assert.ok(replies.some((m) => m.id === 2 && m.result?.tools), r.stdout);
    assert.doesNotMatch(r.stdout, /at \/|node_modules/);
  });

  for (const era of ERAS) {
    test(`SDK client (${era}): search finds the note and records the client's provenance`, async () => {
      const client = await stdioClient(process.execPath, [TROVE_BIN, ...args, 'mcp'], env, era, 'Claude Desktop');
      try {
        const r = await call(client, 'search', { query: 'otters sleep' });
        assert.equal(r.ok, true);
        assert.equal(r.trusted.result_count, 1);
        assert.match(r.untrusted_content[0].fields.url, /^file:\/\/.*otters\.md$/);
        assert.equal(r.request.client, 'mcp:claude-desktop');
        const preview = await call(client, 'get_preview', { url: r.untrusted_content[0].fields.url });
        assert.match(preview.untrusted_content[0].fields.text, /hold hands/);
      } finally {
        await client.close();
      }
    });
  }

  test('mcp.enabled = false refuses to serve', async () => {
    const r = await runCli([...args, '--set', 'mcp.enabled=false', 'mcp'], { env });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /CAPABILITY_UNAVAILABLE/);
    assert.equal(r.stdout, '');
  });
});

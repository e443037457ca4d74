import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { INSPECTOR_CLI, NODE22, node22Missing } from '../../scripts/node22.js';
import { type Served, TROVE_BIN, cliEnv, runCli, startServe } from '../cli-run.js';
import { tempDir } from '../helpers.js';

// An outside client: the official MCP Inspector's CLI mode (on the Node 22 binary from tools/node22)
// against `trove mcp` over stdio and `trove serve` over Streamable HTTP.

const missing = node22Missing(INSPECTOR_CLI);
if (missing) process.stdout.write(`MCP Inspector tests skipped: ${missing}\n`);

const WORD = 'quillwort';
const EXPECTED_TOOLS = ['search', 'get_preview', 'get_history'];

interface Inspected {
  code: number | null;
  stdout: string;
  stderr: string;
  json: any;
}

describe('MCP Inspector CLI', { skip: missing }, () => {
  let t: ReturnType<typeof tempDir>;
  let data: string;
  let home: string;
  let noteUrl: string;
  let served: Served;

  /** `inspector --cli ...args`; its stdout is one JSON document. */
  function inspector(args: string[]): Promise<Inspected> {
    return new Promise((resolve, reject) => {
      // HOME is the throw-away dir: the Inspector keeps its catalog under ~/.mcp-inspector.
      const child = spawn(NODE22, [INSPECTOR_CLI, '--cli', ...args, '--connect-timeout', '120000'], { cwd: home, env: { ...cliEnv(home), HOME: home }, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      const timer = setTimeout(() => child.kill('SIGKILL'), 180_000);
      child.on('error', reject);
      child.on('close', (code) => {
        clearTimeout(timer);
        let json: unknown;
        try {
          json = JSON.parse(stdout);
        } catch {
          return reject(new Error(`inspector printed no JSON (exit ${code}):\n${stdout}\nstderr:\n${stderr}`));
        }
        resolve({ code, stdout, stderr, json });
      });
    });
  }

  const stdio = (...args: string[]) => inspector([process.execPath, TROVE_BIN, '--data-dir', data, 'mcp', ...args]);
  const http = (...args: string[]) => inspector([`${served.url}/mcp`, '--transport', 'http', ...args]);
  const search = ['--method', 'tools/call', '--tool-name', 'search', '--tool-arg', `query=${WORD}`, 'limit=5'];

  function assertSearchEnvelope(r: Inspected, client?: string): void {
    assert.equal(r.code, 0, r.stderr);
    assert.notEqual(r.json.isError, true);
    const sc = r.json.structuredContent;
    assert.equal(sc.ok, true);
    assert.equal(sc.tool, 'search');
    assert.equal(sc.request.query, WORD);
    if (client) assert.equal(sc.request.client, client);
    assert.ok(Array.isArray(sc.untrusted_content));
    assert.deepEqual(sc.untrusted_content.map((u: any) => [u.trust, u.fields.url]), [['untrusted', noteUrl]]);
    assert.match(r.json.content[0].text, /^SECURITY NOTICE: /);
  }

  before(async () => {
    t = tempDir('trove-inspector-');
    data = join(t.dir, 'data');
    home = join(t.dir, 'home');
    mkdirSync(home);
    const note = join(t.dir, 'note.md');
    writeFileSync(note, `# Field notes\n\nThe ${WORD} grows submerged in cold lakes.\n`);
    const env = cliEnv(home);
    const added = await runCli(['--data-dir', data, 'add', note, '--json'], { env });
    assert.equal(added.code, 0, added.stderr);
    noteUrl = `file://${note}`;
    served = await startServe(['--data-dir', data], env);
  });

  after(async () => {
    await served?.stop();
    t?.cleanup();
  });

  test('stdio: tools/list names trove tools with input and output schemas', async () => {
    const r = await stdio('--method', 'tools/list');
    assert.equal(r.code, 0, r.stderr);
    const names = r.json.tools.map((tool: any) => tool.name);
    for (const name of EXPECTED_TOOLS) assert.ok(names.includes(name), `${name} missing from ${names}`);
    for (const tool of r.json.tools) {
      assert.equal(tool.inputSchema.type, 'object');
      assert.equal(typeof tool.outputSchema, 'object');
    }
  });

  test('stdio: tools/call search returns the envelope, with the client named in the provenance', async () => {
    assertSearchEnvelope(await stdio(...search), 'mcp:inspector-cli');
  });

  test('HTTP: tools/list matches stdio and has no error-severity schema portability problem (--strict)', async () => {
    const [overHttp, overStdio] = await Promise.all([http('--method', 'tools/list', '--strict'), stdio('--method', 'tools/list')]);
    assert.equal(overHttp.code, 0, overHttp.stderr);
    assert.deepEqual(overHttp.json, overStdio.json);
  });

  test('HTTP: tools/call search on the legacy and the 2026-07-28 protocol eras', async () => {
    const [legacy, modern] = await Promise.all([http(...search, '--protocol-era', 'legacy'), http(...search, '--protocol-era', 'modern')]);
    assertSearchEnvelope(legacy);
    assertSearchEnvelope(modern, 'mcp:inspector-cli');
  });

  test('HTTP: a domain failure is a tool result with isError and the error envelope', async () => {
    const r = await http('--method', 'tools/call', '--tool-name', 'get_preview', '--tool-arg', 'url=https://example.invalid/not-indexed');
    assert.notEqual(r.code, 0);
    assert.equal(r.json.isError, true);
    assert.equal(r.json.structuredContent.ok, false);
    assert.equal(r.json.structuredContent.error.code, 'NOT_FOUND');
  });
});

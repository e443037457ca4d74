// stdio cold start: spawn `trove mcp`, time to the tools/list answer, next to spawning `node -e 0` to its exit.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ColdStart {
  runs: number;
  trove_mcp_ms: { p50: number; min: number };
  node_e0_ms: { p50: number; min: number };
  ratio_p50: number;
  entry: string;
}

const HANDSHAKE = [
  { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '0' } } },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 2, method: 'tools/list' },
].map((m) => `${JSON.stringify(m)}\n`).join('');

function timeMcp(bin: string, dataDir: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [bin, 'mcp'], { stdio: ['pipe', 'pipe', 'ignore'], env: { ...process.env, TROVE_DATA_DIR: dataDir, XDG_CONFIG_HOME: dataDir } });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('"id":2')) {
        resolve(performance.now() - started);
        child.kill();
      }
    });
    child.on('error', reject);
    child.on('exit', () => reject(new Error(`trove mcp exited before answering tools/list: ${out.slice(0, 200)}`)));
    child.stdin.end(HANDSHAKE);
  });
}

function timeNode(): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', () => resolve(performance.now() - started));
  });
}

const summary = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return { p50: Number(s[Math.floor(s.length / 2)]!.toFixed(1)), min: Number(s[0]!.toFixed(1)) };
};

/** Alternates the two so that machine noise falls on both alike; the first store open (migration) is excluded. */
export async function runColdStartBench(opts: { quick: boolean; root: string }): Promise<ColdStart | null> {
  const bin = join(opts.root, '..', 'bin', 'trove.js');
  const bundled = existsSync(join(opts.root, '..', 'dist', 'bundle', 'main.js'));
  if (!existsSync(join(opts.root, '..', 'dist', 'cli', 'main.js'))) {
    process.stderr.write('cold start: skipped, the CLI is not built (npm run build)\n');
    return null;
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'trove-cold-'));
  try {
    await timeMcp(bin, dataDir);
    const runs = opts.quick ? 5 : 21;
    const trove: number[] = [];
    const node: number[] = [];
    for (let i = 0; i < runs; i++) {
      node.push(await timeNode());
      trove.push(await timeMcp(bin, dataDir));
    }
    const t = summary(trove);
    const n = summary(node);
    return { runs, trove_mcp_ms: t, node_e0_ms: n, ratio_p50: Number((t.p50 / n.p50).toFixed(2)), entry: bundled ? 'dist/bundle/main.js' : 'dist/cli/main.js' };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export function coldStartMarkdown(c: ColdStart | null): string {
  if (!c) return 'stdio cold start: not measured (build the CLI first).';
  return [
    `stdio cold start, ${c.runs} runs each, alternating (spawn to the tools/list answer; ${c.entry}):`,
    '',
    '| | p50 ms | min ms |',
    '|---|---:|---:|',
    `| trove mcp | ${c.trove_mcp_ms.p50} | ${c.trove_mcp_ms.min} |`,
    `| node -e 0 (spawn to exit) | ${c.node_e0_ms.p50} | ${c.node_e0_ms.min} |`,
    `| ratio | ${c.ratio_p50}x | |`,
  ].join('\n');
}

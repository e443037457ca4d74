import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, test } from 'node:test';
import { type CliResult, type Served, cliEnv, ok, parseJson, runCli, startServe } from '../cli-run.js';
import { tempDir } from '../helpers.js';

// `trove sync` and `trove serve` with [[indexer.directories]] in a real config file.

let root: string;
let cleanup: () => void;
let env: NodeJS.ProcessEnv;
before(() => {
  ({ dir: root, cleanup } = tempDir('trove-sync-cli-'));
  env = cliEnv(root);
});
after(() => cleanup());

let n = 0;
interface Workspace {
  data: string;
  notes: string;
  config: string;
  trove: (...args: string[]) => Promise<CliResult>;
}

/** A data directory, a notes folder and a config file listing `folders` (default: the notes folder). */
function workspace(folders?: string): Workspace {
  const base = join(root, `ws-${++n}`);
  const notes = join(base, 'notes');
  mkdirSync(notes, { recursive: true });
  const config = join(base, 'config.toml');
  writeFileSync(config, folders ?? `[[indexer.directories]]\npath = ${JSON.stringify(notes)}\nlabel = "notes"\nexclude = ["skip"]\n`);
  const data = join(base, 'data');
  return { data, notes, config, trove: (...args) => runCli(['--data-dir', data, '--config', config, ...args], { env, cwd: base }) };
}

function put(path: string, content: string | Buffer): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, content);
}

test('trove sync indexes the folder, reports counts, and a second run changes nothing', async () => {
  const ws = workspace();
  put(join(ws.notes, 'a.md'), '# Apples\n\northogonal apples');
  put(join(ws.notes, 'sub/b.txt'), 'bananas');
  put(join(ws.notes, 'skip/c.md'), 'excluded');
  put(join(ws.notes, 'bin.txt'), Buffer.from('a\0b'));
  const first = ok(await ws.trove('sync'));
  assert.equal(first.stdout, 'synced 1 folder: 2 added, 0 updated, 0 unchanged, 0 removed, 1 failed, 0 skipped (indexed by other means)\n');
  assert.match(first.stderr, /^trove: [A-Z_]+: .*bin\.txt.*\n$/);
  const again = parseJson(ok(await ws.trove('sync', '--json')));
  assert.deepEqual({ ...again, errors: again.errors.length }, { directories: 1, added: 0, updated: 0, unchanged: 2, removed: 0, failed: 1, skipped: 0, errors: 1 });
  assert.equal(again.errors[0].path, join(ws.notes, 'bin.txt'));
  const found = parseJson(ok(await ws.trove('search', 'orthogonal', '--json')));
  assert.equal(found.results[0].url, pathToFileURL(join(ws.notes, 'a.md')).href);
  assert.equal(found.results[0].label, 'notes');
  assert.equal(found.results[0].type, 'local');

  writeFileSync(join(ws.notes, 'a.md'), '# Apples\n\northogonal apples, revised');
  rmSync(join(ws.notes, 'sub'), { recursive: true });
  const third = parseJson(ok(await ws.trove('sync', '--json')));
  assert.deepEqual([third.added, third.updated, third.removed], [0, 1, 1]);
});

test('trove sync without configured folders says so', async () => {
  const ws = workspace('');
  const r = ok(await ws.trove('sync'));
  assert.match(r.stdout, /^no folders configured/);
});

test('a missing folder is a configuration error naming the entry', async () => {
  const ws = workspace('[[indexer.directories]]\npath = "/nonexistent/trove-folder"\n');
  const r = await ws.trove('sync');
  assert.equal(r.code, 78, r.stderr);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /^trove: INVALID_CONFIG: config indexer\.directories\[0\]\.path: no such directory: \/nonexistent\/trove-folder\n$/);
  const json = await ws.trove('sync', '--json');
  assert.equal(json.code, 78);
  assert.equal(parseJson(json).error.details.key, 'indexer.directories[0].path');
  const served = await runCli(['--data-dir', ws.data, '--config', ws.config, 'serve', '--address', '127.0.0.1:0'], { env });
  assert.equal(served.code, 78);
  assert.match(served.stderr, /INVALID_CONFIG: config indexer\.directories\[0\]\.path/);
});

async function documentAt(served: Served, path: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${served.url}/api/documents/${encodeURIComponent(pathToFileURL(path).href)}`);
  return { status: res.status, body: await res.json() };
}

/** Polls the running server until `check` holds (a failed request counts as not yet), failing after `seconds`. */
async function eventually(what: string, check: () => Promise<boolean>, seconds = 5): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`not within ${seconds} s: ${what}`);
}

test('trove serve indexes configured folders at start and follows changes until stopped', async () => {
  const ws = workspace();
  put(join(ws.notes, 'early.md'), 'present before serve');
  const served = await startServe(['--data-dir', ws.data, '--config', ws.config], env);
  try {
    // The first document also pays for loading the extractors: on a busy machine that alone takes seconds.
    await eventually('folder indexed at start', async () => (await documentAt(served, join(ws.notes, 'early.md'))).status === 200, 30);
    put(join(ws.notes, 'live/late.md'), 'written while serving');
    await eventually('new file indexed', async () => (await documentAt(served, join(ws.notes, 'live/late.md'))).status === 200);
    rmSync(join(ws.notes, 'early.md'));
    await eventually('deleted file removed', async () => (await documentAt(served, join(ws.notes, 'early.md'))).status === 404);
    const late = (await documentAt(served, join(ws.notes, 'live/late.md'))).body;
    assert.equal(late.document.source, 'folder');
    assert.equal(late.document.label, 'notes');
  } finally {
    await served.stop();
  }
  assert.equal(served.child.exitCode, 0, served.stderr());
  assert.doesNotMatch(served.stderr(), /ERROR/);
});

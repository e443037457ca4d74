import assert from 'node:assert/strict';
import { mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { test } from 'node:test';
import { type TreeWatcher, watchTree } from '../../src/ingest/watch.js';
import { suiteDirs } from '../helpers.js';

const dirs = suiteDirs('trove-watchtree-');

/** A watcher recording every reported path; `seen` polls (up to ~5 s) for one. */
function record(root: string, skip: (dir: string) => boolean = (d) => basename(d).startsWith('.')) {
  const paths: string[] = [];
  const errors: Error[] = [];
  const w: TreeWatcher = watchTree(root, { debounceMs: 50, maxWaitMs: 500, skipDirectory: skip, onChanges: (p) => paths.push(...p), onError: (e) => errors.push(e) });
  const seen = async (path: string) => {
    const deadline = Date.now() + 5000;
    while (Date.now() < deadline && !paths.includes(path)) await new Promise((r) => setTimeout(r, 25));
    assert.ok(paths.includes(path), `${path} not reported; got ${JSON.stringify(paths)}`);
  };
  return { w, paths, errors, seen };
}

test('watches kept directories only, and picks up new ones', async () => {
  const root = dirs.fresh();
  mkdirSync(join(root, 'a/b'), { recursive: true });
  mkdirSync(join(root, '.git/objects'), { recursive: true });
  const r = record(root);
  try {
    assert.deepEqual(r.w.watched(), [root, join(root, 'a'), join(root, 'a/b')]);
    mkdirSync(join(root, 'n1/n2'), { recursive: true });
    await r.seen(join(root, 'n1'));
    assert.ok(r.w.watched().includes(join(root, 'n1/n2')));
    writeFileSync(join(root, 'n1/n2/f.md'), 'x');
    await r.seen(join(root, 'n1/n2/f.md'));
    writeFileSync(join(root, '.git/objects/o'), 'x');
    writeFileSync(join(root, 'a/b/after.md'), 'x');
    await r.seen(join(root, 'a/b/after.md'));
    assert.ok(!r.paths.some((p) => p.includes('/.git/objects')));
    assert.deepEqual(r.errors, []);
  } finally {
    r.w.close();
  }
});

test('a renamed directory reports under its new path; a deleted one is unwatched', async () => {
  const root = dirs.fresh();
  mkdirSync(join(root, 'old/inner'), { recursive: true });
  const r = record(root);
  try {
    renameSync(join(root, 'old'), join(root, 'new'));
    await r.seen(join(root, 'new'));
    await r.seen(join(root, 'old'));
    assert.deepEqual(r.w.watched(), [root, join(root, 'new'), join(root, 'new/inner')]);
    r.paths.length = 0;
    writeFileSync(join(root, 'new/inner/f.md'), 'x');
    await r.seen(join(root, 'new/inner/f.md'));
    assert.ok(!r.paths.some((p) => p.startsWith(join(root, 'old'))), JSON.stringify(r.paths));
    rmSync(join(root, 'new'), { recursive: true });
    await r.seen(join(root, 'new'));
    assert.deepEqual(r.w.watched(), [root]);
  } finally {
    r.w.close();
  }
});

test('two directories swapping names are both watched afresh', async () => {
  const root = dirs.fresh();
  mkdirSync(join(root, 'x'));
  mkdirSync(join(root, 'y'));
  writeFileSync(join(root, 'x/from-x.md'), 'x');
  const r = record(root);
  try {
    renameSync(join(root, 'x'), join(root, 'tmp'));
    renameSync(join(root, 'y'), join(root, 'x'));
    renameSync(join(root, 'tmp'), join(root, 'y'));
    await r.seen(join(root, 'tmp'));
    r.paths.length = 0;
    writeFileSync(join(root, 'y/from-x.md'), 'changed');
    await r.seen(join(root, 'y/from-x.md'));
    assert.ok(!r.paths.includes(join(root, 'x/from-x.md')), JSON.stringify(r.paths));
  } finally {
    r.w.close();
  }
});

test('a root that is a symbolic link is watched; links inside it are not', async () => {
  const real = dirs.fresh();
  mkdirSync(join(real, 'sub'));
  const link = join(dirs.fresh(), 'link');
  symlinkSync(real, link);
  symlinkSync(join(real, 'sub'), join(real, 'sub-link'));
  const r = record(link);
  try {
    assert.deepEqual(r.w.watched(), [link, join(link, 'sub')]);
    writeFileSync(join(real, 'sub/f.md'), 'x');
    await r.seen(join(link, 'sub/f.md'));
  } finally {
    r.w.close();
  }
});

test('close stops reporting', async () => {
  const root = dirs.fresh();
  const r = record(root);
  r.w.close();
  writeFileSync(join(root, 'late.md'), 'x');
  await new Promise((res) => setTimeout(res, 200));
  assert.deepEqual(r.paths, []);
  assert.deepEqual(r.w.watched(), []);
});

import assert from 'node:assert/strict';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, test } from 'node:test';
import type { App } from '../../src/app.js';
import { type FolderWatch, outermostPaths, watchDirectories } from '../../src/service/folder-watch.js';
import { suiteDirs, testApp } from '../helpers.js';

// Real directories, real fs events: each change must show in the store within a bounded wait.

const dirs = suiteDirs('trove-watch-');
const url = (path: string) => pathToFileURL(path).href;

function put(path: string, content: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, content);
}

/** Polls until `check` holds, failing after about 5 s. */
async function eventually(what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 5000;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.fail(`not within 5 s: ${what}`);
}

async function text(app: App, path: string): Promise<string | undefined> {
  const doc = await app.store.getDocument(url(path));
  return doc ? app.store.getText(doc.id) : undefined;
}

const indexed = (app: App, path: string) => async () => (await app.store.getDocument(url(path))) !== undefined;
const gone = (app: App, path: string) => async () => (await app.store.getDocument(url(path))) === undefined;

let root: string;
let t: ReturnType<typeof testApp>;
let watch: FolderWatch;

before(async () => {
  root = dirs.fresh();
  put(join(root, 'start.md'), 'there before the watch');
  t = testApp({ 'indexer.directories': JSON.stringify([{ path: root, label: 'watched', exclude: ['ignored'] }]) });
  watch = watchDirectories(t.app, { initialSync: true, debounceMs: 100 });
  await watch.idle();
});

after(async () => {
  await watch.close();
  await t.cleanup();
});

test('the initial sync indexes what is already there', async () => {
  assert.equal(await text(t.app, join(root, 'start.md')), 'there before the watch');
  assert.equal((await t.app.store.getDocument(url(join(root, 'start.md'))))?.label, 'watched');
});

test('a created file is added and a modified one gets a version', async () => {
  const path = join(root, 'created.md');
  put(path, 'first draft');
  await eventually('created file indexed', indexed(t.app, path));
  put(path, 'second draft');
  await eventually('modified file versioned', async () => (await text(t.app, path)) === 'second draft');
  assert.equal((await t.app.store.getDocument(url(path)))?.versionCount, 2);
});

test('a deleted file is removed', async () => {
  const path = join(root, 'doomed.txt');
  put(path, 'short-lived');
  await eventually('file indexed', indexed(t.app, path));
  rmSync(path);
  await eventually('deleted file removed', gone(t.app, path));
});

test('a renamed file moves to its new url', async () => {
  const from = join(root, 'before.md');
  const to = join(root, 'after.md');
  put(from, 'renamed content');
  await eventually('file indexed', indexed(t.app, from));
  renameSync(from, to);
  await eventually('new name indexed', indexed(t.app, to));
  await eventually('old name removed', gone(t.app, from));
});

test('an editor save (write a temporary file, then rename over the original) adds a version', async () => {
  const path = join(root, 'edited.md');
  put(path, 'original text');
  await eventually('file indexed', indexed(t.app, path));
  const temp = join(root, '.edited.md.swp');
  writeFileSync(temp, 'saved text');
  renameSync(temp, path);
  await eventually('saved text indexed', async () => (await text(t.app, path)) === 'saved text');
  assert.equal(await t.app.store.getDocument(url(temp)), undefined);
});

test('files in a new subdirectory are added; renaming and deleting the directory follow', async () => {
  const dir = join(root, 'project');
  put(join(dir, 'deep/one.md'), 'nested one');
  put(join(dir, 'two.txt'), 'nested two');
  await eventually('new subdirectory indexed', async () => (await indexed(t.app, join(dir, 'deep/one.md'))()) && (await indexed(t.app, join(dir, 'two.txt'))()));
  put(join(dir, 'deep/three.md'), 'added later inside the new directory');
  await eventually('file in the new subdirectory indexed', indexed(t.app, join(dir, 'deep/three.md')));
  const moved = join(root, 'renamed-project');
  renameSync(dir, moved);
  await eventually('moved directory indexed', indexed(t.app, join(moved, 'deep/one.md')));
  await eventually('old directory removed', gone(t.app, join(dir, 'deep/one.md')));
  rmSync(moved, { recursive: true });
  await eventually('deleted directory removed', async () => (await t.app.store.listDocumentUrls(`${url(moved)}/`)).length === 0);
});

test('excluded and unsupported paths are ignored', async () => {
  put(join(root, 'ignored/x.md'), 'excluded');
  put(join(root, 'photo.jpg'), 'not text we read');
  const marker = join(root, 'marker.md');
  put(marker, 'written last');
  await eventually('marker indexed', indexed(t.app, marker));
  await watch.idle();
  assert.equal(await t.app.store.getDocument(url(join(root, 'ignored/x.md'))), undefined);
  assert.equal(await t.app.store.getDocument(url(join(root, 'photo.jpg'))), undefined);
});

test('changed paths collapse to the outermost ones', () => {
  assert.deepEqual(outermostPaths(['/r/a/b.md', '/r/a', '/r/ab.md', '/r/a/c/d.md', '/r/ab.md', '/r/a-b']), ['/r/a', '/r/a-b', '/r/ab.md']);
  assert.deepEqual(outermostPaths(['/x/y', '/']), ['/']);
});

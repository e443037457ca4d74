import assert from 'node:assert/strict';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { type App, createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/load.js';
import { TroveError } from '../../src/errors.js';
import { addTargets } from '../../src/service/documents.js';
import { configuredFolders, syncDirectories } from '../../src/service/folders.js';
import { createLogger } from '../../src/log.js';
import { suiteDirs, testApp } from '../helpers.js';

const dirs = suiteDirs('trove-folders-');

function writeTree(root: string, files: Record<string, string | Buffer>): void {
  for (const [rel, content] of Object.entries(files)) {
    const path = join(root, rel);
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, content);
  }
}

function withFolders(entries: Array<Record<string, unknown>>): ReturnType<typeof testApp> {
  return testApp({ 'indexer.directories': JSON.stringify(entries) });
}

const url = (path: string) => pathToFileURL(path).href;

async function folderUrls(app: App, root: string): Promise<string[]> {
  return (await app.store.listDocumentUrls(`${url(root)}/`)).map((d) => d.url);
}

test('initial sync indexes supported files, honouring exclude, hidden and the size cap', async () => {
  const root = dirs.fresh();
  writeTree(root, {
    'a.md': '# Alpha notes\n\nalpha text about otters',
    'b.txt': 'plain beta text',
    'sub/page.html': '<html><head><title>Gamma page</title></head><body><p>gamma body text</p></body></html>',
    'sub/deeper/c.markdown': 'deep charlie',
    '.hidden.md': 'secret dot file',
    '.git/notes.md': 'inside a dot directory',
    'drafts/d.md': 'excluded directory',
    'x.log.txt': 'excluded by name',
    'img.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0]),
    'big.md': 'x'.repeat(500),
    'binary.txt': Buffer.from('abc\0def'),
    'latin1.txt': Buffer.from([0x63, 0x61, 0x66, 0xe9]),
  });
  const t = withFolders([{ path: root, label: 'notes', exclude: ['drafts', '*.log.txt'], max_file_bytes: 200 }]);
  try {
    const report = await syncDirectories(t.app);
    assert.deepEqual({ ...report, errors: [] }, { directories: 1, added: 4, updated: 0, unchanged: 0, removed: 0, failed: 3, skipped: 0, errors: [] });
    const failed = Object.fromEntries(report.errors.map((e) => [relative(root, e.path), e.code]));
    assert.deepEqual(Object.keys(failed).sort(), ['big.md', 'binary.txt', 'latin1.txt']);
    assert.match(failed['big.md']!, /TOO_LARGE$/);
    for (const code of Object.values(failed)) assert.ok(code !== 'INTERNAL');
    assert.deepEqual(await folderUrls(t.app, root), ['a.md', 'b.txt', 'sub/deeper/c.markdown', 'sub/page.html'].map((f) => url(join(root, f))));
    const doc = await t.app.store.getDocument(url(join(root, 'a.md')));
    assert.equal(doc?.kind, 'local');
    assert.equal(doc?.label, 'notes');
    assert.equal(doc?.source, 'folder');
    assert.equal(doc?.title, 'Alpha notes');
    assert.equal((await t.app.store.getDocument(url(join(root, 'sub/page.html'))))?.title, 'Gamma page');
  } finally {
    await t.cleanup();
  }
});

test('re-sync is a no-op; a modified file gets a version; a deleted or newly excluded one is removed', async () => {
  const root = dirs.fresh();
  writeTree(root, { 'keep.md': 'stays the same', 'edit.md': 'first words', 'gone/old.txt': 'will vanish', 'later.txt': 'excluded later' });
  const t = withFolders([{ path: root }]);
  try {
    assert.equal((await syncDirectories(t.app)).added, 4);
    const again = await syncDirectories(t.app);
    assert.deepEqual({ added: again.added, updated: again.updated, unchanged: again.unchanged, removed: again.removed }, { added: 0, updated: 0, unchanged: 4, removed: 0 });
    const revision = (await t.app.store.info()).revision;
    assert.equal((await syncDirectories(t.app)).unchanged, 4);
    assert.equal((await t.app.store.info()).revision, revision, 'an unchanged tree changes nothing');

    writeFileSync(join(root, 'edit.md'), 'second words');
    rmSync(join(root, 'gone'), { recursive: true });
    writeTree(root, { 'new.md': 'fresh file' });
    const third = await syncDirectories(t.app);
    assert.deepEqual({ added: third.added, updated: third.updated, unchanged: third.unchanged, removed: third.removed }, { added: 1, updated: 1, unchanged: 2, removed: 1 });
    const edited = await t.app.store.getDocument(url(join(root, 'edit.md')));
    assert.equal(edited?.versionCount, 2);
    assert.equal(await t.app.store.getText(edited!.id), 'second words');
    assert.equal(await t.app.store.getDocument(url(join(root, 'gone/old.txt'))), undefined);

    const narrowed = withConfigOf(t.app, [{ path: root, exclude: ['later.txt'] }]);
    assert.equal((await syncDirectories(narrowed)).removed, 1);
    assert.equal(await t.app.store.getDocument(url(join(root, 'later.txt'))), undefined);
  } finally {
    await t.cleanup();
  }
});

/** The same store seen through another folder configuration. */
function withConfigOf(app: App, entries: Array<Record<string, unknown>>): App {
  const directories = entries.map((e) => ({ label: '', include: [], exclude: [], max_file_bytes: 0, hidden: false, ...e }));
  return { ...app, config: { ...app.config, indexer: { ...app.config.indexer, directories } } };
}

test('include narrows the supported files; hidden = true takes dot files and dot directories', async () => {
  const root = dirs.fresh();
  writeTree(root, { 'a.md': 'markdown', 'b.txt': 'text', 'docs/c.md': 'nested markdown', '.dot.md': 'dot file', '.cfg/d.md': 'dot dir', 'e.py': 'print(1)' });
  const t = withFolders([{ path: root, include: ['*.md', '*.py'], hidden: true }]);
  try {
    const report = await syncDirectories(t.app);
    assert.equal(report.failed, 0, JSON.stringify(report.errors));
    const urls = await folderUrls(t.app, root);
    for (const f of ['a.md', 'docs/c.md', '.dot.md', '.cfg/d.md']) assert.ok(urls.includes(url(join(root, f))), f);
    assert.ok(!urls.includes(url(join(root, 'b.txt'))));
  } finally {
    await t.cleanup();
  }
});

test('documents added by other means are never versioned or removed by a sync', async () => {
  const root = dirs.fresh();
  const outside = dirs.fresh();
  writeTree(root, { 'mine.md': 'added by hand first', 'folder.md': 'found by the sync' });
  writeTree(outside, { 'other.md': 'elsewhere' });
  const t = withFolders([{ path: root, label: 'box' }]);
  try {
    await addTargets(t.app, [join(root, 'mine.md'), join(outside, 'other.md')], { source: 'cli', label: 'hand' });
    const first = await syncDirectories(t.app);
    assert.deepEqual({ added: first.added, skipped: first.skipped }, { added: 1, skipped: 1 });
    writeFileSync(join(root, 'mine.md'), 'edited on disk');
    assert.equal((await syncDirectories(t.app)).skipped, 1);
    rmSync(join(root, 'mine.md'));
    rmSync(join(outside, 'other.md'));
    assert.equal((await syncDirectories(t.app)).removed, 0);
    const mine = await t.app.store.getDocument(url(join(root, 'mine.md')));
    assert.deepEqual({ source: mine?.source, label: mine?.label, versions: mine?.versionCount }, { source: 'cli', label: 'hand', versions: 1 });
    assert.ok(await t.app.store.getDocument(url(join(outside, 'other.md'))));
  } finally {
    await t.cleanup();
  }
});

test('the root may be a symbolic link; links inside it are not followed', async () => {
  const real = dirs.fresh();
  const outside = dirs.fresh();
  writeTree(real, { 'in.md': 'inside the real folder' });
  writeTree(outside, { 'secret.md': 'outside the root' });
  symlinkSync(join(outside, 'secret.md'), join(real, 'link.md'));
  symlinkSync(outside, join(real, 'linked-dir'));
  const link = join(dirs.fresh(), 'notes-link');
  symlinkSync(real, link);
  const t = withFolders([{ path: link }]);
  try {
    const report = await syncDirectories(t.app);
    assert.deepEqual([report.added, report.failed], [1, 0]);
    assert.deepEqual(await folderUrls(t.app, link), [url(join(link, 'in.md'))]);
  } finally {
    await t.cleanup();
  }
});

test('a folder inside another configured folder owns its files', async () => {
  const root = dirs.fresh();
  writeTree(root, { 'top.md': 'outer file', 'inner/in.md': 'inner file' });
  const t = withFolders([{ path: root, label: 'outer' }, { path: join(root, 'inner'), label: 'inner' }]);
  try {
    const report = await syncDirectories(t.app);
    assert.equal(report.added, 2);
    assert.equal((await t.app.store.getDocument(url(join(root, 'inner/in.md'))))?.label, 'inner');
    assert.equal((await syncDirectories(t.app)).unchanged, 2);
  } finally {
    await t.cleanup();
  }
});

function configError(fn: () => unknown): { key: unknown; message: string } {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof TroveError && err.code === 'INVALID_CONFIG', String(err));
    return { key: err.details?.key, message: err.message };
  }
  assert.fail('expected INVALID_CONFIG');
}

test('config: a missing path, a file, or a repeated folder is INVALID_CONFIG naming the entry', async () => {
  const root = dirs.fresh();
  writeTree(root, { 'file.md': 'not a directory' });
  const cases: Array<[Array<Record<string, unknown>>, string, RegExp]> = [
    [[{ path: root }, { path: join(root, 'missing') }], 'indexer.directories[1].path', /no such directory/],
    [[{ path: join(root, 'file.md') }], 'indexer.directories[0].path', /not a directory/],
    [[{ path: root }, { path: `${root}/` }], 'indexer.directories[1].path', /already indexer\.directories\[0\]/],
  ];
  for (const [entries, key, message] of cases) {
    const t = withFolders(entries);
    try {
      const err = configError(() => configuredFolders(t.app));
      assert.equal(err.key, key);
      assert.match(err.message, message);
      await assert.rejects(syncDirectories(t.app), { code: 'INVALID_CONFIG' });
    } finally {
      await t.cleanup();
    }
  }
  assert.throws(() => withFolders([{ label: 'no path' }]), { code: 'INVALID_CONFIG' });
});

test('config: [[indexer.directories]] in TOML, a relative path starting at the config file', async () => {
  const base = dirs.fresh();
  writeTree(base, { 'notes/n.md': 'relative folder', 'config.toml': '[[indexer.directories]]\npath = "notes"\nlabel = "rel"\ninclude = ["*.md"]\n' });
  const app = createApp(loadConfig({ configPath: join(base, 'config.toml'), dataDir: join(base, 'data'), env: {} }), createLogger('silent'));
  try {
    const [folder] = configuredFolders(app);
    assert.equal(folder!.root, join(base, 'notes'));
    assert.equal(folder!.label, 'rel');
    assert.equal((await syncDirectories(app)).added, 1);
  } finally {
    await app.close();
  }
});

test('config: ~ is the home directory, fields get defaults', async () => {
  const t = withFolders([{ path: '~' }]);
  try {
    const [folder] = configuredFolders(t.app);
    assert.equal(folder!.root, homedir());
    assert.equal(folder!.label, null);
    assert.equal(folder!.hidden, false);
    assert.equal(folder!.maxFileBytes, t.app.config.indexer.max_file_bytes);
  } finally {
    await t.cleanup();
  }
});

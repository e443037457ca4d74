import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { type ErrorCode, isTroveError } from '../../src/errors.js';
import { readWithIdentity } from '../../src/ingest/files.js';
import { addTargets } from '../../src/service/documents.js';
import { syncDirectories } from '../../src/service/folders.js';
import { readDocumentSource } from '../../src/service/source-read.js';
import type { CatalogAccess } from '../../src/store/types.js';
import { tempDir } from '../helpers.js';
import { type CatalogFixture, catalogFixture, storeRaw } from './catalog-fixture.js';

// read_source: exact lines and hashes of files under the configured folders, and every refusal with its code.

const BIG = 1 << 20;
const AWS_KEY = `AKIA${'ABCDEFGHIJKLMNOP'}`;

function rejectsWith(p: Promise<unknown>, code: ErrorCode, reason?: string) {
  return assert.rejects(p, (e: unknown) => isTroveError(e) && e.code === code && (reason === undefined || e.details?.reason === reason));
}

describe('read_source', () => {
  let t: ReturnType<typeof tempDir>;
  let f: CatalogFixture;
  let access: CatalogAccess;
  let root: string;
  let outside: string;
  const url = (name: string) => pathToFileURL(join(root, name)).href;
  const read = (documentId: string, more: { startLine?: number; lineCount?: number } = {}) => readDocumentSource(f.app, access, { documentId, ...more }, BIG);
  /** A local document whose stored identity is that of the file now, as if indexed just before. */
  const indexedAs = (docUrl: string, path: string) => storeRaw(f.app, { url: docUrl, kind: 'local', text: 'indexed', metadata: { file_identity: readWithIdentity(path).identity } });

  before(async () => {
    t = tempDir('trove-source-');
    root = join(t.dir, 'notes');
    outside = join(t.dir, 'outside');
    mkdirSync(root);
    mkdirSync(outside);
    writeFileSync(join(root, 'crlf.txt'), 'one\r\ntwo\rthree\nfour\n');
    writeFileSync(join(root, 'open.md'), 'first\nlast without newline');
    writeFileSync(join(root, 'empty.txt'), '');
    writeFileSync(join(root, 'blank.txt'), '\n');
    writeFileSync(join(root, 'long.txt'), Array.from({ length: 1000 }, (_, i) => `line ${i + 1} ✓\n`).join(''));
    writeFileSync(join(root, 'keys.txt'), `deploy with ${AWS_KEY}\n`);
    writeFileSync(join(root, 'change.txt'), 'before\n');
    writeFileSync(join(root, 'swap.txt'), 'same bytes\n');
    writeFileSync(join(outside, 'secret.md'), 'outside the folders\n');
    symlinkSync(join(outside, 'secret.md'), join(root, 'link.md'));
    symlinkSync(outside, join(root, 'outdir'));
    f = catalogFixture({ 'indexer.directories': JSON.stringify([{ path: root }]) });
    access = await f.access();
    const report = await syncDirectories(f.app);
    assert.equal(report.failed, 0, JSON.stringify(report.errors));
    assert.equal(report.added, 8);
    // Indexed by hand (`trove add`): through a link in the folder, and a file outside it.
    const added = await addTargets(f.app, [join(root, 'link.md'), join(root, 'outdir', 'secret.md'), join(outside, 'secret.md')], { source: 'cli' });
    assert.ok(added.every((o) => o.result), JSON.stringify(added));
  });
  after(async () => {
    await f.cleanup();
    t.cleanup();
  });

  test('exact lines with their endings; a terminal newline adds no line; sha256 of the file bytes', async () => {
    const r = await read(url('crlf.txt'));
    assert.equal(r.text, 'one\r\ntwo\rthree\nfour\n');
    assert.equal(r.totalLines, 4);
    assert.equal(r.count, 4);
    assert.equal(r.nextLine, undefined);
    const bytes = readFileSync(join(root, 'crlf.txt'));
    assert.equal(r.sha256, createHash('sha256').update(bytes).digest('hex'));
    assert.equal(r.sha256, execFileSync('sha256sum', [join(root, 'crlf.txt')], { encoding: 'utf8' }).split(' ')[0]);
    assert.equal(r.bytes, bytes.length);
    assert.deepEqual((await read(url('crlf.txt'), { startLine: 2, lineCount: 2 })).text, 'two\rthree\n');
    const open = await read(url('open.md'), { startLine: 2 });
    assert.deepEqual([open.text, open.totalLines], ['last without newline', 2]);
    const empty = await read(url('empty.txt'));
    assert.deepEqual([empty.text, empty.totalLines, empty.count], ['', 0, 0]);
    assert.deepEqual([(await read(url('blank.txt'))).totalLines, (await read(url('blank.txt'))).text], [1, '\n']);
    await rejectsWith(read(url('crlf.txt'), { startLine: 5 }), 'INVALID_ARGUMENT');
  });

  test('pages of 200 lines by default, nextLine until the end, shortened to the byte bound', async () => {
    const first = await read(url('long.txt'));
    assert.deepEqual([first.startLine, first.count, first.totalLines, first.nextLine], [1, 200, 1000, 201]);
    const last = await read(url('long.txt'), { startLine: 901, lineCount: 500 });
    assert.deepEqual([last.count, last.nextLine], [100, undefined]);
    assert.ok(last.text.startsWith('line 901 ✓\n') && last.text.endsWith('line 1000 ✓\n'));
    const small = await readDocumentSource(f.app, access, { documentId: url('long.txt'), lineCount: 500 }, 100);
    assert.equal(small.shortened, true);
    // Each 'line N ✓\n' is 12 bytes in JSON: 8 fit in 100.
    assert.equal(small.count, 8);
    assert.equal(small.nextLine, 9);
  });

  test('links and paths leading outside the configured folders are refused', async () => {
    await rejectsWith(read(url('link.md')), 'SOURCE_UNAVAILABLE', 'outside_roots');
    await rejectsWith(read(pathToFileURL(join(root, 'outdir', 'secret.md')).href), 'SOURCE_UNAVAILABLE', 'outside_roots');
    await rejectsWith(read(pathToFileURL(join(outside, 'secret.md')).href), 'SOURCE_UNAVAILABLE', 'outside_roots');
    const target = join(outside, 'secret.md');
    for (const [raw, reason] of [
      [`${pathToFileURL(root).href}/../outside/secret.md`, 'not_canonical'],
      [`${pathToFileURL(root).href}/%2e%2e/outside/secret.md`, 'not_canonical'],
      [`${pathToFileURL(root).href}/%2E%2E/outside/secret.md`, 'not_canonical'],
      [`${pathToFileURL(root).href}/x%00.md`, 'not_canonical'],
      [`${pathToFileURL(root).href}/..%2Foutside%2Fsecret.md`, 'not_file_url'],
      [`file://localhost${target}`, 'not_canonical'],
    ] as const) {
      const doc = (await indexedAs(raw, target)).document;
      await rejectsWith(read(doc.id), 'SOURCE_UNAVAILABLE', reason);
    }
    for (const documentId of ['../outside/secret.md', `${root}/../outside/secret.md`, target, `file://${target}`.replace('secret', 'nothing')]) {
      await rejectsWith(read(documentId), 'NOT_FOUND');
    }
  });

  test('a file changed since indexing is refused: content, or a new file in its place', async () => {
    assert.equal((await read(url('change.txt'))).text, 'before\n');
    writeFileSync(join(root, 'change.txt'), 'after!\n');
    await rejectsWith(read(url('change.txt')), 'SOURCE_CHANGED');
    writeFileSync(join(root, 'swap.tmp'), 'same bytes\n');
    renameSync(join(root, 'swap.tmp'), join(root, 'swap.txt'));
    await rejectsWith(read(url('swap.txt')), 'SOURCE_CHANGED');
    await syncDirectories(f.app);
    assert.equal((await read(url('change.txt'))).text, 'after!\n');
    assert.equal((await read(url('swap.txt'))).text, 'same bytes\n');
  });

  test('binary content, invalid UTF-8, files over 2 MiB and redacted secrets are refused with their codes', async () => {
    const cases: Array<[string, Buffer, ErrorCode]> = [
      ['nul.txt', Buffer.from('text\0with a NUL\n'), 'BINARY_CONTENT'],
      ['latin1.txt', Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]), 'INVALID_UTF8'],
      ['huge.txt', Buffer.alloc(2 * 1024 * 1024 + 1, 0x61), 'TOO_LARGE'],
    ];
    for (const [name, bytes, code] of cases) {
      writeFileSync(join(root, name), bytes);
      await indexedAs(url(name), join(root, name));
      await rejectsWith(read(url(name)), code);
    }
    await rejectsWith(read(url('keys.txt')), 'SOURCE_REDACTED');
  });

  test('not a local document, or indexed without an identity: SOURCE_UNAVAILABLE', async () => {
    await storeRaw(f.app, { url: 'https://web.example/page', text: 'web' });
    await rejectsWith(read('https://web.example/page'), 'SOURCE_UNAVAILABLE', 'not_local');
    writeFileSync(join(root, 'old.txt'), 'indexed long ago\n');
    await storeRaw(f.app, { url: url('old.txt'), kind: 'local', text: 'indexed long ago' });
    await rejectsWith(read(url('old.txt')), 'SOURCE_UNAVAILABLE', 'no_identity');
  });
});

describe('read_source without configured folders', () => {
  test('every source is unavailable', async () => {
    const t = tempDir('trove-source-');
    const f = catalogFixture();
    try {
      const path = join(t.dir, 'note.txt');
      writeFileSync(path, 'hello\n');
      const [added] = await addTargets(f.app, [path], { source: 'cli' });
      await rejectsWith(readDocumentSource(f.app, await f.access(), { documentId: added!.result!.document.id }, BIG), 'SOURCE_UNAVAILABLE', 'no_roots');
    } finally {
      await f.cleanup();
      t.cleanup();
    }
  });
});

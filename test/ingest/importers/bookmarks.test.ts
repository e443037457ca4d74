import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { TroveError } from '../../../src/errors.js';
import { parseBookmarks, readBookmarksFile } from '../../../src/ingest/importers/bookmarks.js';
import { suiteDirs } from '../../helpers.js';
import { BOOKMARKS_HTML } from './bookmarks-fixture.js';

const { fresh } = suiteDirs('trove-bookmarks-');


describe('Netscape bookmark files', () => {
  test('folders become slash-separated labels below the browser’s own containers; dates in any unit', () => {
    const { bookmarks, skipped } = parseBookmarks(BOOKMARKS_HTML, 'b.html');
    assert.deepEqual(bookmarks, [
      { url: 'https://top.example/', title: 'Top level', addedAt: 1_700_000_000_000, label: null },
      { url: 'https://toolbar.example/', title: 'On the toolbar', addedAt: 1_700_000_100_000, label: null },
      { url: 'https://doc.rust-lang.org/book/', title: 'The Rust & Cargo Book', addedAt: 1_700_000_200_000, label: 'Dev' },
      { url: 'https://blog.rust-lang.org/', title: 'Rust Blog — news', addedAt: 1_700_000_300_000, label: 'Dev/Rust' },
      { url: 'https://crates.io/', title: 'crates.io', addedAt: 1_700_000_400_000, label: 'Dev' },
      { url: 'https://read.example/a?x=1&y=2', title: 'Single quoted', addedAt: undefined, label: 'Reading' },
      { url: 'https://untitled.example/', title: '', addedAt: undefined, label: 'Reading' },
      { url: 'https://after.example/', title: 'After the folders', addedAt: undefined, label: null },
    ]);
    assert.equal(skipped, 2);
  });

  test('a file without the Netscape doctype but with a bookmark list is read', () => {
    const { bookmarks } = parseBookmarks('<dl><dt><a href="https://x.example/">x</a></dl>', 'x.html');
    assert.equal(bookmarks.length, 1);
  });

  function code(fn: () => unknown): string {
    try {
      fn();
    } catch (err) {
      assert.ok(err instanceof TroveError);
      return err.code;
    }
    assert.fail('no error');
  }

  test('missing, binary, non-UTF-8, and non-bookmark files are coded errors', () => {
    const dir = fresh();
    assert.equal(code(() => readBookmarksFile(join(dir, 'missing.html'))), 'FILE_NOT_FOUND');
    assert.equal(code(() => readBookmarksFile(dir)), 'FILE_NOT_FOUND');
    writeFileSync(join(dir, 'bin.html'), Buffer.from([0x3c, 0x44, 0x4c, 0x3e, 0x00, 0x01, 0x02]));
    assert.equal(code(() => readBookmarksFile(join(dir, 'bin.html'))), 'MALFORMED_INPUT');
    writeFileSync(join(dir, 'latin1.html'), Buffer.from('<DL><DT><A HREF="https://x/">caf\xe9</A></DL>', 'latin1'));
    assert.equal(code(() => readBookmarksFile(join(dir, 'latin1.html'))), 'MALFORMED_INPUT');
    writeFileSync(join(dir, 'page.html'), '<html><body><p>Just a page with a <a href="https://x.example/">link</a></p></body></html>');
    assert.equal(code(() => readBookmarksFile(join(dir, 'page.html'))), 'MALFORMED_INPUT');
    writeFileSync(join(dir, 'empty.html'), '');
    assert.equal(code(() => readBookmarksFile(join(dir, 'empty.html'))), 'MALFORMED_INPUT');
    writeFileSync(join(dir, 'good.html'), BOOKMARKS_HTML);
    assert.equal(readBookmarksFile(join(dir, 'good.html')).bookmarks.length, 8);
  });
});

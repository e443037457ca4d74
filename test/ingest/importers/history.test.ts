import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { TroveError } from '../../../src/errors.js';
import { readBrowserHistory } from '../../../src/ingest/importers/history.js';
import type { Browser, BrowserHistory } from '../../../src/ingest/importers/types.js';
import { suiteDirs } from '../../helpers.js';
import { type FixtureVisit, type Schema, addVisits, createHistoryDb, writeHistoryDb } from './browsers.js';

const { fresh } = suiteDirs('trove-importers-');

const T = Date.UTC(2024, 4, 24, 15, 42, 17, 883);
const VISITS: FixtureVisit[] = [
  { url: 'https://example.org/a', title: 'Page A', at: T },
  { url: 'https://example.org/b', title: 'Page B', at: T + 60_000 },
  { url: 'https://example.org/a', title: 'Page A', at: T + 120_000 },
  { url: 'about:config', title: 'Config', at: T + 130_000 },
  { url: 'file:///home/me/notes.txt', title: 'notes', at: T + 140_000 },
  { url: 'HTTP://Example.ORG/c', title: '  Spaced \n  title ', at: T + 180_000 },
];

const CASES: Array<{ schema: Schema; browser: Browser }> = [
  { schema: 'firefox-old', browser: 'firefox' },
  { schema: 'firefox-new', browser: 'firefox' },
  { schema: 'chrome-v20', browser: 'chrome' },
  { schema: 'chrome-new', browser: 'brave' },
  { schema: 'safari', browser: 'safari' },
];

function visitsOf(h: BrowserHistory): Array<{ url: string; title: string; at: number }> {
  return h.at.map((at, i) => ({ url: h.pages[h.page[i]!]!.url, title: h.pages[h.page[i]!]!.title, at }));
}

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof TroveError, `not a TroveError: ${String(err)}`);
    return err.code;
  }
  assert.fail('no error thrown');
}

describe('reading each browser schema', () => {
  for (const { schema, browser } of CASES) {
    test(`${schema}: exact times, titles, counts; non-http urls skipped`, () => {
      const path = writeHistoryDb(join(fresh(), 'db'), schema, VISITS);
      const h = readBrowserHistory(browser, path, 0);
      assert.deepEqual(visitsOf(h), [
        { url: 'https://example.org/a', title: 'Page A', at: T },
        { url: 'https://example.org/b', title: 'Page B', at: T + 60_000 },
        { url: 'https://example.org/a', title: 'Page A', at: T + 120_000 },
        { url: 'http://example.org/c', title: 'Spaced title', at: T + 180_000 },
      ]);
      assert.equal(h.skipped, 2);
      assert.deepEqual(h.pages.map((p) => p.visitCount), [2, 1, 1]);
    });

    test(`${schema}: a start time leaves out earlier visits`, () => {
      const path = writeHistoryDb(join(fresh(), 'db'), schema, VISITS);
      const h = readBrowserHistory(browser, path, T + 60_000);
      assert.deepEqual(visitsOf(h).map((v) => v.at), [T + 60_000, T + 120_000, T + 180_000]);
    });
  }

  test('Firefox: embedded-content visits are not page visits; places whose visits expired count their last visit', () => {
    const path = join(fresh(), 'places.sqlite');
    const db = createHistoryDb(path, 'firefox-new');
    addVisits(db, 'firefox-new', [{ url: 'https://example.org/page', title: 'Page', at: T }, { url: 'https://ads.example/frame', at: T + 1000, type: 4 }]);
    db.prepare('INSERT INTO moz_places (url, title, visit_count, last_visit_date, guid) VALUES (?, ?, 7, ?, ?)').run('https://old.example/', 'Old', BigInt(T - 5000) * 1000n, 'oldguid');
    db.prepare('INSERT INTO moz_places (url, title, visit_count, last_visit_date, guid) VALUES (?, ?, 0, NULL, ?)').run('https://bookmarked.example/', 'Never visited', 'bmguid');
    db.close();
    const h = readBrowserHistory('firefox', path, 0);
    assert.deepEqual(visitsOf(h), [
      { url: 'https://old.example/', title: 'Old', at: T - 5000 },
      { url: 'https://example.org/page', title: 'Page', at: T },
    ]);
    assert.equal(h.pages[0]!.visitCount, 7);
  });

  test('Chrome: auto-subframe visits are not page visits', () => {
    const path = join(fresh(), 'History');
    const db = createHistoryDb(path, 'chrome-new');
    addVisits(db, 'chrome-new', [{ url: 'https://example.org/page', title: 'Page', at: T }, { url: 'https://ads.example/frame', title: 'ad', at: T + 1000, type: 3 }]);
    db.close();
    assert.deepEqual(visitsOf(readBrowserHistory('chrome', path, 0)).map((v) => v.url), ['https://example.org/page']);
  });

  test('Safari: the title of the latest visit with one wins', () => {
    const path = writeHistoryDb(join(fresh(), 'History.db'), 'safari', [
      { url: 'https://example.org/', title: 'Old title', at: T },
      { url: 'https://example.org/', title: 'New title', at: T + 1000 },
      { url: 'https://example.org/', title: null, at: T + 2000 },
    ]);
    const h = readBrowserHistory('safari', path, 0);
    assert.equal(h.pages.length, 1);
    assert.equal(h.pages[0]!.title, 'New title');
    assert.deepEqual(h.at, [T, T + 1000, T + 2000]);
  });
});

describe('reading safely', () => {
  test('rows written in WAL mode and not checkpointed are read (the -wal file is applied to the copy)', () => {
    const path = join(fresh(), 'places.sqlite');
    const db = createHistoryDb(path, 'firefox-new', { wal: true });
    addVisits(db, 'firefox-new', VISITS.slice(0, 2));
    try {
      assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
      assert.equal(readBrowserHistory('firefox', path, 0).at.length, 2);
    } finally {
      db.close();
    }
  });

  test('a database held in an open write transaction by another connection is read: committed rows only', () => {
    const path = join(fresh(), 'History');
    const db = createHistoryDb(path, 'chrome-new');
    addVisits(db, 'chrome-new', VISITS.slice(0, 2));
    db.exec('BEGIN EXCLUSIVE');
    addVisits(db, 'chrome-new', [{ url: 'https://uncommitted.example/', title: 'x', at: T + 500_000 }]);
    try {
      // The writer holds an exclusive lock: opening the original itself would fail with "database is locked".
      const direct = new Database(path, { readonly: true, timeout: 0 });
      assert.throws(() => direct.prepare('SELECT count(*) FROM urls').get(), /locked/);
      direct.close();
      const h = readBrowserHistory('chrome', path, 0);
      assert.deepEqual(h.pages.map((p) => p.url), ['https://example.org/a', 'https://example.org/b']);
    } finally {
      db.exec('ROLLBACK');
      db.close();
    }
  });

  test('a WAL database locked by a writer mid-transaction is read up to its last commit', () => {
    const path = join(fresh(), 'places.sqlite');
    const db = createHistoryDb(path, 'firefox-new', { wal: true });
    addVisits(db, 'firefox-new', VISITS.slice(0, 2));
    db.exec('BEGIN IMMEDIATE');
    addVisits(db, 'firefox-new', [{ url: 'https://uncommitted.example/', at: T + 500_000 }]);
    try {
      assert.equal(readBrowserHistory('firefox', path, 0).at.length, 2);
    } finally {
      db.exec('ROLLBACK');
      db.close();
    }
  });

  test('the original database and its directory are left exactly as they were', () => {
    const dir = fresh();
    const path = writeHistoryDb(join(dir, 'History'), 'chrome-new', VISITS);
    const before = new Database(path, { readonly: true }).prepare('SELECT count(*) FROM visits').pluck().get();
    readBrowserHistory('chrome', path, 0);
    const check = new Database(path, { readonly: true });
    assert.equal(check.prepare('SELECT count(*) FROM visits').pluck().get(), before);
    check.close();
  });
});

describe('bad inputs are coded errors', () => {
  test('a missing file is FILE_NOT_FOUND', () => {
    assert.equal(codeOf(() => readBrowserHistory('firefox', join(fresh(), 'nope.sqlite'), 0)), 'FILE_NOT_FOUND');
  });

  test('a text file, an empty file and a corrupt database are MALFORMED_INPUT', () => {
    const dir = fresh();
    writeFileSync(join(dir, 'text'), 'this is not a database\n'.repeat(100));
    writeFileSync(join(dir, 'empty'), '');
    const good = writeHistoryDb(join(dir, 'good'), 'chrome-new', VISITS);
    const bytes = readFileSync(good);
    bytes.fill(0xa5, 1024, bytes.length); // header intact, every page after the first destroyed
    writeFileSync(join(dir, 'corrupt'), bytes);
    for (const name of ['text', 'empty', 'corrupt']) assert.equal(codeOf(() => readBrowserHistory('chrome', join(dir, name), 0)), 'MALFORMED_INPUT', name);
  });

  test('another browser’s database or an unknown schema is UNSUPPORTED_TYPE, naming what it is', () => {
    const dir = fresh();
    const chrome = writeHistoryDb(join(dir, 'History'), 'chrome-new', VISITS);
    try {
      readBrowserHistory('firefox', chrome, 0);
      assert.fail('no error');
    } catch (err) {
      assert.ok(err instanceof TroveError);
      assert.equal(err.code, 'UNSUPPORTED_TYPE');
      assert.match(err.message, /is a Chromium-family history database, not a Firefox one/);
    }
    const other = new Database(join(dir, 'other.sqlite'));
    other.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)');
    other.close();
    assert.equal(codeOf(() => readBrowserHistory('safari', join(dir, 'other.sqlite'), 0)), 'UNSUPPORTED_TYPE');
    // A table with the right name but not the columns read.
    const half = new Database(join(dir, 'half.sqlite'));
    half.exec('CREATE TABLE urls (id INTEGER PRIMARY KEY, url TEXT); CREATE TABLE visits (id INTEGER PRIMARY KEY)');
    half.close();
    assert.equal(codeOf(() => readBrowserHistory('chrome', join(dir, 'half.sqlite'), 0)), 'UNSUPPORTED_TYPE');
  });

  test('a directory given as the database is FILE_NOT_FOUND', () => {
    const dir = fresh();
    mkdirSync(join(dir, 'History'));
    assert.equal(codeOf(() => readBrowserHistory('chrome', join(dir, 'History'), 0)), 'FILE_NOT_FOUND');
  });

  test('side files are copied too: a database whose -wal holds the only copy of its rows', () => {
    const dir = fresh();
    const path = join(dir, 'places.sqlite');
    const db = createHistoryDb(path, 'firefox-old', { wal: true });
    addVisits(db, 'firefox-old', VISITS.slice(0, 3));
    // Snapshot the pair (db + wal) while the writer still has the rows only in the WAL.
    copyFileSync(path, join(dir, 'copy.sqlite'));
    copyFileSync(`${path}-wal`, join(dir, 'copy.sqlite-wal'));
    db.close();
    assert.equal(readBrowserHistory('firefox', join(dir, 'copy.sqlite'), 0).at.length, 3);
  });
});

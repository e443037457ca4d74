import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type CliResult, cliEnv, failed, failedJson, ok, parseJson, runCli } from '../cli-run.js';
import { tempDir } from '../helpers.js';
import { BOOKMARKS_HTML } from '../ingest/importers/bookmarks-fixture.js';
import { type FixtureVisit, writeHistoryDb } from '../ingest/importers/browsers.js';
import { type PageServer, page, startPageServer } from '../page-server.js';

const T = Date.UTC(2025, 0, 20, 18);
const VISITS: FixtureVisit[] = [
  { url: 'https://example.org/rust', title: 'Rust error handling', at: T },
  { url: 'https://example.org/go', title: 'Go generics', at: T + 3_600_000 },
  { url: 'https://example.org/rust', title: 'Rust error handling', at: T + 7_200_000 },
  { url: 'about:blank', title: '', at: T + 7_200_001 },
];

let root: string;
let cleanup: () => void;
let n = 0;
before(() => {
  ({ dir: root, cleanup } = tempDir('trove-cli-import-'));
});
after(() => cleanup());

function workspace(extraEnv: Record<string, string> = {}): { base: string; trove: (...args: string[]) => Promise<CliResult> } {
  const base = join(root, `ws-${++n}`);
  mkdirSync(base, { recursive: true });
  const env = cliEnv(base, { HOME: base, ...extraEnv });
  return { base, trove: (...args) => runCli(['--data-dir', join(base, 'data'), ...args], { env, cwd: base }) };
}

describe('trove import <browser>', () => {
  test('--json prints the summary; plain progress lines go to stderr when it is not a terminal', async () => {
    const ws = workspace();
    const db = writeHistoryDb(join(ws.base, 'History'), 'chrome-new', VISITS);
    const r = ok(await ws.trove('import', 'chrome', '--profile', db, '--json'));
    const s = parseJson(r);
    assert.equal(s.source, 'import:chrome');
    assert.equal(s.path, db);
    assert.deepEqual([s.visits_read, s.visits_new, s.urls, s.urls_new, s.skipped, s.documents_created, s.queued, s.fetched, s.failed], [3, 3, 2, 2, 1, 2, 0, 0, 0]);
    assert.equal(r.stderr, 'trove: visits 0/3\ntrove: visits 3/3\n');
    const again = parseJson(ok(await ws.trove('import', 'chrome', '--profile', db, '--json')));
    assert.equal(again.visits_new, 0);
    assert.equal(again.documents_created, 0);
    const found = parseJson(ok(await ws.trove('search', 'generics', '--json')));
    assert.deepEqual(found.results.map((x: { url: string }) => x.url), ['https://example.org/go']);
  });

  test('a human summary; the default profile is found under $HOME', async () => {
    const ws = workspace();
    const profile = join(ws.base, '.mozilla', 'firefox', 'p1.default-release');
    mkdirSync(profile, { recursive: true });
    writeFileSync(join(ws.base, '.mozilla', 'firefox', 'profiles.ini'), '[Profile0]\nName=default-release\nIsRelative=1\nPath=p1.default-release\nDefault=1\n');
    writeHistoryDb(join(profile, 'places.sqlite'), 'firefox-new', VISITS);
    const r = ok(await ws.trove('import', 'firefox', '--since', '2025-01-20'));
    assert.match(r.stdout, /^imported import:firefox from .*p1\.default-release\/places\.sqlite\n/);
    assert.match(r.stdout, /visits: +3 read, 3 new/);
    assert.match(r.stdout, /documents: +2 created/);
  });

  test('bad inputs: a coded error, nothing on stdout, nothing stored', async () => {
    const ws = workspace();
    const chrome = writeHistoryDb(join(ws.base, 'History'), 'chrome-new', VISITS);
    writeFileSync(join(ws.base, 'junk.sqlite'), 'definitely not a database '.repeat(200));
    failed(await ws.trove('import', 'chrome', '--profile', join(ws.base, 'missing')), 'FILE_NOT_FOUND');
    failed(await ws.trove('import', 'brave'), 'FILE_NOT_FOUND');
    failed(await ws.trove('import', 'chrome', '--profile', join(ws.base, 'junk.sqlite')), 'MALFORMED_INPUT');
    failed(await ws.trove('import', 'firefox', '--profile', chrome), 'UNSUPPORTED_TYPE');
    failed(await ws.trove('import', 'chrome', '--profile', chrome, '--since', 'last week'), 'INVALID_ARGUMENT');
    failedJson(await ws.trove('import', 'safari', '--profile', chrome, '--json'), 'UNSUPPORTED_TYPE');
    const status = parseJson(ok(await ws.trove('status', '--json')));
    assert.equal(status.counts.documents, 0);
    const unknown = await ws.trove('import', 'netscape');
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /unknown command 'netscape'/);
  });
});

describe('trove import bookmarks', () => {
  test('folders become labels; a malformed file is MALFORMED_INPUT', async () => {
    const ws = workspace();
    const file = join(ws.base, 'bookmarks.html');
    writeFileSync(file, BOOKMARKS_HTML);
    const s = parseJson(ok(await ws.trove('import', 'bookmarks', file, '--json')));
    assert.deepEqual([s.bookmarks_read, s.skipped, s.documents_created], [8, 2, 8]);
    const found = parseJson(ok(await ws.trove('search', '*', 'label:dev', '--json')));
    assert.deepEqual(found.results.map((x: { url: string }) => x.url).sort(), ['https://crates.io/', 'https://doc.rust-lang.org/book/']);
    const human = ok(await ws.trove('import', 'bookmarks', file));
    assert.match(human.stdout, /bookmarks: 8 read/);
    writeFileSync(join(ws.base, 'notes.txt'), 'just some notes\n');
    failed(await ws.trove('import', 'bookmarks', join(ws.base, 'notes.txt')), 'MALFORMED_INPUT');
    failedJson(await ws.trove('import', 'bookmarks', join(ws.base, 'none.html'), '--json'), 'FILE_NOT_FOUND');
  });
});

describe('trove import --fetch', () => {
  let server: PageServer;
  before(async () => {
    server = await startPageServer({ '/ok': page('<html><head><title>Served</title></head><body><p>Ownership and borrowing, served locally.</p></body></html>') });
  });
  after(() => server.close());

  test('fetches queued pages; a 404 is counted as failed and the command still succeeds', async () => {
    const ws = workspace();
    const db = writeHistoryDb(join(ws.base, 'History'), 'chrome-v20', [
      { url: `${server.base}/ok`, title: 'ok', at: T },
      { url: `${server.base}/missing`, title: 'missing', at: T + 1 },
    ]);
    const r = ok(await ws.trove('import', 'vivaldi', '--profile', db, '--fetch', '--json'));
    const s = parseJson(r);
    assert.deepEqual([s.queued, s.fetched, s.failed], [2, 1, 1]);
    assert.equal(s.failures[0].code, 'FETCH_FAILED');
    assert.match(r.stderr, /trove: fetch 2\/2\n$/);
    const found = parseJson(ok(await ws.trove('search', 'borrowing', '--json')));
    assert.equal(found.results[0].url, `${server.base}/ok`);
    const human = ok(await ws.trove('import', 'vivaldi', '--profile', db, '--fetch'));
    assert.match(human.stdout, /fetch: +0 queued, 0 fetched, 1 failed\n {2}failed http:\/\/127\.0\.0\.1:\d+\/missing: FETCH_FAILED: /);
  });
});

import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, test } from 'node:test';
import { type CliResult, type Served, cliEnv, parseJson, runCli, startServe } from '../cli-run.js';
import { tempDir } from '../helpers.js';

// Several processes write one store at once: a running server (HTTP writes and reads) and
// independent `trove add` / `trove search` processes. SQLite's locking plus the busy timeout must
// serialize them without any caller seeing STORE_BUSY or "database is locked".

const ADDERS = 6;
const FILES_PER_ADDER = 8;
const POSTERS = 4;
const POSTS_PER_POSTER = 12;

/** A word made of letters only, so no tokenizer or stemmer splits or folds two of them together. */
function word(prefix: string, n: number): string {
  let s = '';
  do {
    s = String.fromCharCode(97 + (n % 26)) + s;
    n = Math.floor(n / 26);
  } while (n > 0);
  return `${prefix}${s}zx`;
}

let tmp: { dir: string; cleanup: () => void };
let served: Served | undefined;
let env: NodeJS.ProcessEnv;
let data: string;

before(async () => {
  tmp = tempDir('trove-concurrency-');
  env = cliEnv(tmp.dir);
  data = join(tmp.dir, 'data');
  served = await startServe(['--data-dir', data], env);
});

after(async () => {
  await served?.stop();
  tmp.cleanup();
});

function assertClean(r: CliResult, what: string): void {
  assert.equal(r.code, 0, `${what} exited ${r.code}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`);
  assert.equal(r.stderr, '', what);
  for (const bad of ['STORE_BUSY', 'locked', 'SQLITE']) assert.ok(!r.stdout.includes(bad), `${what}: ${bad}`);
}

test('concurrent CLI writers and a busy server all succeed, and every document is searchable everywhere', { timeout: 180_000 }, async () => {
  const base = served!.url;
  const expected = new Map<string, { url: string; group: string }>();

  const dirs: string[] = [];
  for (let a = 0; a < ADDERS; a++) {
    const dir = join(tmp.dir, 'files', `adder-${a}`);
    mkdirSync(dir, { recursive: true });
    dirs.push(dir);
    for (let f = 0; f < FILES_PER_ADDER; f++) {
      const path = join(dir, `note-${f}.txt`);
      const unique = word('cliq', a * FILES_PER_ADDER + f);
      writeFileSync(path, `Shared corpus word everyonezx. Group ${word('group', a)}. Unique ${unique}.\n${'filler text for a realistic size. '.repeat(40)}`);
      expected.set(unique, { url: pathToFileURL(path).href, group: word('group', a) });
    }
  }

  const adds = dirs.map((dir) => runCli(['--data-dir', data, 'add', dir, '--json'], { env, timeoutMs: 120_000 }));

  const httpFailures: string[] = [];
  const posters = Array.from({ length: POSTERS }, async (_, p) => {
    for (let i = 0; i < POSTS_PER_POSTER; i++) {
      const unique = word('httpq', p * POSTS_PER_POSTER + i);
      const url = `https://example.org/concurrent/${p}/${i}`;
      expected.set(unique, { url, group: word('poster', p) });
      const res = await fetch(`${base}/api/documents`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url, title: `Posted ${p}/${i}`, text: `Shared corpus word everyonezx. Group ${word('poster', p)}. Unique ${unique}.` }),
      });
      const body = await res.text();
      if (res.status !== 201) httpFailures.push(`POST ${url}: ${res.status} ${body}`);
      const search = await fetch(`${base}/api/search?q=everyonezx&limit=5`);
      if (search.status !== 200) httpFailures.push(`search: ${search.status} ${await search.text()}`);
      else await search.arrayBuffer();
    }
  });

  const readers = Array.from({ length: 3 }, () => runCli(['--data-dir', data, 'search', 'everyonezx', '--json'], { env, timeoutMs: 120_000 }));
  const statusDuring = runCli(['--data-dir', data, 'status', '--json'], { env, timeoutMs: 120_000 });

  const [addResults, , readerResults, status] = await Promise.all([Promise.all(adds), Promise.all(posters), Promise.all(readers), statusDuring]);

  addResults.forEach((r, a) => {
    assertClean(r, `trove add adder-${a}`);
    const results = parseJson(r).results as Array<{ status: string; error?: unknown }>;
    assert.equal(results.length, FILES_PER_ADDER);
    assert.deepEqual(results.map((x) => x.status), Array(FILES_PER_ADDER).fill('added'));
  });
  readerResults.forEach((r, i) => assertClean(r, `trove search #${i}`));
  assertClean(status, 'trove status');
  assert.deepEqual(httpFailures, []);
  assert.ok(!served!.stderr().includes('request failed'), served!.stderr());

  const total = ADDERS * FILES_PER_ADDER + POSTERS * POSTS_PER_POSTER;
  assert.equal(expected.size, total);

  // Every document by its unique word, over HTTP.
  for (const [unique, doc] of expected) {
    const res = await fetch(`${base}/api/search?q=${unique}`);
    assert.equal(res.status, 200);
    const body = (await res.json()) as { total: number; results: Array<{ url: string }> };
    assert.equal(body.total, 1, unique);
    assert.equal(body.results[0]!.url, doc.url, unique);
  }

  // Every document by its group word, through the CLI (a process that did not write them).
  const groups = new Map<string, string[]>();
  for (const doc of expected.values()) groups.set(doc.group, [...(groups.get(doc.group) ?? []), doc.url]);
  const cliSearches = await Promise.all([...groups.keys()].map((g) => runCli(['--data-dir', data, 'search', g, '--limit', '50', '--json'], { env })));
  [...groups.entries()].forEach(([group, urls], i) => {
    const r = cliSearches[i]!;
    assertClean(r, `trove search ${group}`);
    const body = parseJson(r);
    assert.equal(body.total, urls.length, group);
    assert.deepEqual(body.results.map((x: { url: string }) => x.url).sort(), [...urls].sort(), group);
  });

  const everyone = parseJson(await runCli(['--data-dir', data, 'search', 'everyonezx', '--json'], { env }));
  assert.equal(everyone.total, total);
  const httpEveryone = (await (await fetch(`${base}/api/search?q=everyonezx`)).json()) as { total: number };
  assert.equal(httpEveryone.total, total);

  const finalStatus = parseJson(await runCli(['--data-dir', data, 'status', '--json'], { env }));
  assert.equal(finalStatus.counts.documents, total);
  assert.equal(finalStatus.counts.versions, total);
  assert.equal(finalStatus.revision, total);
  const httpStatus = (await (await fetch(`${base}/api/status`)).json()) as { revision: number; counts: { documents: number } };
  assert.equal(httpStatus.counts.documents, total);
  assert.equal(httpStatus.revision, total);
});

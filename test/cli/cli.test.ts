import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { type Server, createServer } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { parse as parseToml } from 'smol-toml';
import { VERSION } from '../../src/app.js';
import { SCHEMA_VERSION } from '../../src/store/sqlite/migrations.js';
import { type CliResult, cliEnv, failed, failedJson as jsonFailure, ok, parseJson, runCli, startServe } from '../cli-run.js';
import { tempDir } from '../helpers.js';

const ULID = '[0-9A-HJKMNP-TV-Z]{26}';
const SEARCH_RESULT_KEYS = ['id', 'url', 'title', 'snippet', 'score', 'added', 'updated', 'domain', 'label', 'language', 'type', 'match'];
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

let root: string;
let cleanup: () => void;
let env: NodeJS.ProcessEnv;
before(() => {
  ({ dir: root, cleanup } = tempDir('trove-cli-'));
  env = cliEnv(root);
});
after(() => cleanup());

let n = 0;
/** A fresh data directory and a folder for input files. */
function workspace(): { data: string; files: string; trove: (...args: string[]) => Promise<CliResult> } {
  const base = join(root, `ws-${++n}`);
  const data = join(base, 'data');
  const files = join(base, 'files');
  mkdirSync(files, { recursive: true });
  return { data, files, trove: (...args) => runCli(['--data-dir', data, ...args], { env, cwd: base }) };
}

function write(path: string, content: string | Buffer): string {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, content);
  return path;
}

/** The same failure with --json: one JSON error object on stdout. */
function failedJson(r: CliResult, code: string, exit = 1): Record<string, any> {
  const body = jsonFailure(r, code, exit);
  assert.deepEqual(Object.keys(body), ['error']);
  assert.equal(typeof body.error.message, 'string');
  return body.error;
}

describe('add', () => {
  test('a text file: human and JSON output, then unchanged, then updated', async () => {
    const ws = workspace();
    const note = write(join(ws.files, 'note.txt'), 'Quokkas live on Rottnest Island.\n');
    const url = pathToFileURL(note).href;

    const first = ok(await ws.trove('add', note));
    assert.match(first.stdout, new RegExp(`^added     ${ULID}  ${url.replace(/[.]/g, '\\.')}\\n$`));
    assert.equal(first.stderr, '');
    const id = first.stdout.split(/\s+/)[1]!;

    const again = parseJson(ok(await ws.trove('add', note, '--json')));
    assert.deepEqual(Object.keys(again), ['results', 'summary']);
    assert.deepEqual(again.summary, { added: 0, updated: 0, unchanged: 1, skipped: 0, failed: 0 });
    assert.equal(again.results.length, 1);
    const r = again.results[0];
    assert.equal(r.target, note);
    assert.equal(r.status, 'unchanged');
    assert.deepEqual(Object.keys(r.document).sort(), ['added', 'domain', 'id', 'label', 'language', 'metadata', 'source', 'title', 'type', 'updated', 'url', 'version_count']);
    assert.equal(r.document.id, id);
    assert.equal(r.document.type, 'local');
    assert.equal(r.document.url, url);
    assert.equal(r.document.title, 'note.txt');
    assert.equal(r.document.domain, '');
    assert.equal(r.document.source, 'cli');
    assert.equal(r.document.label, null);
    assert.equal(r.document.version_count, 1);
    assert.match(r.document.added, ISO);
    assert.match(r.document.metadata.modified, ISO);

    write(note, 'Quokkas live on Rottnest Island and Bald Island.\n');
    const changed = ok(await ws.trove('add', note));
    assert.equal(changed.stdout, `updated   ${id}  ${url}\n`);
    const shown = parseJson(ok(await ws.trove('show', id, '--json')));
    assert.equal(shown.document.version_count, 2);
    assert.equal(shown.versions.length, 2);
    assert.equal(shown.text, 'Quokkas live on Rottnest Island and Bald Island.');
  });

  test('--label is stored and shown in search results', async () => {
    const ws = workspace();
    const file = write(join(ws.files, 'recipe.md'), '# Flatbread\n\nFlour, water, salt.\n');
    const added = parseJson(ok(await ws.trove('add', file, '--label', 'kitchen', '--json')));
    assert.equal(added.results[0].document.label, 'kitchen');
    assert.equal(added.results[0].document.title, 'Flatbread');
    const found = parseJson(ok(await ws.trove('search', 'flour', '--json')));
    assert.equal(found.results[0].label, 'kitchen');
  });

  test('a directory: supported files recursively, hidden and unsupported ones skipped, bad ones reported', async () => {
    const ws = workspace();
    const dir = join(ws.files, 'tree');
    write(join(dir, 'a.txt'), 'alpha plain text');
    write(join(dir, 'b.md'), '# Bravo Heading\n\nbravo markdown body');
    write(join(dir, 'c.html'), '<html><head><title>Charlie Page</title></head><body><p>charlie html body</p><script>var hidden = 1;</script></body></html>');
    write(join(dir, 'nested', 'deeper', 'd.txt'), 'delta nested text');
    write(join(dir, 'e.docx'), 'echo in a format trove does not read');
    write(join(dir, 'f'), 'foxtrot without extension');
    write(join(dir, '.hidden.txt'), 'golf hidden');
    write(join(dir, '.git', 'h.txt'), 'hotel in a hidden folder');
    write(join(dir, 'z-binary.txt'), Buffer.from([0x68, 0x00, 0x69]));

    const r = await ws.trove('add', dir, '--json');
    assert.equal(r.code, 1, 'one bad file fails the command');
    const results = parseJson(r).results as Array<Record<string, any>>;
    assert.deepEqual(results.map((x) => x.target), ['a.txt', 'b.md', 'c.html', 'nested/deeper/d.txt', 'z-binary.txt'].map((f) => join(dir, f)));
    assert.deepEqual(results.map((x) => x.status ?? x.error.code), ['added', 'added', 'added', 'added', 'UNSUPPORTED_TYPE']);
    assert.deepEqual(results.slice(0, 4).map((x) => x.document.title), ['a.txt', 'Bravo Heading', 'Charlie Page', 'd.txt']);

    const status = parseJson(ok(await ws.trove('status', '--json')));
    assert.equal(status.counts.documents, 4);
    assert.equal(status.counts.local, 4);
    for (const word of ['echo', 'foxtrot', 'golf', 'hotel', 'hidden']) {
      assert.equal(parseJson(ok(await ws.trove('search', word, '--json'))).total, 0, word);
    }
    assert.equal(parseJson(ok(await ws.trove('search', 'charlie', '--json'))).total, 1);

    const human = await ws.trove('add', dir);
    assert.equal(human.code, 1);
    assert.deepEqual(human.stdout.split('\n').map((l) => l.split(/\s+/)[0]), ['unchanged', 'unchanged', 'unchanged', 'unchanged', '']);
    assert.equal(human.stderr, `trove: UNSUPPORTED_TYPE: ${join(dir, 'z-binary.txt')} looks binary (it contains NUL bytes)\n`);
  });

  test('a directory without supported files is FILE_NOT_FOUND', async () => {
    const ws = workspace();
    const dir = join(ws.files, 'empty');
    write(join(dir, 'only.docx'), 'PK');
    failed(await ws.trove('add', dir), 'FILE_NOT_FOUND');
    failedJson(await ws.trove('add', dir, '--json'), 'FILE_NOT_FOUND');
  });

  test('a missing file is FILE_NOT_FOUND; the other targets are still added', async () => {
    const ws = workspace();
    const good = write(join(ws.files, 'good.txt'), 'present and accounted for');
    const missing = join(ws.files, 'missing.txt');
    failed(await ws.trove('add', missing), 'FILE_NOT_FOUND');
    const mixed = await ws.trove('add', missing, good);
    assert.equal(mixed.code, 1);
    assert.match(mixed.stdout, /^added {5}\S+ {2}file:\/\/\S+good\.txt\n$/);
    assert.match(mixed.stderr, /^trove: FILE_NOT_FOUND: [^\n]*missing\.txt\n$/);
    const json = await ws.trove('add', missing, '--json');
    assert.equal(json.code, 1);
    assert.deepEqual(parseJson(json).results, [{ target: missing, error: { code: 'FILE_NOT_FOUND', message: `no such file: ${missing}` } }]);
    assert.equal(parseJson(ok(await ws.trove('search', 'accounted', '--json'))).total, 1);
  });

  test('binary, invalid UTF-8 and unsupported files are UNSUPPORTED_TYPE', async () => {
    const ws = workspace();
    const nul = write(join(ws.files, 'nul.txt'), Buffer.from('text\u0000more'));
    const latin1 = write(join(ws.files, 'latin1.md'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    const docx = write(join(ws.files, 'doc.docx'), 'PK');
    for (const f of [nul, latin1, docx]) {
      failed(await ws.trove('add', f), 'UNSUPPORTED_TYPE');
      const json = await ws.trove('add', f, '--json');
      assert.equal(json.code, 1);
      assert.equal(parseJson(json).results[0].error.code, 'UNSUPPORTED_TYPE');
    }
    assert.equal(parseJson(ok(await ws.trove('status', '--json'))).counts.documents, 0);
  });

  test('a file over indexer.max_file_bytes is TOO_LARGE', async () => {
    const ws = workspace();
    const big = write(join(ws.files, 'big.txt'), '0123456789A');
    const small = write(join(ws.files, 'small.txt'), '0123456789');
    failed(await ws.trove('--set', 'indexer.max_file_bytes=10', 'add', big), 'TOO_LARGE');
    const json = await ws.trove('--set', 'indexer.max_file_bytes=10', 'add', big, small, '--json');
    assert.equal(json.code, 1);
    assert.deepEqual(parseJson(json).results.map((r: any) => r.status ?? r.error.code), ['TOO_LARGE', 'added']);
    ok(await ws.trove('add', big));
  });
});

describe('search, show, status', () => {
  let ws: ReturnType<typeof workspace>;
  let ids: Record<string, string>;
  before(async () => {
    ws = workspace();
    write(join(ws.files, 'otters.md'), '# Sea Otters\n\nSea otters hold hands while sleeping so they do not drift apart.');
    write(join(ws.files, 'beavers.txt'), 'Beavers build dams; otters sometimes live in beaver lodges.');
    write(join(ws.files, 'herons.html'), '<title>Herons</title><p>Grey herons stand still for a long time.</p>');
    const added = parseJson(ok(await ws.trove('add', ws.files, '--label', 'animals', '--json')));
    ids = Object.fromEntries(added.results.map((r: any) => [r.document.title, r.document.id]));
  });

  test('search --json has the documented shape', async () => {
    const r = parseJson(ok(await ws.trove('search', 'otters', '--json')));
    for (const key of ['results', 'total', 'duration_ms']) assert.ok(key in r, key);
    assert.equal(r.total, 2);
    assert.equal(typeof r.duration_ms, 'number');
    assert.deepEqual(r.results.map((x: any) => x.id).sort(), [ids['Sea Otters'], ids['beavers.txt']].sort());
    const hit = r.results.find((x: any) => x.id === ids['Sea Otters']);
    for (const key of SEARCH_RESULT_KEYS) assert.ok(key in hit, key);
    assert.equal(hit.title, 'Sea Otters');
    assert.equal(hit.url, pathToFileURL(join(ws.files, 'otters.md')).href);
    assert.equal(hit.label, 'animals');
    assert.equal(hit.type, 'local');
    assert.equal(hit.match, 'full');
    assert.equal(typeof hit.score, 'number');
    assert.match(hit.snippet, /\*\*otters\*\*/i);
    assert.match(hit.updated, ISO);
  });

  test('search words are joined into one query; --limit caps the results, not the total', async () => {
    const both = parseJson(ok(await ws.trove('search', 'beaver', 'dams', '--json')));
    assert.deepEqual(both.results.map((x: any) => x.id), [ids['beavers.txt']]);
    const one = parseJson(ok(await ws.trove('search', 'otters', '--limit', '1', '--json')));
    assert.equal(one.results.length, 1);
    assert.equal(one.total, 2);
  });

  test('search in human form', async () => {
    const r = ok(await ws.trove('search', 'herons'));
    const lines = r.stdout.split('\n');
    assert.equal(lines[0], '1. Herons');
    assert.equal(lines[1], `   ${pathToFileURL(join(ws.files, 'herons.html')).href}`);
    assert.equal(lines[2], '   Grey **herons** stand still for a long time.');
    assert.match(lines[3]!, new RegExp(`^   score [0-9.e-]+ · updated \\d{4}-\\d\\d-\\d\\d · id ${ids.Herons}$`));
    assert.match(lines[4]!, /^1 shown, 1 matching \([0-9.]+ ms\)$/);
    assert.equal(lines[5], '');
    const none = ok(await ws.trove('search', 'zebra'));
    assert.match(none.stdout, /^0 shown, 0 matching \([0-9.]+ ms\)\n$/);
  });

  test('search date filters', async () => {
    const today = new Date().toISOString().slice(0, 10);
    assert.equal(parseJson(ok(await ws.trove('search', 'otters', '--date-from', today, '--json'))).total, 2);
    assert.equal(parseJson(ok(await ws.trove('search', 'otters', '--date-from', '2999-01-01', '--json'))).total, 0);
    assert.equal(parseJson(ok(await ws.trove('search', 'otters', '--date-to', '2000-01-01', '--json'))).total, 0);
    assert.equal(failedJson(await ws.trove('search', 'otters', '--date-from', 'yesterday', '--json'), 'INVALID_ARGUMENT').details.field, 'date_from');
    failed(await ws.trove('search', 'otters', '--date-from', '2020-02-02', '--date-to', '2020-01-01'), 'INVALID_ARGUMENT');
  });

  test('search errors', async () => {
    failed(await ws.trove('search', 'otters', '--limit', 'many'), 'INVALID_ARGUMENT');
    assert.equal(failedJson(await ws.trove('search', 'otters', '--limit', '2.5', '--json'), 'INVALID_ARGUMENT').details.field, 'limit');
    failed(await ws.trove('search', '(otters'), 'INVALID_QUERY');
    const err = failedJson(await ws.trove('search', 'sea', '(otters', '--json'), 'INVALID_QUERY');
    assert.equal(err.details.position, 4);
  });

  test('show by id and by url, human and JSON', async () => {
    const id = ids['Sea Otters']!;
    const url = pathToFileURL(join(ws.files, 'otters.md')).href;
    const byId = parseJson(ok(await ws.trove('show', id, '--json')));
    assert.deepEqual(Object.keys(byId), ['document', 'versions', 'text']);
    assert.equal(byId.document.id, id);
    assert.equal(byId.document.url, url);
    assert.equal(byId.document.label, 'animals');
    assert.equal(byId.text, '# Sea Otters\n\nSea otters hold hands while sleeping so they do not drift apart.');
    assert.equal(byId.versions.length, 1);
    assert.match(byId.versions[0].sha256, /^[0-9a-f]{64}$/);
    assert.equal(byId.versions[0].text_length, byId.text.length);
    assert.deepEqual(parseJson(ok(await ws.trove('show', url, '--json'))), byId);

    const human = ok(await ws.trove('show', url)).stdout;
    const lines = human.split('\n');
    assert.equal(lines[0], 'Sea Otters');
    assert.equal(lines[1], `id:       ${id}`);
    assert.equal(lines[2], `url:      ${url}`);
    assert.equal(lines[3], 'type:     local    language: en    label: animals    source: cli');
    assert.ok(human.endsWith('\n\n# Sea Otters\n\nSea otters hold hands while sleeping so they do not drift apart.\n'));
  });

  test('show of an unknown document is NOT_FOUND', async () => {
    failed(await ws.trove('show', '01ARZ3NDEKTSV4RRFFQ69G5FAV'), 'NOT_FOUND');
    failedJson(await ws.trove('show', 'https://nowhere.example/', '--json'), 'NOT_FOUND');
  });

  test('status, human and JSON', async () => {
    const s = parseJson(ok(await ws.trove('status', '--json')));
    assert.deepEqual(Object.keys(s), ['version', 'store', 'instance_id', 'epoch', 'revision', 'counts', 'semantic', 'llm', 'searxng']);
    assert.deepEqual(s.semantic, { enabled: false });
    assert.equal(s.version, VERSION);
    assert.deepEqual(s.counts, { documents: 3, web: 0, local: 3, memory: 0, versions: 3, chunks: 3 });
    assert.equal(s.store.backend, 'sqlite');
    assert.equal(s.store.path, join(ws.data, 'trove.db'));
    assert.equal(s.store.schema_version, SCHEMA_VERSION);
    assert.equal(s.revision, 3);
    assert.equal(s.epoch, 0);
    assert.ok(s.store.size_bytes > 0);
    assert.match(s.instance_id, new RegExp(`^${ULID}$`));

    const lines = ok(await ws.trove('status')).stdout.split('\n');
    assert.equal(lines[0], `trove ${VERSION}`);
    assert.match(lines[1]!, new RegExp(`^store: {5}sqlite ${join(ws.data, 'trove.db').replace(/[.]/g, '\\.')} \\([0-9.]+ KiB, schema ${SCHEMA_VERSION}\\)$`));
    assert.equal(lines[2], `instance:  ${s.instance_id} epoch 0 revision 3`);
    assert.equal(lines[3], 'documents: 3 (web 0, local 3, memory 0); versions 3; passages 3');
    assert.equal(lines[4], 'semantic:  off ([semantic] enabled = false)');
  });
});

describe('program', () => {
  test('--version and usage errors', async () => {
    const ws = workspace();
    assert.equal(ok(await ws.trove('--version')).stdout, `${VERSION}\n`);
    const unknown = await ws.trove('frobnicate');
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /unknown command 'frobnicate'/);
    const noArgs = await ws.trove('add');
    assert.equal(noArgs.code, 1);
    assert.match(noArgs.stderr, /missing required argument 'targets'/);
  });

  test('`config show` reflects --data-dir and --set', async () => {
    const ws = workspace();
    const shown = parseJson(ok(await ws.trove('--set', 'search.default_limit=3', '--set', 'log.level=debug', 'config', 'show', '--json')));
    assert.equal(shown.data_dir, ws.data);
    assert.equal(shown.search.default_limit, 3);
    assert.equal(shown.log.level, 'debug');
    const human = parseToml(ok(await ws.trove('config', 'show')).stdout) as Record<string, Record<string, unknown>>;
    assert.equal(human.search!.default_limit, 10);
  });
});

describe('serve', () => {
  test('serves until SIGTERM, then exits 0', async () => {
    const ws = workspace();
    const served = await startServe(['--data-dir', ws.data], env);
    try {
      assert.match(served.url, /^http:\/\/127\.0\.0\.1:\d+$/);
      const res = await fetch(`${served.url}/healthz`);
      assert.equal(res.status, 200);
      assert.deepEqual(await res.json(), { ok: true });
      const status = (await (await fetch(`${served.url}/api/status`)).json()) as Record<string, any>;
      assert.equal(status.epoch, 1, 'serve starts a new epoch');
    } finally {
      await served.stop();
    }
    assert.equal(served.child.exitCode, 0);
  });

  test('a non-loopback address without a token is refused (exit 78)', async () => {
    const ws = workspace();
    failed(await ws.trove('serve', '--address', '0.0.0.0:0'), 'INVALID_CONFIG', 78);
  });

  test('a malformed address is INVALID_CONFIG (exit 78)', async () => {
    const ws = workspace();
    failed(await ws.trove('serve', '--address', 'localhost'), 'INVALID_CONFIG', 78);
  });

  test('a port in use is LISTEN_FAILED', async () => {
    const ws = workspace();
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    try {
      const port = (blocker.address() as { port: number }).port;
      failed(await ws.trove('serve', '--address', `127.0.0.1:${port}`), 'LISTEN_FAILED');
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });
});

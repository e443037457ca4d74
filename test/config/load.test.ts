import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parse as parseToml } from 'smol-toml';
import { describeConfig, loadConfig } from '../../src/config/load.js';
import { allKeys } from '../../src/config/schema.js';
import { TroveError } from '../../src/errors.js';
import { cliEnv, parseJson, runCli } from '../cli-run.js';
import { suiteDirs } from '../helpers.js';

const dirs = suiteDirs('trove-config-');
const fresh = dirs.fresh;

function writeConfig(text: string): string {
  const path = join(fresh(), 'config.toml');
  writeFileSync(path, text);
  return path;
}

/** Asserts `fn` throws INVALID_CONFIG naming `key`. */
function assertConfigError(fn: () => unknown, key: string): TroveError {
  let caught: unknown;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  assert.ok(caught instanceof TroveError, `expected a TroveError, got ${String(caught)}`);
  assert.equal(caught.code, 'INVALID_CONFIG');
  assert.equal(caught.details?.key, key);
  return caught;
}

const isolated = () => ({ XDG_CONFIG_HOME: fresh(), HOME: dirs.root() });

describe('defaults', () => {
  test('every key takes its documented default when nothing is set', () => {
    const data = fresh();
    const config = loadConfig({ dataDir: data, env: isolated() });
    for (const { section, key, spec } of allKeys()) {
      assert.equal((config as unknown as Record<string, Record<string, unknown>>)[section]![key], spec.default, `${section}.${key}`);
    }
    assert.equal(config.server.address, '127.0.0.1:4433');
    assert.equal(config.server.max_body_bytes, 1_048_576);
    assert.equal(config.app.access_token, '');
    assert.equal(config.store.busy_timeout_ms, 5000);
    assert.equal(config.search.default_limit, 10);
    assert.equal(config.indexer.max_file_bytes, 2_097_152);
    assert.equal(config.log.level, 'info');
    assert.equal(config.dataDir, data);
    assert.equal(config.configFile, undefined);
  });

  test('the data directory defaults under XDG_DATA_HOME, else HOME/.local/share', () => {
    const xdg = fresh();
    assert.equal(loadConfig({ env: { ...isolated(), XDG_DATA_HOME: xdg } }).dataDir, join(xdg, 'trove'));
    const home = fresh();
    assert.equal(loadConfig({ env: { XDG_CONFIG_HOME: fresh(), HOME: home } }).dataDir, join(home, '.local', 'share', 'trove'));
  });

  test('TROVE_DATA_DIR sets the data directory and --data-dir beats it', () => {
    const fromEnv = fresh();
    const fromFlag = fresh();
    assert.equal(loadConfig({ env: { ...isolated(), TROVE_DATA_DIR: fromEnv } }).dataDir, fromEnv);
    assert.equal(loadConfig({ dataDir: fromFlag, env: { ...isolated(), TROVE_DATA_DIR: fromEnv } }).dataDir, fromFlag);
  });
});

describe('sources and precedence', () => {
  const fileText = '[search]\ndefault_limit = 20\nweight_title = 3.5\n[indexer]\nchunk_chars = 500\n[log]\nlevel = "warn"\n';

  test('the default config file under XDG_CONFIG_HOME is read', () => {
    const home = fresh();
    mkdirSync(join(home, 'trove'));
    writeFileSync(join(home, 'trove', 'config.toml'), fileText);
    const config = loadConfig({ dataDir: fresh(), env: { XDG_CONFIG_HOME: home } });
    assert.equal(config.configFile, join(home, 'trove', 'config.toml'));
    assert.equal(config.search.default_limit, 20);
    assert.equal(config.search.weight_title, 3.5);
    assert.equal(config.indexer.chunk_chars, 500);
    assert.equal(config.log.level, 'warn');
    assert.equal(config.search.weight_text, 1, 'keys the file leaves out keep their defaults');
  });

  test('file < env < flags, key by key', () => {
    const path = writeConfig(fileText);
    const env = { ...isolated(), TROVE_SEARCH_DEFAULT_LIMIT: '30', TROVE_INDEXER_CHUNK_CHARS: '600' };
    const fileOnly = loadConfig({ configPath: path, dataDir: fresh(), env: isolated() });
    assert.equal(fileOnly.search.default_limit, 20);
    const withEnv = loadConfig({ configPath: path, dataDir: fresh(), env });
    assert.equal(withEnv.search.default_limit, 30);
    assert.equal(withEnv.indexer.chunk_chars, 600);
    assert.equal(withEnv.log.level, 'warn');
    const withFlags = loadConfig({ configPath: path, dataDir: fresh(), env, overrides: { 'search.default_limit': '40' } });
    assert.equal(withFlags.search.default_limit, 40);
    assert.equal(withFlags.indexer.chunk_chars, 600, 'env still beats the file where no flag is given');
    assert.equal(withFlags.search.weight_title, 3.5, 'the file still beats defaults');
    assert.equal(withFlags.configFile, path);
  });

  test('TROVE_CONFIG names the file and --config beats it', () => {
    const a = writeConfig('[search]\ndefault_limit = 11\n');
    const b = writeConfig('[search]\ndefault_limit = 12\n');
    assert.equal(loadConfig({ dataDir: fresh(), env: { ...isolated(), TROVE_CONFIG: a } }).search.default_limit, 11);
    assert.equal(loadConfig({ configPath: b, dataDir: fresh(), env: { ...isolated(), TROVE_CONFIG: a } }).search.default_limit, 12);
  });

  test('text from env and flags is converted to the key type', () => {
    const c = loadConfig({ dataDir: fresh(), env: { ...isolated(), TROVE_SEARCH_WEIGHT_URL: '2.25', TROVE_APP_ACCESS_TOKEN: 's3cret' }, overrides: { 'store.busy_timeout_ms': '0' } });
    assert.equal(c.search.weight_url, 2.25);
    assert.equal(c.store.busy_timeout_ms, 0);
    assert.equal(c.app.access_token, 's3cret');
  });

  test('TROVE_* variables outside the known sections are not settings', () => {
    const c = loadConfig({ dataDir: fresh(), env: { ...isolated(), TROVE_SOMETHING_ELSE: 'x' } });
    assert.equal(c.search.default_limit, 10);
  });
});

describe('refused configuration', () => {
  test('an unknown section or key in the file names it', () => {
    assertConfigError(() => loadConfig({ configPath: writeConfig('[nosuch]\nx = 1\n'), dataDir: fresh(), env: isolated() }), 'nosuch');
    assertConfigError(() => loadConfig({ configPath: writeConfig('[search]\nlimit = 5\n'), dataDir: fresh(), env: isolated() }), 'search.limit');
    assertConfigError(() => loadConfig({ configPath: writeConfig('default_limit = 5\n'), dataDir: fresh(), env: isolated() }), 'default_limit');
    assertConfigError(() => loadConfig({ configPath: writeConfig('search = 5\n'), dataDir: fresh(), env: isolated() }), 'search');
  });

  test('an unknown environment setting names the variable', () => {
    assertConfigError(() => loadConfig({ dataDir: fresh(), env: { ...isolated(), TROVE_SEARCH_LIMIT: '5' } }), 'TROVE_SEARCH_LIMIT');
  });

  test('an unknown --set key names it', () => {
    assertConfigError(() => loadConfig({ dataDir: fresh(), env: isolated(), overrides: { 'search.limit': '5' } }), 'search.limit');
    assertConfigError(() => loadConfig({ dataDir: fresh(), env: isolated(), overrides: { 'nosuch.key': '5' } }), 'nosuch.key');
    assertConfigError(() => loadConfig({ dataDir: fresh(), env: isolated(), overrides: { limit: '5' } }), 'limit');
    assertConfigError(() => loadConfig({ dataDir: fresh(), env: isolated(), overrides: { 'search.default_limit.x': '5' } }), 'search.default_limit.x');
  });

  test('wrong types in the file', () => {
    const bad = (toml: string) => loadConfig({ configPath: writeConfig(toml), dataDir: fresh(), env: isolated() });
    assertConfigError(() => bad('[search]\ndefault_limit = "10"\n'), 'search.default_limit');
    assertConfigError(() => bad('[search]\ndefault_limit = 2.5\n'), 'search.default_limit');
    assertConfigError(() => bad('[server]\naddress = 4433\n'), 'server.address');
    assertConfigError(() => bad('[log]\nlevel = "loud"\n'), 'log.level');
    assertConfigError(() => bad('[store]\nbackend = "postgres-someday"\n'), 'store.backend');
    assertConfigError(() => bad('[app]\naccess_token = true\n'), 'app.access_token');
  });

  test('values out of range, from every source', () => {
    assertConfigError(() => loadConfig({ configPath: writeConfig('[search]\ndefault_limit = 51\n'), dataDir: fresh(), env: isolated() }), 'search.default_limit');
    assertConfigError(() => loadConfig({ dataDir: fresh(), env: isolated(), overrides: { 'search.default_limit': '0' } }), 'search.default_limit');
    assertConfigError(() => loadConfig({ dataDir: fresh(), env: isolated(), overrides: { 'indexer.max_file_bytes': '0' } }), 'indexer.max_file_bytes');
    assertConfigError(() => loadConfig({ dataDir: fresh(), env: isolated(), overrides: { 'server.max_body_bytes': '1023' } }), 'server.max_body_bytes');
    assertConfigError(() => loadConfig({ dataDir: fresh(), env: isolated(), overrides: { 'search.phrase_boost': '0.5' } }), 'search.phrase_boost');
    assertConfigError(() => loadConfig({ dataDir: fresh(), env: { ...isolated(), TROVE_STORE_BUSY_TIMEOUT_MS: '-1' } }), 'TROVE_STORE_BUSY_TIMEOUT_MS');
  });

  test('text that is not a number, or not a listen address', () => {
    assertConfigError(() => loadConfig({ dataDir: fresh(), env: { ...isolated(), TROVE_SEARCH_DEFAULT_LIMIT: 'ten' } }), 'TROVE_SEARCH_DEFAULT_LIMIT');
    assertConfigError(() => loadConfig({ dataDir: fresh(), env: { ...isolated(), TROVE_SEARCH_DEFAULT_LIMIT: '' } }), 'TROVE_SEARCH_DEFAULT_LIMIT');
    assertConfigError(() => loadConfig({ dataDir: fresh(), env: isolated(), overrides: { 'search.weight_title': 'heavy' } }), 'search.weight_title');
    assertConfigError(() => loadConfig({ dataDir: fresh(), env: isolated(), overrides: { 'server.address': 'localhost' } }), 'server.address');
    assertConfigError(() => loadConfig({ dataDir: fresh(), env: isolated(), overrides: { 'log.level': 'INFO' } }), 'log.level');
  });

  test('invalid TOML reports where', () => {
    const err = assertConfigError(() => loadConfig({ configPath: writeConfig('[search]\ndefault_limit = = 3\n'), dataDir: fresh(), env: isolated() }), 'config');
    assert.equal(err.details?.line, 2);
    assertConfigError(() => loadConfig({ configPath: writeConfig('[search\n'), dataDir: fresh(), env: isolated() }), 'config');
  });

  test('an explicitly named config file must exist; the default one may be missing', () => {
    const missing = join(fresh(), 'missing.toml');
    assertConfigError(() => loadConfig({ configPath: missing, dataDir: fresh(), env: isolated() }), 'config');
    assertConfigError(() => loadConfig({ dataDir: fresh(), env: { ...isolated(), TROVE_CONFIG: missing } }), 'config');
    assertConfigError(() => loadConfig({ configPath: fresh(), dataDir: fresh(), env: isolated() }), 'config');
    assert.equal(loadConfig({ dataDir: fresh(), env: isolated() }).configFile, undefined);
    const notADir = join(fresh(), 'file');
    writeFileSync(notADir, 'x');
    assert.equal(loadConfig({ dataDir: fresh(), env: { XDG_CONFIG_HOME: notADir } }).configFile, undefined);
  });
});

/** Every section header, every key commented out. */
const EMPTY_SECTIONS = { server: {}, app: {}, mcp: {}, store: {}, search: {}, indexer: {}, redact: {}, log: {}, render: {}, semantic: {}, llm: {}, searxng: {} };
const plain = (v: unknown): unknown => JSON.parse(JSON.stringify(v));

describe('config commands', () => {
  test('`config init` writes a file that parses, and equals the defaults (also uncommented)', async () => {
    const home = fresh();
    const env = cliEnv(home);
    const path = join(home, 'config', 'trove', 'config.toml');
    const r = await runCli(['config', 'init'], { env });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `wrote ${path}\n`);
    const text = readFileSync(path, 'utf8');
    assert.deepEqual(plain(parseToml(text)), EMPTY_SECTIONS);
    const defaults = describeConfig(loadConfig({ dataDir: home, env: isolated() }));
    const fromFile = describeConfig(loadConfig({ dataDir: home, env: { XDG_CONFIG_HOME: join(home, 'config') } }));
    assert.deepEqual({ ...fromFile, config_file: null }, defaults);

    const uncommented = text
      .split('\n')
      .map((l) => (/^# [a-z_]+ = /.test(l) ? l.slice(2) : l))
      .join('\n');
    const parsed = parseToml(uncommented) as Record<string, Record<string, unknown>>;
    assert.equal(Object.keys(parsed).length, Object.keys(EMPTY_SECTIONS).length);
    for (const { section, key, spec } of allKeys()) assert.deepEqual(parsed[section]?.[key], spec.default, `${section}.${key}`);
    const explicit = describeConfig(loadConfig({ configPath: writeConfig(uncommented), dataDir: home, env: isolated() }));
    assert.deepEqual({ ...explicit, config_file: null }, defaults);
  });

  test('`config init` refuses to overwrite without --force', async () => {
    const home = fresh();
    const env = cliEnv(home);
    const path = join(home, 'custom.toml');
    writeFileSync(path, '[search]\ndefault_limit = 3\n');
    const refused = await runCli(['--config', path, 'config', 'init'], { env });
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /^trove: INVALID_ARGUMENT: /);
    assert.equal(readFileSync(path, 'utf8'), '[search]\ndefault_limit = 3\n');
    const forced = await runCli(['--config', path, 'config', 'init', '--force'], { env });
    assert.equal(forced.code, 0, forced.stderr);
    assert.deepEqual(plain(parseToml(readFileSync(path, 'utf8'))), EMPTY_SECTIONS);
  });

  test('`config init` writes to TROVE_CONFIG when set', async () => {
    const home = fresh();
    const path = join(home, 'nested', 'trove.toml');
    const r = await runCli(['config', 'init'], { env: cliEnv(home, { TROVE_CONFIG: path }) });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `wrote ${path}\n`);
  });

  test('`config show` masks the access token from every source', async () => {
    const home = fresh();
    const data = join(home, 'data');
    const file = writeConfig('[app]\naccess_token = "file-secret-123"\n[search]\ndefault_limit = 7\n');
    const cases: Array<{ args: string[]; env: NodeJS.ProcessEnv; secret: string }> = [
      { args: ['--config', file], env: cliEnv(home), secret: 'file-secret-123' },
      { args: [], env: cliEnv(home, { TROVE_APP_ACCESS_TOKEN: 'env-secret-456' }), secret: 'env-secret-456' },
      { args: ['--set', 'app.access_token=flag-secret-789'], env: cliEnv(home), secret: 'flag-secret-789' },
    ];
    for (const c of cases) {
      const json = await runCli(['--data-dir', data, ...c.args, 'config', 'show', '--json'], { env: c.env });
      assert.equal(json.code, 0, json.stderr);
      assert.ok(!json.stdout.includes(c.secret));
      const shown = parseJson(json);
      assert.equal(shown.app.access_token, '********');
      assert.equal(shown.data_dir, data);
      const human = await runCli(['--data-dir', data, ...c.args, 'config', 'show'], { env: c.env });
      assert.equal(human.code, 0, human.stderr);
      assert.ok(!human.stdout.includes(c.secret));
      assert.match(human.stdout, /^access_token = "\*{8}"$/m);
      const { app, search } = parseToml(human.stdout) as Record<string, Record<string, unknown>>;
      assert.equal(app!.access_token, '********');
      assert.equal(search!.default_limit, c.args[0] === '--config' ? 7 : 10);
    }
    const plain = parseJson(await runCli(['--data-dir', data, 'config', 'show', '--json'], { env: cliEnv(home) }));
    assert.equal(plain.app.access_token, '');
    assert.equal(plain.config_file, null);
    assert.equal(plain.search.default_limit, 10);
  });

  test('an invalid config stops every command with exit 78 and names the key', async () => {
    const home = fresh();
    const data = join(home, 'data');
    const env = cliEnv(home);
    const human = await runCli(['--data-dir', data, '--set', 'search.nope=1', 'config', 'show'], { env });
    assert.equal(human.code, 78);
    assert.equal(human.stdout, '');
    assert.match(human.stderr, /^trove: INVALID_CONFIG: .*search\.nope/);
    const json = await runCli(['--data-dir', data, 'status', '--json'], { env: cliEnv(home, { TROVE_LOG_LEVEL: 'chatty' }) });
    assert.equal(json.code, 78);
    const body = parseJson(json);
    assert.equal(body.error.code, 'INVALID_CONFIG');
    assert.equal(body.error.details.key, 'TROVE_LOG_LEVEL');
    const badSet = await runCli(['--data-dir', data, '--set', 'no-equals-sign', 'status'], { env });
    assert.equal(badSet.code, 78);
    assert.match(badSet.stderr, /^trove: INVALID_CONFIG: /);
    const badFile = await runCli(['--data-dir', data, '--config', writeConfig('[search]\nweight_text = "x"\n'), 'search', 'foo', '--json'], { env });
    assert.equal(badFile.code, 78);
    assert.equal(parseJson(badFile).error.details.key, 'search.weight_text');
  });
});

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { createApp } from '../../../src/app.js';
import { loadConfig } from '../../../src/config/load.js';
import { TroveError } from '../../../src/errors.js';
import { createLogger } from '../../../src/log.js';
import { addContent, showDocument } from '../../../src/service/documents.js';
import { getStatus } from '../../../src/service/status.js';
import { SCHEMA_VERSION } from '../../../src/store/sqlite/migrations.js';
import { SqliteStore } from '../../../src/store/sqlite/store.js';
import { cliEnv, parseJson, runCli } from '../../cli-run.js';
import { suiteDirs, testApp } from '../../helpers.js';

const dirs = suiteDirs('trove-lifecycle-');
const fresh = dirs.fresh;

function appOn(dataDir: string) {
  return createApp(loadConfig({ dataDir, env: { XDG_CONFIG_HOME: join(dirs.root(), 'no-config') } }), createLogger('silent'));
}

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof TroveError, `expected a TroveError, got ${String(err)}`);
    return err.code;
  }
  return undefined;
}

/** A store-level failure reaches the user as a code and a message: no stack, no SQLite internals. */
async function assertCliFails(dataDir: string, code: string): Promise<void> {
  const env = cliEnv(join(dirs.root(), 'no-config'));
  const human = await runCli(['--data-dir', dataDir, 'status'], { env });
  assert.equal(human.code, 1);
  assert.equal(human.stdout, '');
  assert.match(human.stderr, new RegExp(`^trove: ${code}: [^\\n]+\\n$`));
  for (const bad of ['SQLITE', 'sqlite3', '    at ', 'Error:']) assert.ok(!human.stderr.includes(bad), `stderr has ${bad}: ${human.stderr}`);
  const json = await runCli(['--data-dir', dataDir, 'status', '--json'], { env });
  assert.equal(json.code, 1);
  assert.equal(parseJson(json).error.code, code);
  assert.ok(!json.stdout.includes('SQLITE'));
  assert.equal(json.stderr, '');
}

describe('schema', () => {
  test('an empty directory gets the whole schema on first open', async () => {
    const data = join(fresh(), 'not', 'yet', 'made');
    const store = new SqliteStore({ path: join(data, 'trove.db'), busyTimeoutMs: 1000 });
    await store.close();
    const db = new Database(join(data, 'trove.db'), { readonly: true });
    try {
      assert.equal(db.pragma('user_version', { simple: true }), SCHEMA_VERSION);
      assert.equal(SCHEMA_VERSION, 4);
      assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all() as string[];
      for (const t of ['instance', 'users', 'tokens', 'banks', 'documents', 'versions', 'chunks', 'chunk_fts', 'terms', 'entities', 'chunk_entities', 'history_opened', 'operations', 'history_visits', 'history_visit_times', 'import_state', 'fetch_queue', 'embedding_queue', 'vector_space']) {
        assert.ok(tables.includes(t), `missing table ${t}`);
      }
      const fts = db.prepare("SELECT sql FROM sqlite_master WHERE name = 'chunk_fts'").pluck().get() as string;
      assert.match(fts, /^CREATE VIRTUAL TABLE chunk_fts USING fts5\(/);
      const instance = db.prepare('SELECT id, epoch, revision FROM instance').all();
      assert.deepEqual(instance, [{ id: 1, epoch: 0, revision: 0 }]);
    } finally {
      db.close();
    }
  });

  test('reopening is idempotent: same schema, same instance, data kept', async () => {
    const data = fresh();
    const first = appOn(data);
    const added = await addContent(first, { url: 'https://example.org/keep', text: 'kept across reopen', source: 'test' });
    const before = await getStatus(first);
    await first.close();
    for (let i = 0; i < 3; i++) {
      const again = appOn(data);
      const status = await getStatus(again);
      assert.equal(status.instance_id, before.instance_id);
      assert.equal(status.revision, before.revision);
      assert.equal(status.store.schema_version, SCHEMA_VERSION);
      assert.deepEqual(status.counts, { documents: 1, web: 1, local: 0, memory: 0, versions: 1, chunks: 1 });
      assert.equal((await showDocument(again, added.document.id)).text, 'kept across reopen');
      await again.close();
    }
    const db = new Database(join(data, 'trove.db'), { readonly: true });
    assert.equal(db.pragma('user_version', { simple: true }), SCHEMA_VERSION);
    assert.equal(db.prepare('SELECT count(*) FROM instance').pluck().get(), 1);
    db.close();
  });

  test('beginEpoch counts process lifetimes and survives reopening', async () => {
    const data = fresh();
    const a = appOn(data);
    assert.equal(await a.store.beginEpoch(), 1);
    assert.equal(await a.store.beginEpoch(), 2);
    await a.close();
    const b = appOn(data);
    assert.equal(await b.store.beginEpoch(), 3);
    assert.equal((await getStatus(b)).epoch, 3);
    await b.close();
  });
});

describe('unusable store files', () => {
  test('random bytes in place of the store: STORE_CORRUPT, file left alone', async () => {
    const data = fresh();
    const bytes = randomBytes(16384);
    writeFileSync(join(data, 'trove.db'), bytes);
    assert.equal(codeOf(() => appOn(data)), 'STORE_CORRUPT');
    await assertCliFails(data, 'STORE_CORRUPT');
    assert.deepEqual(readFileSync(join(data, 'trove.db')), bytes);
    assert.deepEqual(readdirSync(data).sort(), ['trove.db']);
  });

  test('a text file in place of the store: STORE_CORRUPT', async () => {
    const data = fresh();
    writeFileSync(join(data, 'trove.db'), 'these are my notes, not a database\n'.repeat(200));
    assert.equal(codeOf(() => appOn(data)), 'STORE_CORRUPT');
    await assertCliFails(data, 'STORE_CORRUPT');
  });

  test('a store whose pages were overwritten: STORE_CORRUPT', async () => {
    const data = fresh();
    const app = appOn(data);
    for (let i = 0; i < 20; i++) await addContent(app, { url: `https://example.org/${i}`, text: `page ${i} `.repeat(200), source: 'test' });
    await app.close();
    const path = join(data, 'trove.db');
    const file = readFileSync(path);
    randomBytes(file.length - 100).copy(file, 100);
    writeFileSync(path, file);
    await assertCliFails(data, 'STORE_CORRUPT');
  });

  test('another program’s SQLite database: STORE_CORRUPT, and it is not modified', async () => {
    for (const sql of ['CREATE TABLE documents (x)', 'CREATE TABLE notes (body TEXT)']) {
      const data = fresh();
      const path = join(data, 'trove.db');
      const foreign = new Database(path);
      foreign.exec(sql);
      foreign.close();
      const before = readFileSync(path);
      assert.equal(codeOf(() => appOn(data)), 'STORE_CORRUPT');
      await assertCliFails(data, 'STORE_CORRUPT');
      const db = new Database(path, { readonly: true });
      assert.equal(db.prepare('SELECT count(*) FROM sqlite_master').pluck().get(), 1);
      assert.equal(db.pragma('user_version', { simple: true }), 0);
      db.close();
      assert.deepEqual(readFileSync(path), before);
    }
  });

  test('an empty file is a new store', async () => {
    const data = fresh();
    writeFileSync(join(data, 'trove.db'), '');
    const app = appOn(data);
    assert.equal((await getStatus(app)).store.schema_version, SCHEMA_VERSION);
    await app.close();
  });

  test('a directory where the store file should be: STORE_UNAVAILABLE', async () => {
    const data = fresh();
    mkdirSync(join(data, 'trove.db'));
    assert.equal(codeOf(() => appOn(data)), 'STORE_UNAVAILABLE');
    await assertCliFails(data, 'STORE_UNAVAILABLE');
  });

  test('a file where the data directory should be: STORE_UNAVAILABLE', async () => {
    const data = join(fresh(), 'data');
    writeFileSync(data, 'a file');
    assert.equal(codeOf(() => appOn(data)), 'STORE_UNAVAILABLE');
    await assertCliFails(data, 'STORE_UNAVAILABLE');
  });

  test('a store from a newer trove: STORE_TOO_NEW, untouched', async () => {
    const data = fresh();
    const app = appOn(data);
    await addContent(app, { url: 'https://example.org/future', text: 'from the future', source: 'test' });
    await app.close();
    const path = join(data, 'trove.db');
    const db = new Database(path);
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    assert.equal(codeOf(() => appOn(data)), 'STORE_TOO_NEW');
    await assertCliFails(data, 'STORE_TOO_NEW');
    const check = new Database(path, { readonly: true });
    assert.equal(check.pragma('user_version', { simple: true }), SCHEMA_VERSION + 1);
    assert.equal(check.prepare('SELECT count(*) FROM documents').pluck().get(), 1);
    check.close();
  });
});

describe('versions and revision', () => {
  test('unchanged content adds no version and keeps the revision; changed content adds one and bumps it', async () => {
    const t = testApp();
    try {
      const url = 'https://example.org/versioned';
      const r0 = (await getStatus(t.app)).revision;
      const first = await addContent(t.app, { url, text: 'first text', source: 'test' });
      assert.equal(first.status, 'added');
      assert.equal(first.document.version_count, 1);
      const r1 = (await getStatus(t.app)).revision;
      assert.equal(r1, r0 + 1);

      const same = await addContent(t.app, { url, text: 'first text', source: 'test' });
      assert.equal(same.status, 'unchanged');
      assert.equal(same.document.id, first.document.id);
      assert.equal((await getStatus(t.app)).revision, r1);
      const afterSame = await showDocument(t.app, url);
      assert.equal(afterSame.versions.length, 1);
      assert.equal(afterSame.document.version_count, 1);
      assert.equal(afterSame.document.updated, first.document.updated);

      // Whitespace-only differences tidy to the same text: still no new version.
      const tidied = await addContent(t.app, { url, text: '  first   text \n', source: 'test' });
      assert.equal(tidied.status, 'unchanged');

      const changed = await addContent(t.app, { url, text: 'second text', source: 'test' });
      assert.equal(changed.status, 'updated');
      assert.equal(changed.document.id, first.document.id);
      const r2 = (await getStatus(t.app)).revision;
      assert.equal(r2, r1 + 1);
      const detail = await showDocument(t.app, first.document.id);
      assert.equal(detail.versions.length, 2);
      assert.equal(detail.document.version_count, 2);
      assert.equal(detail.text, 'second text');
      assert.equal(detail.versions[0]!.text_length, 'first text'.length);
      assert.equal(detail.versions[1]!.text_length, 'second text'.length);
      assert.notEqual(detail.versions[0]!.sha256, detail.versions[1]!.sha256);
      assert.equal(await t.app.store.getText(first.document.id, detail.versions[0]!.id), 'first text');

      // Going back to earlier content is a change too.
      assert.equal((await addContent(t.app, { url, text: 'first text', source: 'test' })).status, 'updated');
      assert.equal((await showDocument(t.app, url)).versions.length, 3);
      assert.equal((await getStatus(t.app)).revision, r2 + 1);

      // A new title with the same text changes the document but adds no version.
      const retitled = await addContent(t.app, { url, title: 'A title', text: 'first text', source: 'test' });
      assert.equal(retitled.status, 'updated');
      assert.equal(retitled.document.title, 'A title');
      assert.equal((await showDocument(t.app, url)).versions.length, 3);
      assert.equal((await getStatus(t.app)).revision, r2 + 2);
      assert.equal((await getStatus(t.app)).counts.versions, 3);
    } finally {
      await t.cleanup();
    }
  });

  test('a write that fails leaves no trace', async () => {
    const t = testApp();
    try {
      await assert.rejects(addContent(t.app, { url: 'not a url', text: 'x', source: 'test' }), (e: unknown) => e instanceof TroveError && e.code === 'INVALID_ARGUMENT');
      const s = await getStatus(t.app);
      assert.equal(s.revision, 0);
      assert.equal(s.counts.documents, 0);
      assert.equal(existsSync(join(t.dir, 'trove.db')), true);
    } finally {
      await t.cleanup();
    }
  });
});

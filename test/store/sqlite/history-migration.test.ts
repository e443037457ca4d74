import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { SCHEMA_VERSION } from '../../../src/store/sqlite/migrations.js';
import { SqliteStore } from '../../../src/store/sqlite/store.js';
import { tempDir } from '../../helpers.js';
import { docWrite } from '../contract.js';

test('a schema-1 store (before history imports) gains the history tables and keeps its documents', async (t) => {
  const dir = tempDir();
  t.after(dir.cleanup);
  const path = join(dir.dir, 'trove.db');
  const store = new SqliteStore({ path, busyTimeoutMs: 1000 });
  await store.writeDocument(docWrite('https://kept.example/', 'kept text'));
  await store.close();
  // Roll the file back to what schema 1 looked like.
  const db = new Database(path);
  db.exec('DROP TABLE history_visit_times; DROP TABLE history_visits; DROP TABLE import_state; DROP TABLE fetch_queue;');
  db.pragma('user_version = 1');
  db.close();

  const reopened = new SqliteStore({ path, busyTimeoutMs: 1000 });
  t.after(() => reopened.close());
  assert.equal((await reopened.info()).schemaVersion, SCHEMA_VERSION);
  assert.ok(await reopened.getDocument('https://kept.example/'));
  const r = await reopened.recordImport({ source: 'import:test', visits: [{ url: 'https://kept.example/', title: 'k', visitCount: 1, visitTimes: [1] }], documents: [], queueFetch: false });
  assert.equal(r.visitsNew, 1);
});

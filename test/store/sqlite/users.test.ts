// Deleting a user takes everything that is theirs (through the schema's foreign keys) and clears the
// keyword index of their documents; global documents and other users stay. The setup writes ownership with
// SQL, so this holds whatever the write paths for personal documents and banks look like.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { SqliteStore } from '../../../src/store/sqlite/store.js';
import { tempDir } from '../../helpers.js';
import { docWrite } from '../contract.js';

const hash = (s: string) => createHash('sha256').update(s).digest('hex');

describe('sqlite: deleting a user', () => {
  const t = tempDir('trove-users-');
  let store: SqliteStore;
  const db = () => store.database;
  const count = (sql: string, ...args: unknown[]) => db().prepare(sql).pluck().get(...args) as number;
  const matches = (word: string) => count('SELECT count(*) FROM chunk_fts WHERE chunk_fts MATCH ?', word);

  async function personal(url: string, text: string, column: 'owner_id' | 'bank_id', owner: number): Promise<string> {
    const { document } = await store.writeDocument(docWrite(url, text, url.startsWith('memory:') ? { kind: 'memory' } : {}));
    db().prepare(`UPDATE documents SET ${column} = ? WHERE id = ?`).run(owner, document.id);
    return document.id;
  }

  before(() => {
    store = new SqliteStore({ path: join(t.dir, 'trove.db'), busyTimeoutMs: 5000 });
  });
  after(async () => {
    await store.close();
    t.cleanup();
  });

  test('takes their tokens, banks, personal documents, memories and history; clears their index entries', async () => {
    const ann = await store.createUser('ann', false, hash('ann'));
    const bob = await store.createUser('bob', false, hash('bob'));
    const global = (await store.writeDocument(docWrite('https://global.example/page', 'shared wombat page'))).document.id;
    const annDoc = await personal('https://ann.example/private', 'private quokka notes', 'owner_id', ann.id);
    const bank = Number(db().prepare('INSERT INTO banks (name, owner_id, created_at) VALUES (?, ?, ?)').run('notes', ann.id, Date.now()).lastInsertRowid);
    const annMemory = await personal('memory:notes/fact-1', 'a platypus fact', 'bank_id', bank);
    const bobDoc = await personal('https://bob.example/private', 'private numbat notes', 'owner_id', bob.id);
    db().prepare('INSERT INTO history_opened (url, title, query, owner_id, opened_at) VALUES (?, ?, ?, ?, ?)').run('https://ann.example/private', 't', 'q', ann.id, 1);
    db().prepare('INSERT INTO history_visits (url, visit_count, first_visit_at, last_visit_at, source, owner_id) VALUES (?, 1, 1, 1, ?, ?)').run('https://ann.example/v', 'import:firefox', ann.id);
    db().prepare("INSERT INTO fetch_queue (url, source, owner_id, state, queued_at) VALUES (?, ?, ?, 'queued', 1)").run('https://ann.example/q', 'import:firefox', ann.id);
    assert.equal(matches('quokka'), 1);
    assert.equal(matches('platypus'), 1);
    const revision = (await store.info()).revision;

    assert.equal(await store.deleteUser('ann'), true);

    assert.equal(await store.getDocument(annDoc), undefined);
    assert.equal(await store.getDocument(annMemory), undefined);
    assert.equal(matches('quokka'), 0, 'no index entries remain for the personal document');
    assert.equal(matches('platypus'), 0, 'no index entries remain for the memory');
    assert.equal(count('SELECT count(*) FROM chunks WHERE document_seq NOT IN (SELECT seq FROM documents)'), 0);
    assert.equal(count('SELECT count(*) FROM versions WHERE document_seq NOT IN (SELECT seq FROM documents)'), 0);
    for (const table of ['tokens WHERE user_id', 'banks WHERE owner_id', 'history_opened WHERE owner_id', 'history_visits WHERE owner_id', 'fetch_queue WHERE owner_id']) {
      assert.equal(count(`SELECT count(*) FROM ${table} = ?`, ann.id), 0, table);
    }
    assert.ok((await store.info()).revision > revision, 'removing documents changes the catalog');

    assert.ok(await store.getDocument(global));
    assert.ok(await store.getDocument(bobDoc));
    assert.equal(matches('wombat'), 1);
    assert.equal(matches('numbat'), 1);
    assert.equal((await store.userByTokenHash(hash('bob')))?.id, bob.id);
  });

  test('a user without documents goes without changing the catalog revision', async () => {
    await store.createUser('carol', true, hash('carol'));
    const revision = (await store.info()).revision;
    assert.equal(await store.deleteUser('carol'), true);
    assert.equal((await store.info()).revision, revision);
  });
});

import type Database from 'better-sqlite3';
import { TroveError } from '../../errors.js';
import { ulid } from '../../util/ulid.js';
import { MAX_CHUNKS as CONTRACT_MAX } from '../types.js';
import { HISTORY_SCHEMA } from './schema-history.js';
import { MEMORY_SCHEMA } from './schema-memory.js';
import { VECTOR_SCHEMA } from './schema-vectors.js';

// Chunk rowids are (document seq << CHUNK_BITS) | ordinal, so a chunk names its document without a join.
export const CHUNK_BITS = 12;
export const MAX_CHUNKS = CONTRACT_MAX; // == 1 << CHUNK_BITS

// Porter on top of unicode61: trove's readers mostly keep English pages, porter is built into SQLite
// (no extension to ship), and it lifts recall for inflected words (run/running) at no query cost.
// remove_diacritics 2 folds accents so "cafe" finds "café".
const FTS_TOKENIZER = 'porter unicode61 remove_diacritics 2';

const V1 = `
CREATE TABLE instance (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  instance_id TEXT NOT NULL,
  epoch INTEGER NOT NULL DEFAULT 0,
  revision INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL
);
CREATE TABLE users (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  is_admin INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL
);
CREATE TABLE tokens (
  id INTEGER PRIMARY KEY,
  user_id INTEGER REFERENCES users(id) ON DELETE CASCADE,
  token_hash TEXT NOT NULL UNIQUE,
  created_at INTEGER NOT NULL,
  last_used_at INTEGER
);
CREATE TABLE banks (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  owner_id INTEGER REFERENCES users(id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX banks_owner_name ON banks(ifnull(owner_id, 0), name);
CREATE TABLE documents (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  kind TEXT NOT NULL CHECK (kind IN ('web', 'local', 'memory')),
  url TEXT NOT NULL,
  title TEXT NOT NULL DEFAULT '',
  domain TEXT NOT NULL DEFAULT '',
  language TEXT NOT NULL DEFAULT 'unknown',
  label TEXT,
  owner_id INTEGER REFERENCES users(id) ON DELETE CASCADE,
  bank_id INTEGER REFERENCES banks(id) ON DELETE CASCADE,
  source TEXT NOT NULL,
  metadata TEXT NOT NULL DEFAULT '{}',
  added_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  version_count INTEGER NOT NULL DEFAULT 0,
  current_version_id INTEGER
);
CREATE UNIQUE INDEX documents_owner_url ON documents(ifnull(owner_id, 0), url);
CREATE INDEX documents_updated ON documents(updated_at);
CREATE INDEX documents_added ON documents(added_at);
CREATE INDEX documents_domain ON documents(domain);
CREATE TABLE versions (
  id INTEGER PRIMARY KEY,
  document_seq INTEGER NOT NULL REFERENCES documents(seq) ON DELETE CASCADE,
  text TEXT NOT NULL,
  html TEXT,
  raw_html BLOB,
  sha256 TEXT NOT NULL,
  captured_at INTEGER NOT NULL
);
CREATE INDEX versions_document ON versions(document_seq, captured_at);
CREATE INDEX versions_captured ON versions(captured_at);
CREATE TABLE chunks (
  id INTEGER PRIMARY KEY,
  document_seq INTEGER NOT NULL REFERENCES documents(seq) ON DELETE CASCADE,
  version_id INTEGER NOT NULL REFERENCES versions(id) ON DELETE CASCADE,
  ordinal INTEGER NOT NULL,
  start INTEGER NOT NULL,
  end INTEGER NOT NULL,
  text TEXT NOT NULL,
  embedding BLOB
);
CREATE VIRTUAL TABLE chunk_fts USING fts5(
  title, domain, url, text,
  content = '', contentless_delete = 1,
  tokenize = '${FTS_TOKENIZER}'
);
CREATE TABLE terms (term TEXT PRIMARY KEY) WITHOUT ROWID;
CREATE TABLE entities (
  id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL,
  name TEXT NOT NULL,
  mention_count INTEGER NOT NULL DEFAULT 0,
  last_seen_at INTEGER,
  UNIQUE (kind, name)
);
CREATE TABLE chunk_entities (
  chunk_id INTEGER NOT NULL REFERENCES chunks(id) ON DELETE CASCADE,
  entity_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
  mentions INTEGER NOT NULL DEFAULT 1,
  PRIMARY KEY (chunk_id, entity_id)
) WITHOUT ROWID;
CREATE INDEX chunk_entities_entity ON chunk_entities(entity_id);
CREATE TABLE history_opened (
  id INTEGER PRIMARY KEY,
  document_seq INTEGER REFERENCES documents(seq) ON DELETE SET NULL,
  url TEXT NOT NULL,
  title TEXT NOT NULL DEFAULT '',
  query TEXT NOT NULL DEFAULT '',
  owner_id INTEGER REFERENCES users(id) ON DELETE CASCADE,
  opened_at INTEGER NOT NULL
);
CREATE TABLE operations (
  id TEXT PRIMARY KEY,
  principal TEXT NOT NULL,
  request_key TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  kind TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('queued', 'running', 'cancelling', 'completed', 'failed', 'cancelled')),
  epoch INTEGER NOT NULL,
  revision INTEGER NOT NULL,
  params TEXT,
  result TEXT,
  error TEXT,
  created_at INTEGER NOT NULL,
  started_at INTEGER,
  finished_at INTEGER,
  tombstone_until INTEGER,
  UNIQUE (principal, epoch, request_key)
);
`;

/** Ordered schema steps; a database's user_version says how many it has applied. */
const MIGRATIONS: Array<(db: Database.Database) => void> = [
  (db) => {
    db.exec(V1);
    db.prepare('INSERT INTO instance (id, instance_id, created_at) VALUES (1, ?, ?)').run(ulid(), Date.now());
  },
  (db) => db.exec(HISTORY_SCHEMA),
  (db) => db.exec(MEMORY_SCHEMA),
  (db) => db.exec(VECTOR_SCHEMA),
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/** The file's schema version, refusing stores of a newer trove and databases of other programs. */
export function checkSchema(db: Database.Database, path: string): number {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > SCHEMA_VERSION) {
    throw new TroveError('STORE_TOO_NEW', `the store at ${path} has schema ${current}; this trove knows ${SCHEMA_VERSION}. Upgrade trove.`);
  }
  if (current === 0 && hasObjects(db)) throw foreignDatabase(path);
  return current;
}

/** Applies pending migrations in one immediate transaction, so two processes starting together cannot race. */
export function migrate(db: Database.Database, path: string): void {
  if (checkSchema(db, path) === SCHEMA_VERSION) return;
  db.transaction(() => {
    const inside = db.pragma('user_version', { simple: true }) as number;
    if (inside === 0 && hasObjects(db)) throw foreignDatabase(path);
    for (let v = inside; v < SCHEMA_VERSION; v++) MIGRATIONS[v]!(db);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  }).immediate();
}

/** A schema-0 file that already holds tables belongs to some other program; never write ours into it. */
function hasObjects(db: Database.Database): boolean {
  return db.prepare("SELECT count(*) FROM sqlite_master WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\'").pluck().get() !== 0;
}

function foreignDatabase(path: string): TroveError {
  return new TroveError('STORE_CORRUPT', `the store file ${path} is an SQLite database of another program, not a trove store; move it away or choose another data directory`);
}

import type Database from 'better-sqlite3';
import { TroveError } from '../../errors.js';
import { TOKEN_TOUCH_INTERVAL_MS, type UserRecord } from '../types.js';
import type { StatementCache } from './statements.js';
import type { SqliteWriter } from './write.js';

// Users and their personal tokens. Only SHA-256 hashes of tokens are stored, and no read returns them.

const USER = `SELECT u.id, u.name, u.is_admin, u.created_at,
  (SELECT max(created_at) FROM tokens WHERE user_id = u.id) AS token_created_at,
  (SELECT max(last_used_at) FROM tokens WHERE user_id = u.id) AS token_last_used_at
  FROM users u`;
const USER_BY_NAME = `${USER} WHERE u.name = ?`;
const USER_BY_ID = `${USER} WHERE u.id = ?`;
const ALL_USERS = `${USER} ORDER BY u.name`;

const INSERT_USER = 'INSERT INTO users (name, is_admin, created_at) VALUES (?, ?, ?)';
const INSERT_TOKEN = 'INSERT INTO tokens (user_id, token_hash, created_at) VALUES (?, ?, ?)';
const TOKEN = 'SELECT t.id, t.user_id, t.last_used_at FROM tokens t JOIN users u ON u.id = t.user_id WHERE t.token_hash = ?';
const TOUCH = 'UPDATE tokens SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at <= ?)';

// Documents that go with a user: their personal ones and those in their banks (memories).
const OWNED_DOCUMENTS = 'SELECT seq FROM documents WHERE owner_id = ? OR bank_id IN (SELECT id FROM banks WHERE owner_id = ?)';

interface UserRow {
  id: number;
  name: string;
  is_admin: number;
  created_at: number;
  token_created_at: number | null;
  token_last_used_at: number | null;
}

function toUser(r: UserRow): UserRecord {
  return {
    id: r.id,
    name: r.name,
    isAdmin: r.is_admin !== 0,
    createdAt: r.created_at,
    tokenCreatedAt: r.token_created_at,
    tokenLastUsedAt: r.token_last_used_at,
  };
}

export class SqliteUsers {
  constructor(
    private readonly db: Database.Database,
    private readonly stmts: StatementCache,
    private readonly writer: SqliteWriter,
  ) {}

  private byId(id: number): UserRecord | undefined {
    const row = this.stmts.get(USER_BY_ID).get(id) as UserRow | undefined;
    return row ? toUser(row) : undefined;
  }

  get(name: string): UserRecord | undefined {
    const row = this.stmts.get(USER_BY_NAME).get(name) as UserRow | undefined;
    return row ? toUser(row) : undefined;
  }

  list(): UserRecord[] {
    return (this.stmts.get(ALL_USERS).all() as UserRow[]).map(toUser);
  }

  create(name: string, admin: boolean, tokenHash: string): UserRecord {
    return this.db.transaction(() => {
      if (this.stmts.get('SELECT id FROM users WHERE name = ?').get(name) !== undefined) {
        throw new TroveError('CONFLICT', `a user named ${name} exists already`, { field: 'name' });
      }
      const now = Date.now();
      const id = Number(this.stmts.get(INSERT_USER).run(name, admin ? 1 : 0, now).lastInsertRowid);
      this.stmts.get(INSERT_TOKEN).run(id, tokenHash, now);
      return this.byId(id)!;
    }).immediate();
  }

  /** Deletes the user; foreign keys take their tokens, banks, documents and history, the keyword index is cleared here. */
  delete(name: string): boolean {
    return this.db.transaction(() => {
      const id = this.stmts.get('SELECT id FROM users WHERE name = ?').pluck().get(name) as number | undefined;
      if (id === undefined) return false;
      // chunk_fts is contentless: its rows do not follow the chunks' cascade, so remove them first.
      const seqs = this.stmts.get(OWNED_DOCUMENTS).pluck().all(id, id) as number[];
      for (const seq of seqs) this.writer.deleteChunks(seq);
      this.stmts.get('DELETE FROM users WHERE id = ?').run(id);
      if (seqs.length > 0) this.stmts.get('UPDATE instance SET revision = revision + 1 WHERE id = 1').run();
      return true;
    }).immediate();
  }

  replaceToken(userId: number, tokenHash: string): UserRecord | undefined {
    return this.db.transaction(() => {
      if (this.stmts.get('SELECT id FROM users WHERE id = ?').get(userId) === undefined) return undefined;
      this.stmts.get('DELETE FROM tokens WHERE user_id = ?').run(userId);
      this.stmts.get(INSERT_TOKEN).run(userId, tokenHash, Date.now());
      return this.byId(userId);
    }).immediate();
  }

  byTokenHash(tokenHash: string, now: number): UserRecord | undefined {
    const token = this.stmts.get(TOKEN).get(tokenHash) as { id: number; user_id: number; last_used_at: number | null } | undefined;
    if (!token) return undefined;
    if (token.last_used_at === null || now - token.last_used_at >= TOKEN_TOUCH_INTERVAL_MS) this.touch(token.id, now);
    return this.byId(token.user_id);
  }

  /** Best effort: a busy store must not turn a valid token away, the next use records it. */
  private touch(tokenId: number, now: number): void {
    try {
      this.stmts.get(TOUCH).run(now, tokenId, now - TOKEN_TOUCH_INTERVAL_MS);
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      if (typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'))) return;
      throw err;
    }
  }
}

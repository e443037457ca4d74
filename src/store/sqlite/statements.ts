import type Database from 'better-sqlite3';

const CAPACITY = 256;

/** Prepared statements by SQL text; compiled queries repeat their SQL shapes, so preparing once pays. */
export class StatementCache {
  private readonly plain = new Map<string, Database.Statement>();
  private readonly raw = new Map<string, Database.Statement>();

  constructor(private readonly db: Database.Database) {}

  get(sql: string, raw = false): Database.Statement {
    const map = raw ? this.raw : this.plain;
    let stmt = map.get(sql);
    if (!stmt) {
      if (map.size >= CAPACITY) map.delete(map.keys().next().value!);
      stmt = this.db.prepare(sql);
      if (raw) stmt.raw(true);
      map.set(sql, stmt);
    }
    return stmt;
  }
}

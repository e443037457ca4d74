import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { TroveError } from '../../errors.js';
import { guard } from './errors.js';
import { checkSchema, migrate } from './migrations.js';

export interface OpenOptions {
  path: string;
  busyTimeoutMs: number;
  readonly?: boolean;
}

/** Opens (creating if needed) and migrates a store file; corrupt or unusable files fail with a coded error. */
export function openDatabase(opts: OpenOptions): Database.Database {
  try {
    mkdirSync(dirname(opts.path), { recursive: true });
  } catch (err) {
    throw new TroveError('STORE_UNAVAILABLE', `cannot create the data directory ${dirname(opts.path)} (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  return guard(opts.path, () => {
    const db = new Database(opts.path, { readonly: opts.readonly ?? false, timeout: opts.busyTimeoutMs });
    try {
      // Reading the header here makes a corrupt or foreign file fail now, with a clear code, before WAL rewrites it.
      checkSchema(db, opts.path);
      if (!opts.readonly) db.pragma('journal_mode = WAL');
      db.pragma(`busy_timeout = ${Math.trunc(opts.busyTimeoutMs)}`);
      db.pragma('foreign_keys = ON');
      db.pragma('synchronous = NORMAL');
      db.pragma('temp_store = MEMORY');
      db.pragma('cache_size = -32768');
      // SQLite's lower() folds ASCII only; label: and metadata. filters compare with the full Unicode lower case.
      db.function('trove_lower', { deterministic: true }, (v: unknown) => (typeof v === 'string' ? v.toLowerCase() : v));
      if (!opts.readonly) migrate(db, opts.path);
      return db;
    } catch (err) {
      db.close();
      throw err;
    }
  });
}

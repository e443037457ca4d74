import { TroveError } from '../../errors.js';

/** Turns a SQLite failure into a coded error that names the store but never carries SQL text. */
export function mapSqliteError(err: unknown, path: string): unknown {
  if (err instanceof TroveError) return err;
  const code = (err as { code?: unknown })?.code;
  if (typeof code !== 'string' || !code.startsWith('SQLITE_')) return err;
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return new TroveError('STORE_BUSY', 'the store is busy with another writer; try again', undefined, { cause: err });
  }
  if (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT')) {
    return new TroveError('STORE_CORRUPT', `the store file ${path} is not a valid trove database (corrupt or not SQLite); restore it from a backup or move it away`, undefined, { cause: err });
  }
  if (code.startsWith('SQLITE_CANTOPEN') || code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_PERM') || code.startsWith('SQLITE_IOERR') || code === 'SQLITE_FULL') {
    return new TroveError('STORE_UNAVAILABLE', `cannot use the store file ${path} (${code.toLowerCase().replace('sqlite_', '')}); check that it is a readable, writable file with free disk space`, undefined, { cause: err });
  }
  return new TroveError('INTERNAL', 'store failure', undefined, { cause: err });
}

/** Runs `fn`, rethrowing SQLite failures as coded errors. */
export function guard<T>(path: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    throw mapSqliteError(err, path);
  }
}

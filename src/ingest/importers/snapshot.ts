import { type Stats, copyFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { TroveError } from '../../errors.js';

// A browser keeps its history database open (often locked, often in WAL mode). Copying the database
// with its -wal and -journal files and opening the copy never disturbs the browser, never waits on its
// lock, and lets SQLite apply the WAL (or roll back a half-written transaction) on the private copy.

const SIDE_FILES = ['-wal', '-journal'];
const COPY_ATTEMPTS = 3;

export interface Snapshot {
  db: Database.Database;
  /** The original database's path. */
  path: string;
  close(): void;
}

function fileStats(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw unreadable(path, err);
  }
}

function unreadable(path: string, err: unknown): TroveError {
  const code = (err as NodeJS.ErrnoException).code ?? 'error';
  return new TroveError('FILE_NOT_FOUND', `cannot read ${path} (${code})`, { path });
}

/** Size and modification time of the database and its side files, to notice a browser writing mid-copy. */
function fingerprint(path: string): string {
  return ['', ...SIDE_FILES].map((s) => fileStats(path + s)).map((st) => (st ? `${st.size}:${st.mtimeMs}` : '-')).join('|');
}

function copyFiles(path: string, dir: string): string {
  const copy = join(dir, 'history.sqlite');
  for (let attempt = 1; ; attempt++) {
    const before = fingerprint(path);
    for (const suffix of SIDE_FILES) rmSync(copy + suffix, { force: true });
    try {
      copyFileSync(path, copy);
      for (const suffix of SIDE_FILES) if (fileStats(path + suffix)) copyFileSync(path + suffix, copy + suffix);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || attempt === COPY_ATTEMPTS) throw unreadable(path, err);
      continue; // a side file vanished at a checkpoint: copy again
    }
    if (fingerprint(path) === before || attempt === COPY_ATTEMPTS) return copy;
  }
}

export function malformed(path: string, what: string): TroveError {
  return new TroveError('MALFORMED_INPUT', `${path} is not a readable ${what} (corrupt, or not an SQLite database)`, { path });
}

/** Runs a read of the copied database, turning SQLite failures into MALFORMED_INPUT. */
export function readGuarded<T>(path: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof TroveError) throw err;
    if (typeof (err as { code?: unknown }).code === 'string' && (err as { code: string }).code.startsWith('SQLITE_')) throw malformed(path, 'history database');
    throw err;
  }
}

/** Copies the database at `path` (with its side files) to a temporary directory and opens the copy. */
export function openSnapshot(path: string): Snapshot {
  const stats = fileStats(path);
  if (!stats) throw new TroveError('FILE_NOT_FOUND', `no such file: ${path}`, { path });
  if (!stats.isFile()) throw new TroveError('FILE_NOT_FOUND', `${path} is not a file`, { path });
  if (stats.size === 0) throw new TroveError('MALFORMED_INPUT', `${path} is empty`, { path });
  const dir = mkdtempSync(join(tmpdir(), 'trove-import-'));
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  let db: Database.Database | undefined;
  try {
    const copy = copyFiles(path, dir);
    // Read-write on the private copy: recovering a WAL or rolling back a hot journal writes to it.
    db = new Database(copy, { fileMustExist: true });
    const opened = db;
    readGuarded(path, () => {
      opened.prepare('SELECT count(*) FROM sqlite_master').get();
      opened.pragma('query_only = ON');
    });
    return {
      db: opened,
      path,
      close: () => {
        opened.close();
        cleanup();
      },
    };
  } catch (err) {
    db?.close();
    cleanup();
    throw err;
  }
}

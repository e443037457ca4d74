import { type Stats, lstatSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname } from 'node:path';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import type { App } from '../app.js';
import { type ErrorCode, TroveError } from '../errors.js';
import { type FolderEntry, type FolderListing, type FolderSpec, ancestorsKept, fileUrl, isInside, listFolder, owns, prunesDirectory, relativePath, resolveFolders, selectsFile } from '../ingest/folders.js';
import type { DocumentRef } from '../store/types.js';
import { ADD_BATCH, type AddResult, type ContentInput, type IngestTools, addContents, createIngestTools, fileInput, queueContents } from './documents.js';

// Keeps the documents of configured local folders ([[indexer.directories]]) in line with the disk.

/** The `source` of documents a folder owns; only these are ever removed by a sync. */
export const FOLDER_SOURCE = 'folder';

export interface FolderFileError {
  path: string;
  code: ErrorCode;
  message: string;
}

export interface FolderSyncReport {
  directories: number;
  added: number;
  updated: number;
  unchanged: number;
  removed: number;
  /** Files refused (too large, binary, invalid UTF-8, unreadable); what was indexed for them stays. */
  failed: number;
  /** Files already indexed by other means (`trove add`, ...): left as they are. */
  skipped: number;
  errors: FolderFileError[];
}

export function emptyReport(directories: number): FolderSyncReport {
  return { directories, added: 0, updated: 0, unchanged: 0, removed: 0, failed: 0, skipped: 0, errors: [] };
}

/** The configured folders, checked: a missing path or a non-directory is INVALID_CONFIG. */
export function configuredFolders(app: App): FolderSpec[] {
  const { config } = app;
  return resolveFolders(config.indexer.directories as FolderEntry[], {
    defaultMaxBytes: config.indexer.max_file_bytes,
    baseDir: config.configFile ? dirname(config.configFile) : process.cwd(),
    home: homedir(),
  });
}

/** Indexes every configured folder: new files are added, changed ones get a version, vanished ones are removed. */
export async function syncDirectories(app: App, folders: FolderSpec[] = configuredFolders(app), signal?: AbortSignal): Promise<FolderSyncReport> {
  const report = emptyReport(folders.length);
  for (const folder of folders) await syncPath(app, folder, folder.root, report, signal);
  app.log.info('folders synced', countsOf(report));
  return report;
}

export function countsOf(report: FolderSyncReport): Omit<FolderSyncReport, 'errors'> {
  const { errors: _errors, ...counts } = report;
  return counts;
}

/** Links inside a folder are not followed; the root itself may be one. */
function statOrUndefined(folder: FolderSpec, path: string): Stats | undefined {
  try {
    return path === folder.root ? statSync(path) : lstatSync(path);
  } catch {
    return undefined;
  }
}

const NOTHING: FolderListing = { files: [], unreadable: [] };

function listPath(folder: FolderSpec, abs: string, stat: Stats | undefined): FolderListing {
  const rel = relativePath(folder, abs);
  if (!stat || !ancestorsKept(folder, rel)) return NOTHING;
  if (stat.isDirectory()) return prunesDirectory(folder, rel) ? NOTHING : listFolder(folder, abs);
  return stat.isFile() && selectsFile(folder, rel) ? { files: [abs], unreadable: [] } : NOTHING;
}

/** Documents at `abs` or below it, by url. */
async function indexedAt(app: App, abs: string): Promise<Map<string, DocumentRef>> {
  const url = fileUrl(abs);
  const refs = await app.store.listDocumentUrls(url);
  return new Map(refs.filter((r) => r.url === url || r.url.startsWith(`${url}/`)).map((r) => [r.url, r]));
}

/**
 * Brings what is indexed for one path of a folder (a file, a directory, or something gone) in line with
 * the disk. The watcher calls it with changed paths; a full sync calls it with the root. An abort throws
 * before anything is removed, so a stopped sync never removes what it had not looked at yet.
 */
export async function syncPath(app: App, folder: FolderSpec, abs: string, report: FolderSyncReport, signal?: AbortSignal): Promise<void> {
  if (!owns(folder, abs)) return;
  const stat = statOrUndefined(folder, abs);
  if (abs === folder.root && !stat?.isDirectory()) {
    // An unmounted or deleted root would otherwise empty the index of that folder.
    app.log.warn('folder is missing; its documents are kept', { path: folder.root });
    return;
  }
  const listing = listPath(folder, abs, stat);
  const indexed = await indexedAt(app, abs);
  const present = await storeFiles(app, folder, listing.files, indexed, report, signal);
  signal?.throwIfAborted();
  await removeVanished(app, folder, listing, indexed, present, report);
}

function failure(path: string, err: unknown): FolderFileError {
  if (err instanceof TroveError) return { path, code: err.code, message: err.message };
  const errno = (err as NodeJS.ErrnoException).code;
  const code: ErrorCode = errno === 'ENOENT' ? 'FILE_NOT_FOUND' : errno === 'EACCES' || errno === 'EPERM' ? 'FORBIDDEN' : 'INTERNAL';
  return { path, code, message: `${path}: ${errno ?? (err instanceof Error ? err.message : String(err))}` };
}

function recordFailure(app: App, report: FolderSyncReport, error: FolderFileError): void {
  report.failed++;
  report.errors.push(error);
  app.log.debug('folder file refused', { ...error });
}

/** Reads and stores files in batches; returns the urls of files that still exist (refused ones included). */
async function storeFiles(app: App, folder: FolderSpec, files: string[], indexed: Map<string, DocumentRef>, report: FolderSyncReport, signal?: AbortSignal): Promise<Set<string>> {
  const present = new Set<string>();
  const tools = await createIngestTools(app);
  let batch: Array<{ path: string; input: ContentInput }> = [];
  // One batch is stored while the next one is extracting (on the app's workers); never more than those two.
  let storing: Promise<void> = Promise.resolve();
  const flush = async () => {
    const queued = { batch, run: queueContents(app, batch.map((b) => b.input), tools) };
    batch = [];
    await storing;
    storing = storeBatch(app, queued.batch, report, tools, queued.run);
    storing.catch(() => undefined);
  };
  try {
    for (const path of files) {
      signal?.throwIfAborted();
      const url = fileUrl(path);
      present.add(url);
      const ref = indexed.get(url);
      if (ref && ref.source !== FOLDER_SOURCE) {
        report.skipped++;
        continue;
      }
      try {
        batch.push({ path, input: fileInput(app, path, { label: folder.label, source: FOLDER_SOURCE, maxFileBytes: folder.maxFileBytes }) });
      } catch (err) {
        const error = failure(path, err);
        if (error.code === 'FILE_NOT_FOUND') present.delete(url);
        else recordFailure(app, report, error);
      }
      if (batch.length >= ADD_BATCH) {
        await flush();
        // Reading, extracting and storing are synchronous: let a serving process answer requests and signals.
        await yieldToEventLoop();
      }
    }
    if (batch.length) await flush();
  } catch (err) {
    await storing.catch(() => undefined);
    throw err;
  }
  await storing;
  return present;
}

/** The store itself failing (busy, corrupt) stops a sync; anything else is about one file. */
function storeFailure(err: unknown): boolean {
  return err instanceof TroveError && err.code.startsWith('STORE_');
}

/** One transaction for the batch; when one document is refused (or breaks extraction), the others are stored one by one. */
async function storeBatch(app: App, batch: Array<{ path: string; input: ContentInput }>, report: FolderSyncReport, tools: IngestTools, queued?: () => Promise<AddResult[]>): Promise<void> {
  try {
    for (const r of await (queued ?? (() => addContents(app, batch.map((b) => b.input), tools)))()) report[r.status]++;
  } catch (err) {
    if (storeFailure(err)) throw err;
    if (batch.length === 1) return recordFailure(app, report, failure(batch[0]!.path, err));
    for (const b of batch) await storeBatch(app, [b], report, tools);
  }
}

async function removeVanished(app: App, folder: FolderSpec, listing: FolderListing, indexed: Map<string, DocumentRef>, present: Set<string>, report: FolderSyncReport): Promise<void> {
  for (const ref of indexed.values()) {
    if (ref.source !== FOLDER_SOURCE || present.has(ref.url)) continue;
    let path: string;
    try {
      path = fileURLToPath(ref.url);
    } catch {
      continue;
    }
    if (!owns(folder, path) || listing.unreadable.some((dir) => isInside(path, dir))) continue;
    if (await app.store.deleteDocument(ref.id)) {
      report.removed++;
      app.log.info('document removed', { id: ref.id, url: ref.url, source: ref.source });
    }
  }
}

import { realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { App } from '../app.js';
import { TroveError } from '../errors.js';
import { type FileIdentity, readWithIdentity } from '../ingest/files.js';
import { type FolderEntry, isInside, resolveFolders } from '../ingest/folders.js';
import { redactText } from '../ingest/redact.js';
import type { CatalogAccess, CatalogDocument } from '../store/types.js';
import { checkRange, checkRevision, requireDocument } from './catalog.js';
import { catalogUri } from './catalog-uris.js';
import { linePage, splitLines } from './paging.js';

// read_source: exact lines of a local document's file, only under the configured folders after
// resolving links, only while the file is what was indexed, only valid UTF-8 text of at most 2 MiB.

export const SOURCE_PAGE = { default: 200, max: 500 } as const;
export const MAX_SOURCE_BYTES = 2 * 1024 * 1024;

export interface SourceInput {
  documentId: string;
  startLine?: number | undefined;
  lineCount?: number | undefined;
  expectedRevision?: number | undefined;
}

export interface SourceRead {
  instanceId: string;
  revision: number;
  documentId: string;
  startLine: number;
  /** Lines returned. */
  count: number;
  totalLines: number;
  /** Hex SHA-256 of the whole file's bytes. */
  sha256: string;
  bytes: number;
  nextLine?: number;
  /** Fewer than lineCount lines because of the result bound. */
  shortened: boolean;
  text: string;
  uri: string;
}

function unavailable(message: string, reason: string): TroveError {
  return new TroveError('SOURCE_UNAVAILABLE', message, { reason });
}

/** The configured folders, links resolved; folders that are missing now are left out. */
export function sourceRoots(app: App): string[] {
  const opts = { defaultMaxBytes: app.config.indexer.max_file_bytes, baseDir: app.config.configFile ? dirname(app.config.configFile) : process.cwd(), home: homedir() };
  return (app.config.indexer.directories as FolderEntry[]).flatMap((entry) => {
    try {
      return [realpathSync(resolveFolders([entry], opts)[0]!.root)];
    } catch {
      return [];
    }
  });
}

/** The file a local document names, exactly as the indexer wrote its url; anything else is refused. */
function documentPath(doc: CatalogDocument): string {
  if (doc.kind !== 'local') throw unavailable('only local documents (files) have a source', 'not_local');
  let url: URL;
  try {
    url = new URL(doc.url);
  } catch {
    throw unavailable('the document url is not a file URL', 'not_file_url');
  }
  // The indexer stores canonical URLs; one with dot segments, %2e%2e or a host was written some other way.
  if (url.protocol !== 'file:' || url.host !== '' || url.href !== doc.url || url.search || url.hash) throw unavailable('the document url is not a canonical file URL', 'not_canonical');
  let path: string;
  try {
    path = fileURLToPath(url);
  } catch {
    throw unavailable('the document url does not name a local path', 'not_file_url');
  }
  if (path.includes('\0')) throw unavailable('the document path contains a NUL byte', 'not_canonical');
  return path;
}

/** The real path of the file, inside one of the roots; SOURCE_UNAVAILABLE otherwise. */
function containedPath(app: App, path: string): string {
  const roots = sourceRoots(app);
  if (roots.length === 0) throw unavailable('no configured folder (indexer.directories) to read sources from', 'no_roots');
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    throw unavailable('the file is gone or unreadable', 'missing');
  }
  if (!roots.some((root) => isInside(real, root))) throw unavailable('the file is outside the configured folders (after resolving links)', 'outside_roots');
  if (!statSync(real).isFile()) throw unavailable('not a regular file', 'not_file');
  return real;
}

function storedIdentity(doc: CatalogDocument): FileIdentity {
  const id = doc.metadata.file_identity as Partial<FileIdentity> | undefined;
  if (!id || typeof id.sha256 !== 'string' || typeof id.ino !== 'string' || typeof id.dev !== 'string' || typeof id.size !== 'number' || typeof id.mtime_ns !== 'string') {
    throw unavailable('the document was indexed without its file identity; sync its folder again (trove sync)', 'no_identity');
  }
  return id as FileIdentity;
}

function changed(what: string): TroveError {
  return new TroveError('SOURCE_CHANGED', `the file's ${what} changed since it was indexed; wait for the next sync (or run trove sync) and read it again`, { changed: what });
}

/** The file's text when it is exactly what was indexed and may be served. */
function readChecked(app: App, real: string, stored: FileIdentity): { text: string; identity: FileIdentity } {
  const st = statSync(real, { bigint: true });
  if (String(st.dev) !== stored.dev || String(st.ino) !== stored.ino) throw changed('identity (device, inode)');
  if (Number(st.size) !== stored.size || String(st.mtimeNs) !== stored.mtime_ns) throw changed('size or modification time');
  if (st.size > BigInt(MAX_SOURCE_BYTES)) throw new TroveError('TOO_LARGE', `the file is ${st.size} bytes; sources are read up to ${MAX_SOURCE_BYTES}`, { size: Number(st.size), limit: MAX_SOURCE_BYTES });
  const { bytes, identity } = readWithIdentity(real);
  if (identity.dev !== stored.dev || identity.ino !== stored.ino || identity.size !== stored.size || identity.mtime_ns !== stored.mtime_ns) throw changed('identity (device, inode, size, mtime)');
  if (identity.sha256 !== stored.sha256) throw changed('content');
  if (bytes.includes(0)) throw new TroveError('BINARY_CONTENT', 'the file contains NUL bytes: binary content is not served as source');
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new TroveError('INVALID_UTF8', 'the file is not valid UTF-8');
  }
  let redacts = app.catalog.redacted.get(identity.sha256);
  if (redacts === undefined) {
    redacts = redactText(app.rules.redactor, text) !== text;
    app.catalog.redacted.set(identity.sha256, redacts);
  }
  if (redacts) throw new TroveError('SOURCE_REDACTED', 'the file holds secrets trove redacts (redact.*); read its redacted text with read_text');
  return { text, identity };
}

/** A page of whole lines (original endings kept) of a local document's file, within `maxBytes` once JSON-encoded. */
export async function readDocumentSource(app: App, access: CatalogAccess, input: SourceInput, maxBytes: number): Promise<SourceRead> {
  checkRange(input.startLine, 'startLine', 1, Number.MAX_SAFE_INTEGER);
  checkRange(input.lineCount, 'lineCount', 1, SOURCE_PAGE.max);
  const state = await app.store.instanceState();
  checkRevision(input.expectedRevision, state.revision);
  const doc = await requireDocument(app, access, input.documentId);
  const path = documentPath(doc);
  const stored = storedIdentity(doc);
  const { text, identity } = readChecked(app, containedPath(app, path), stored);
  const lines = splitLines(text);
  const startLine = input.startLine ?? 1;
  if (startLine > Math.max(lines.length, 1)) throw new TroveError('INVALID_ARGUMENT', `startLine ${startLine} is past the last line (${lines.length})`, { field: 'startLine', totalLines: lines.length });
  const page = linePage(lines, startLine - 1, input.lineCount ?? SOURCE_PAGE.default, maxBytes);
  if (page.count === 0 && startLine <= lines.length) throw new TroveError('RESULT_TOO_LARGE', `line ${startLine} alone is larger than the result bound; read the text with read_text`, { max_bytes: maxBytes, field: 'startLine' });
  const read: SourceRead = {
    instanceId: state.instanceId, revision: state.revision, documentId: doc.id, startLine, count: page.count, totalLines: lines.length,
    sha256: identity.sha256, bytes: identity.size, shortened: page.shortened, text: page.text,
    uri: catalogUri.source(state.instanceId, doc.id, { startLine, lineCount: input.lineCount }),
  };
  const next = startLine + page.count;
  if (next <= lines.length) read.nextLine = next;
  return read;
}

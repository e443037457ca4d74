import { createHash } from 'node:crypto';
import type { App } from '../app.js';
import { chunkText } from '../engine/chunk.js';
import { TroveError } from '../errors.js';
import { fetchPage } from '../ingest/fetch.js';
import { isDirectory, listFiles, markdownTitle, readLocalFile } from '../ingest/files.js';
import { extractHtml, tidyText } from '../ingest/html.js';
import { type DocumentKind, type DocumentRecord, type DocumentWrite, MAX_CHUNKS } from '../store/types.js';
import { type DocumentView, type VersionView, toDocumentView, toVersionView } from './views.js';

export interface ContentInput {
  url: string;
  title?: string | undefined;
  html?: string | undefined;
  text?: string | undefined;
  label?: string | null | undefined;
  source: string;
  kind?: DocumentKind;
  capturedAt?: number;
  metadata?: Record<string, unknown>;
}

export type AddStatus = 'added' | 'updated' | 'unchanged';

export interface AddResult {
  status: AddStatus;
  document: DocumentView;
}

function kindOf(url: URL): DocumentKind {
  return url.protocol === 'file:' ? 'local' : 'web';
}

function parseUrl(raw: string): URL {
  try {
    return new URL(raw);
  } catch {
    throw new TroveError('INVALID_ARGUMENT', `url must be an absolute URL, got ${JSON.stringify(raw.slice(0, 200))}`, { field: 'url' });
  }
}

/** Extracts, chunks and hashes one input into what the store writes. */
function prepare(app: App, input: ContentInput): DocumentWrite {
  const url = parseUrl(input.url);
  const page = input.html !== undefined ? extractHtml(input.html) : { title: '', text: tidyText(input.text ?? ''), metadata: {} };
  const text = page.text;
  return {
    kind: input.kind ?? kindOf(url),
    url: url.href,
    title: (input.title ?? '').trim() || page.title || url.href,
    domain: url.protocol === 'file:' ? '' : url.hostname.toLowerCase(),
    language: 'unknown',
    label: input.label ?? null,
    source: input.source,
    metadata: { ...page.metadata, ...input.metadata },
    text,
    html: null,
    rawHtml: input.html ?? null,
    sha256: createHash('sha256').update(text).digest('hex'),
    capturedAt: input.capturedAt ?? Date.now(),
    chunks: chunkText(text, { size: app.config.indexer.chunk_chars, maxChunks: MAX_CHUNKS }),
  };
}

async function store(app: App, writes: DocumentWrite[]): Promise<AddResult[]> {
  const results = await app.store.writeDocuments(writes);
  return results.map((result) => {
    const status: AddStatus = result.created ? 'added' : result.changed ? 'updated' : 'unchanged';
    if (status !== 'unchanged') app.log.info('document stored', { id: result.document.id, status, source: result.document.source });
    return { status, document: toDocumentView(result.document) };
  });
}

/** Stores given contents (HTML or text) as documents or new versions of them, in one transaction. */
export async function addContents(app: App, inputs: ContentInput[]): Promise<AddResult[]> {
  return store(app, inputs.map((input) => prepare(app, input)));
}

export async function addContent(app: App, input: ContentInput): Promise<AddResult> {
  return (await addContents(app, [input]))[0]!;
}

export interface AddTargetOptions {
  label?: string | null | undefined;
  source: string;
}

function fileInput(app: App, path: string, opts: AddTargetOptions): ContentInput {
  const file = readLocalFile(path, app.config.indexer.max_file_bytes);
  const base = { url: file.url, label: opts.label, source: opts.source, kind: 'local' as const, metadata: { modified: new Date(file.modifiedAt).toISOString() } };
  if (file.format === 'html') return { ...base, html: file.content };
  const title = file.format === 'markdown' ? markdownTitle(file.content, file.path) : file.path.split('/').pop();
  return { ...base, title, text: file.content };
}

async function urlInput(app: App, url: string, opts: AddTargetOptions): Promise<ContentInput> {
  const cfg = app.config.indexer;
  const page = await fetchPage(url, { timeoutMs: cfg.fetch_timeout_ms, maxBytes: 10 * 1024 * 1024, userAgent: cfg.user_agent });
  const body = page.contentType === 'html' ? { html: page.body } : { text: page.body };
  return { url: page.url, label: opts.label, source: opts.source, ...body };
}

export interface TargetOutcome {
  target: string;
  result?: AddResult;
  error?: TroveError;
}

/** Documents written per transaction by `addTargets`: fast ingest, short enough locks for a serving process. */
export const ADD_BATCH = 64;

function isTargetError(err: unknown): err is TroveError {
  return err instanceof TroveError && (err.spec.user || err.code === 'FETCH_FAILED');
}

/** Adds files, every supported file under directories, or fetched URLs; one bad target does not stop the rest. */
export async function addTargets(app: App, targets: string[], opts: AddTargetOptions): Promise<TargetOutcome[]> {
  const out: TargetOutcome[] = [];
  let pending: Array<{ slot: number; write: DocumentWrite }> = [];
  const flush = async () => {
    const results = await store(app, pending.map((p) => p.write));
    pending.forEach((p, i) => (out[p.slot]!.result = results[i]));
    pending = [];
  };
  for (const target of targets) {
    const paths = /^https?:\/\//i.test(target) ? [target] : isDirectory(target) ? listFiles(target) : [target];
    for (const p of paths) {
      const slot = out.push({ target: p }) - 1;
      try {
        const input = /^https?:\/\//i.test(p) ? await urlInput(app, p, opts) : fileInput(app, p, opts);
        pending.push({ slot, write: prepare(app, input) });
      } catch (err) {
        if (!isTargetError(err)) throw err;
        out[slot]!.error = err;
      }
      if (pending.length >= ADD_BATCH) await flush();
    }
  }
  if (pending.length) await flush();
  return out;
}

export interface DocumentDetail {
  document: DocumentView;
  versions: VersionView[];
  text: string;
}

async function requireDocument(app: App, idOrUrl: string): Promise<DocumentRecord> {
  const doc = await app.store.getDocument(idOrUrl);
  if (!doc) throw new TroveError('NOT_FOUND', `no document with id or url ${JSON.stringify(idOrUrl.slice(0, 300))}`);
  return doc;
}

/** A document's metadata, versions and current text. */
export async function showDocument(app: App, idOrUrl: string): Promise<DocumentDetail> {
  const doc = await requireDocument(app, idOrUrl);
  const [versions, text] = await Promise.all([app.store.listVersions(doc.id), app.store.getText(doc.id)]);
  return { document: toDocumentView(doc), versions: versions.map(toVersionView), text: text ?? '' };
}

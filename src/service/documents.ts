import { createHash } from 'node:crypto';
import type { App } from '../app.js';
import { chunkText } from '../engine/chunk.js';
import { TroveError } from '../errors.js';
import { fetchPage } from '../ingest/fetch.js';
import { isDirectory, listFiles, markdownTitle, readLocalFile } from '../ingest/files.js';
import { extractHtml, tidyText } from '../ingest/html.js';
import { type DocumentKind, type DocumentRecord, MAX_CHUNKS } from '../store/types.js';
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

/** Stores given content (HTML or text) as a document or a new version of it. */
export async function addContent(app: App, input: ContentInput): Promise<AddResult> {
  const url = parseUrl(input.url);
  const page = input.html !== undefined ? extractHtml(input.html) : { title: '', text: tidyText(input.text ?? ''), metadata: {} };
  const title = (input.title ?? '').trim() || page.title || url.href;
  const text = page.text;
  const sha256 = createHash('sha256').update(text).digest('hex');
  const result = await app.store.writeDocument({
    kind: input.kind ?? kindOf(url),
    url: url.href,
    title,
    domain: url.protocol === 'file:' ? '' : url.hostname.toLowerCase(),
    language: 'unknown',
    label: input.label ?? null,
    source: input.source,
    metadata: { ...page.metadata, ...input.metadata },
    text,
    html: null,
    rawHtml: input.html ?? null,
    sha256,
    capturedAt: input.capturedAt ?? Date.now(),
    chunks: chunkText(text, { size: app.config.indexer.chunk_chars, maxChunks: MAX_CHUNKS }),
  });
  const status: AddStatus = result.created ? 'added' : result.changed ? 'updated' : 'unchanged';
  if (status !== 'unchanged') app.log.info('document stored', { id: result.document.id, status, source: input.source });
  return { status, document: toDocumentView(result.document) };
}

export interface AddTargetOptions {
  label?: string | null | undefined;
  source: string;
}

async function addFile(app: App, path: string, opts: AddTargetOptions): Promise<AddResult> {
  const file = readLocalFile(path, app.config.indexer.max_file_bytes);
  const base = { url: file.url, label: opts.label, source: opts.source, kind: 'local' as const, metadata: { modified: new Date(file.modifiedAt).toISOString() } };
  if (file.format === 'html') return addContent(app, { ...base, html: file.content });
  const title = file.format === 'markdown' ? markdownTitle(file.content, file.path) : file.path.split('/').pop();
  return addContent(app, { ...base, title, text: file.content });
}

async function addUrl(app: App, url: string, opts: AddTargetOptions): Promise<AddResult> {
  const cfg = app.config.indexer;
  const page = await fetchPage(url, { timeoutMs: cfg.fetch_timeout_ms, maxBytes: 10 * 1024 * 1024, userAgent: cfg.user_agent });
  const body = page.contentType === 'html' ? { html: page.body } : { text: page.body };
  return addContent(app, { url: page.url, label: opts.label, source: opts.source, ...body });
}

export interface TargetOutcome {
  target: string;
  result?: AddResult;
  error?: TroveError;
}

/** Adds a file, every supported file under a directory, or a fetched URL; one bad target does not stop the rest. */
export async function addTargets(app: App, targets: string[], opts: AddTargetOptions): Promise<TargetOutcome[]> {
  const out: TargetOutcome[] = [];
  for (const target of targets) {
    const paths = /^https?:\/\//i.test(target) ? [target] : isDirectory(target) ? listFiles(target) : [target];
    for (const p of paths) {
      try {
        const result = /^https?:\/\//i.test(p) ? await addUrl(app, p, opts) : await addFile(app, p, opts);
        out.push({ target: p, result });
      } catch (err) {
        if (!(err instanceof TroveError) || !err.spec.user && err.code !== 'FETCH_FAILED') throw err;
        out.push({ target: p, error: err });
      }
    }
  }
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

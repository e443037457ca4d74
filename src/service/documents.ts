import { createHash } from 'node:crypto';
import type { App } from '../app.js';
import { chunkText } from '../engine/chunk.js';
import { TroveError } from '../errors.js';
import { fetchOptions, fetchPage } from '../ingest/fetch.js';
import type { ExtractInput, ExtractionResult } from '../ingest/extract/index.js';
import { isDirectory, listFiles, readLocalFile } from '../ingest/files.js';
import { type LanguageDetector, UNKNOWN_LANGUAGE, createLanguageDetector } from '../ingest/language.js';
import { checkIndexable } from '../ingest/skip.js';
import { isUrlTarget } from '../ingest/urls.js';
import { ALL_OWNERS, type DocumentKind, type DocumentRecord, type DocumentWrite, MAX_CHUNKS, type Scope } from '../store/types.js';
import { redactWrite } from './screen.js';
import { type DocumentView, type VersionView, inBank, toDocumentView, toVersionView } from './views.js';

export interface ContentInput {
  url: string;
  title?: string | undefined;
  html?: string | undefined;
  text?: string | undefined;
  label?: string | null | undefined;
  source: string;
  kind?: DocumentKind;
  capturedAt?: number;
  /** The user the document belongs to (service/access.ts Grant.writeOwner); absent or null: global. */
  ownerId?: number | null | undefined;
  metadata?: Record<string, unknown>;
  /** A binary document (a PDF) instead of html or text. */
  bytes?: Uint8Array | undefined;
  /** Media type of `bytes` or `text` when known, e.g. application/pdf, text/markdown. */
  contentType?: string | undefined;
  /** File extension ('.md', '.py', '.pdf'): picks Markdown, source code or PDF extraction. */
  extension?: string | undefined;
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

/** What preparing an input needs beyond the app: extraction (the app's worker pool) and the language detector. */
export interface IngestTools {
  extract(input: ExtractInput): Promise<ExtractionResult>;
  languages: LanguageDetector;
}

export async function createIngestTools(app: App): Promise<IngestTools> {
  return { extract: (input) => app.extraction.extract(input), languages: await createLanguageDetector() };
}

/** The last path segment of a file: URL, the title of a file that names itself nothing. */
function fileName(url: URL): string {
  if (url.protocol !== 'file:') return '';
  return decodeURIComponent(url.pathname.split('/').pop() ?? '');
}

/** '.py' of https://host/src/app.py: a text fetched from the web is read by its name like a file. */
function pathExtension(url: URL): string | undefined {
  return /(\.[A-Za-z0-9]{1,10})$/.exec(url.pathname)?.[1];
}

function languageOf(tools: IngestTools, page: ExtractionResult): string {
  if (page.codeLanguage) return page.codeLanguage;
  return page.text ? tools.languages.detect(`${page.title}\n${page.text}`, page.metadata.language) : UNKNOWN_LANGUAGE;
}

/** Extracts, chunks and hashes one input into what the store writes. */
async function prepare(app: App, input: ContentInput, tools: IngestTools): Promise<DocumentWrite> {
  const url = parseUrl(input.url);
  const text = input.html === undefined && input.bytes === undefined ? (input.text ?? '') : input.text;
  const extension = (input.extension ?? (text !== undefined ? pathExtension(url) : undefined))?.toLowerCase();
  const page = await tools.extract({ url, html: input.html, text, bytes: input.bytes, contentType: input.contentType, extension });
  const title = (input.title ?? '').trim() || page.title || fileName(url) || url.href;
  const metadata: Record<string, unknown> = { ...page.metadata, extractor: page.extractor, ...input.metadata };
  return {
    kind: input.kind ?? kindOf(url),
    url: url.href,
    title,
    domain: url.protocol === 'file:' ? '' : url.hostname.toLowerCase(),
    language: languageOf(tools, { ...page, title }),
    label: input.label ?? null,
    source: input.source,
    metadata,
    text: page.text,
    html: page.html,
    rawHtml: input.html ?? null,
    sha256: createHash('sha256').update(page.text).digest('hex'),
    capturedAt: input.capturedAt ?? Date.now(),
    chunks: chunkText(page.text, { size: app.config.indexer.chunk_chars, maxChunks: MAX_CHUNKS }),
    ownerId: input.ownerId ?? null,
  };
}

/** Skip rules before extraction (a skipped page is never parsed); redaction after it, over all it produced. */
async function screened(app: App, input: ContentInput, tools: IngestTools): Promise<DocumentWrite> {
  checkIndexable(app.rules.skip, input.url);
  return redactWrite(app, await prepare(app, input, tools));
}

async function store(app: App, writes: DocumentWrite[]): Promise<AddResult[]> {
  const results = await app.store.writeDocuments(writes);
  return results.map((result) => {
    const status: AddStatus = result.created ? 'added' : result.changed ? 'updated' : 'unchanged';
    if (status !== 'unchanged') app.log.info('document stored', { id: result.document.id, status, source: result.document.source });
    return { status, document: toDocumentView(result.document) };
  });
}

/**
 * `inputs` handed to extraction at once (the app's workers take them in parallel); the returned function
 * waits for them in order and stores them in one transaction, failing with the first input's error in
 * order, as addContents does. Callers that keep the next batch extracting while this one is stored get
 * the main thread writing while the workers extract.
 */
export function queueContents(app: App, inputs: ContentInput[], tools: IngestTools): () => Promise<AddResult[]> {
  const pending = inputs.map((input) => screened(app, input, tools));
  // Awaited in order below; a rejection is reported once, there (or dropped with the batch).
  for (const p of pending) p.catch(() => undefined);
  return async () => {
    const writes: DocumentWrite[] = [];
    for (const p of pending) writes.push(await p);
    return store(app, writes);
  };
}

/** Stores given contents (HTML or text) as documents or new versions of them, in one transaction. */
export async function addContents(app: App, inputs: ContentInput[], tools?: IngestTools): Promise<AddResult[]> {
  return queueContents(app, inputs, tools ?? (await createIngestTools(app)))();
}

export async function addContent(app: App, input: ContentInput): Promise<AddResult> {
  return (await addContents(app, [input]))[0]!;
}

export interface AddTargetOptions {
  label?: string | null | undefined;
  source: string;
  /** Largest file read; default indexer.max_file_bytes. */
  maxFileBytes?: number | undefined;
}

/** Reads a local file into what `addContents` stores; refusals are TroveErrors with a code. */
export function fileInput(app: App, path: string, opts: AddTargetOptions): ContentInput {
  const file = readLocalFile(path, opts.maxFileBytes ?? app.config.indexer.max_file_bytes);
  const base = { url: file.url, label: opts.label, source: opts.source, kind: 'local' as const, metadata: { modified: new Date(file.modifiedAt).toISOString(), file_identity: file.identity } };
  if (file.format === 'html') return { ...base, html: file.content };
  if (file.format === 'pdf') return { ...base, bytes: file.bytes, contentType: 'application/pdf', extension: file.extension };
  return { ...base, text: file.content, extension: file.extension };
}

/** Fetches a page into an input; `storeUnder` keeps a known url (an imported visit) instead of the final one. */
export async function urlInput(app: App, url: string, opts: AddTargetOptions & { storeUnder?: string }): Promise<ContentInput> {
  checkIndexable(app.rules.skip, url);
  const page = await fetchPage(url, fetchOptions(app.config));
  const body = page.contentType === 'html' ? { html: page.body } : { text: page.body, contentType: page.mediaType };
  return { url: opts.storeUnder ?? page.url, label: opts.label, source: opts.source, ...body };
}

export interface TargetOutcome {
  target: string;
  result?: AddResult;
  error?: TroveError;
}

/** Documents written per transaction by `addTargets`: fast ingest, short enough locks for a serving process. */
export const ADD_BATCH = 64;

function isTargetError(err: unknown): err is TroveError {
  return err instanceof TroveError && (err.spec.user || err.code === 'FETCH_FAILED' || err.code === 'REDIRECT_LOOP');
}

/** Adds files, every supported file under directories, or fetched URLs; one bad target does not stop the rest. */
export async function addTargets(app: App, targets: string[], opts: AddTargetOptions): Promise<TargetOutcome[]> {
  const out: TargetOutcome[] = [];
  const tools = await createIngestTools(app);
  let batch: Array<{ slot: number; write: Promise<DocumentWrite> }> = [];
  let storing: Promise<void> = Promise.resolve();
  const settle = async (items: typeof batch) => {
    const ready: Array<{ slot: number; write: DocumentWrite }> = [];
    for (const item of items) {
      try {
        ready.push({ slot: item.slot, write: await item.write });
      } catch (err) {
        if (!isTargetError(err)) throw err;
        out[item.slot]!.error = err;
      }
    }
    if (ready.length === 0) return;
    const results = await store(app, ready.map((r) => r.write));
    ready.forEach((r, i) => (out[r.slot]!.result = results[i]));
  };
  // One batch is stored while the next one is extracting; never more than those two.
  const flush = async () => {
    const items = batch;
    batch = [];
    await storing;
    storing = settle(items);
    storing.catch(() => undefined);
  };
  try {
    for (const target of targets) {
      const paths = isUrlTarget(target) ? [target] : isDirectory(target) ? listFiles(target) : [target];
      for (const p of paths) {
        const slot = out.push({ target: p }) - 1;
        try {
          const input = isUrlTarget(p) ? await urlInput(app, p, opts) : fileInput(app, p, opts);
          const write = screened(app, input, tools);
          write.catch(() => undefined);
          batch.push({ slot, write });
        } catch (err) {
          if (!isTargetError(err)) throw err;
          out[slot]!.error = err;
        }
        if (batch.length >= ADD_BATCH) await flush();
      }
    }
    if (batch.length) await flush();
  } catch (err) {
    // Whatever is being stored finishes before the failure is reported.
    await storing.catch(() => undefined);
    throw err;
  }
  await storing;
  return out;
}

export interface DocumentDetail {
  document: DocumentView;
  versions: VersionView[];
  text: string;
}

async function requireDocument(app: App, idOrUrl: string, scope: Scope): Promise<DocumentRecord> {
  const doc = await app.store.getDocument(idOrUrl, scope);
  // A memory is read and removed through its bank (recall, tree.*, /api/banks), never by id from outside it.
  if (!doc || inBank(doc)) throw new TroveError('NOT_FOUND', `no document with id or url ${JSON.stringify(idOrUrl.slice(0, 300))}`);
  return doc;
}

/** A document's metadata, versions and current text. */
export async function showDocument(app: App, idOrUrl: string, scope: Scope = ALL_OWNERS): Promise<DocumentDetail> {
  const doc = await requireDocument(app, idOrUrl, scope);
  const [versions, text] = await Promise.all([app.store.listVersions(doc.id), app.store.getText(doc.id)]);
  return { document: toDocumentView(doc), versions: versions.map(toVersionView), text: text ?? '' };
}

/**
 * Removes a document (by id or exact url) with all its versions; NOT_FOUND when the caller cannot see one,
 * FORBIDDEN when they can see it but it is not theirs (a user and a global document).
 */
export async function deleteDocument(app: App, idOrUrl: string, scope: Scope = ALL_OWNERS): Promise<{ id: string; url: string; deleted: true }> {
  const doc = await requireDocument(app, idOrUrl, scope);
  if (!scope.all && doc.ownerId !== scope.userId) throw new TroveError('FORBIDDEN', 'only an admin can delete a global document');
  if (!(await app.store.deleteDocument(doc.id))) throw new TroveError('NOT_FOUND', `no document with id ${doc.id}`);
  app.log.info('document deleted', { id: doc.id });
  return { id: doc.id, url: doc.url, deleted: true };
}

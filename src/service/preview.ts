import type { App } from '../app.js';
import { TroveError } from '../errors.js';
import type { Extractor } from '../ingest/extract/index.js';
import { redactText } from '../ingest/redact.js';
import { ALL_OWNERS, type DocumentContent, type DocumentRecord, type Scope } from '../store/types.js';
import { inBank, iso } from './views.js';

// The stored preview of one document (seed 000, Hister's get_preview), optionally re-rendered from the
// captured HTML with a named extractor. The CLI, the HTTP API and the MCP tool all call this.

const MAX_URL_BYTES = 8192;
/** The extractor name of documents stored before extractors were recorded. */
export const UNKNOWN_EXTRACTOR = 'unknown';

export interface PreviewParams {
  /** Exact url of an indexed document, as search returns it; no normalisation. */
  url: string;
  /** Re-render the stored captured HTML with this extractor (see previewExtractors); '' or absent: the stored preview. */
  extractor?: string | undefined;
}

export interface PreviewView {
  title: string;
  url: string;
  added: string;
  updated: string;
  metadata: Record<string, unknown>;
  /** The complete stored plain text. */
  text: string;
  /** The complete sanitized rendered HTML, or null when there is none. */
  html: string | null;
  /** The extractor that rendered `html` (and, without `extractor`, produced the stored text). */
  extractor: string;
}

// Loaded on first use: the extractors pull in the HTML parser, which a plain preview never needs.
const extractModule = () => import('../ingest/extract/index.js');

/** Extractors that render a preview from HTML, in the order ingest tries them. */
export async function previewExtractors(): Promise<Extractor[]> {
  return (await extractModule()).createExtractors().filter((e) => e.capabilities.includes('preview'));
}

async function pickExtractor(name: string): Promise<Extractor> {
  const choices = await previewExtractors();
  const found = choices.find((e) => e.name === name);
  if (!found) {
    const allowed = choices.map((e) => e.name);
    throw new TroveError('INVALID_ARGUMENT', `extractor must be one of ${allowed.join(', ')}`, { field: 'extractor', allowed });
  }
  return found;
}

function checkUrl(url: unknown): string {
  if (typeof url !== 'string' || url === '' || Buffer.byteLength(url, 'utf8') > MAX_URL_BYTES) {
    throw new TroveError('INVALID_ARGUMENT', `url must be a non-empty string of at most ${MAX_URL_BYTES} bytes`, { field: 'url' });
  }
  return url;
}

function unavailable(message: string, details: Record<string, unknown>): TroveError {
  return new TroveError('PREVIEW_UNAVAILABLE', message, details);
}

/** Runs one extractor over the stored captured HTML; its HTML is sanitized by the extractor and redacted as ingest does. */
async function rerender(app: App, doc: DocumentRecord, content: DocumentContent, extractor: Extractor): Promise<string | null> {
  if (content.rawHtml === null) throw unavailable(`no captured HTML is stored for ${doc.url}; only its stored preview exists`, { extractor: extractor.name, reason: 'no_html' });
  const input = { url: new URL(doc.url), html: content.rawHtml };
  if (!extractor.matches(input)) throw unavailable(`the ${extractor.name} extractor does not handle ${doc.url}`, { extractor: extractor.name, reason: 'not_applicable' });
  try {
    const page = await (await extractModule()).extract(input, [extractor]);
    return page.html === null ? null : redactText(app.rules.redactor, page.html);
  } catch (err) {
    if (!(err instanceof TroveError) || err.code !== 'UNSUPPORTED_TYPE') throw err;
    const skipped = (err.details?.skipped as Array<{ reason: string }> | undefined)?.[0]?.reason;
    throw unavailable(`the ${extractor.name} extractor declined ${doc.url}${skipped ? `: ${skipped}` : ''}`, { extractor: extractor.name, reason: 'declined' });
  }
}

function storedExtractor(doc: DocumentRecord): string {
  const name = doc.metadata.extractor;
  return typeof name === 'string' && name ? name : UNKNOWN_EXTRACTOR;
}

/** A document's title, times, metadata, complete text and rendered HTML, by exact url; NOT_FOUND when none. */
export async function getPreview(app: App, params: PreviewParams, scope: Scope = ALL_OWNERS): Promise<PreviewView> {
  const url = checkUrl(params.url);
  const extractor = params.extractor ? await pickExtractor(params.extractor) : undefined;
  const doc = await app.store.getDocument(url, scope);
  // getDocument also takes ids; a preview answers to the exact url only.
  if (!doc || doc.url !== url || inBank(doc)) throw new TroveError('NOT_FOUND', `no indexed document has the url ${JSON.stringify(url.slice(0, 300))}`, { field: 'url' });
  const content = (await app.store.getContent(doc.id)) ?? { text: '', html: null, rawHtml: null };
  const html = extractor ? await rerender(app, doc, content, extractor) : content.html;
  return {
    title: doc.title,
    url: doc.url,
    added: iso(doc.addedAt),
    updated: iso(doc.updatedAt),
    metadata: doc.metadata,
    text: content.text,
    html,
    extractor: extractor?.name ?? storedExtractor(doc),
  };
}

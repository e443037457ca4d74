import type { App } from '../app.js';
import { TroveError } from '../errors.js';
import { redactText, redactUrl } from '../ingest/redact.js';
import { decodePageKey, encodePageKey } from './page-key.js';
import { ALL_OWNERS, type Scope } from '../store/types.js';
import { iso } from './views.js';

// The two history views (seed 000, Hister's get_history): indexed pages by capture time, and search results
// the user opened. The CLI, the HTTP API and the MCP tool all call these.

export const HISTORY_MODES = ['indexed', 'opened'] as const;
export type HistoryMode = (typeof HISTORY_MODES)[number];

export const HISTORY_DEFAULT_LIMIT = 20;
export const HISTORY_MAX_LIMIT = 100;

const MAX_URL_BYTES = 8192;
const MAX_TEXT_BYTES = 4096;
const OPENED_SCHEMES = new Set(['http:', 'https:', 'file:', 'memory:']);

export interface IndexedHistoryItem {
  /** The document's id. */
  id: string;
  title: string;
  url: string;
  /** Time of the last capture that changed the content (the document's `updated`). */
  indexed: string;
  version_count: number;
}

export interface OpenedHistoryItem {
  id: number;
  title: string;
  url: string;
  /** The search query the result was opened from ('' when unknown). */
  query: string;
  opened: string;
  /** Versions of the document at that url now; 0 when it is not indexed. */
  version_count: number;
}

export interface IndexedHistoryPage {
  mode: 'indexed';
  items: IndexedHistoryItem[];
  /** Present only when another page exists. */
  next_page_key?: string;
}

export interface OpenedHistoryPage {
  mode: 'opened';
  items: OpenedHistoryItem[];
  /** Present only when another page exists. */
  next_last_id?: number;
}

/** Either view; `next_page_key` comes only with indexed items, `next_last_id` only with opened ones. */
export interface HistoryPage {
  mode: HistoryMode;
  items: Array<IndexedHistoryItem | OpenedHistoryItem>;
  next_page_key?: string;
  next_last_id?: number;
}

/** 1..100; anything else (absent, 0, 101, 1.5) is the default 20, as Hister documents. */
export function historyLimit(limit: number | undefined): number {
  return limit !== undefined && Number.isInteger(limit) && limit >= 1 && limit <= HISTORY_MAX_LIMIT ? limit : HISTORY_DEFAULT_LIMIT;
}

/** Recently indexed documents, newest capture first; `pageKey` is a previous page's next_page_key ('' = first page). */
export async function listIndexedHistory(app: App, params: { limit?: number | undefined; pageKey?: string | undefined }, scope: Scope = ALL_OWNERS): Promise<IndexedHistoryPage> {
  const limit = historyLimit(params.limit);
  const after = params.pageKey ? decodePageKey(params.pageKey) : undefined;
  const entries = await app.store.listIndexed({ limit: limit + 1, after, scope });
  const shown = entries.slice(0, limit);
  const items = shown.map(({ document: d }) => ({ id: d.id, title: d.title, url: d.url, indexed: iso(d.updatedAt), version_count: d.versionCount }));
  const page: IndexedHistoryPage = { mode: 'indexed', items };
  if (entries.length > limit) page.next_page_key = encodePageKey(shown[shown.length - 1]!.key);
  return page;
}

function checkLastId(lastId: number | undefined): number | undefined {
  if (lastId === undefined) return undefined;
  if (!Number.isSafeInteger(lastId) || lastId < 1) throw new TroveError('INVALID_ARGUMENT', `last_id must be a positive whole number, got ${String(lastId)}`, { field: 'last_id' });
  return lastId;
}

/** Opened search results, newest first; `lastId` is a previous page's next_last_id. */
/** A user sees the results they opened; the owner and admins every one. */
export async function listOpenedHistory(app: App, params: { limit?: number | undefined; lastId?: number | undefined }, scope: Scope = ALL_OWNERS): Promise<OpenedHistoryPage> {
  const limit = historyLimit(params.limit);
  const rows = await app.store.listOpened({ limit: limit + 1, beforeId: checkLastId(params.lastId), scope });
  const shown = rows.slice(0, limit);
  const items = shown.map((r) => ({ id: r.id, title: r.title, url: r.url, query: r.query, opened: iso(r.openedAt), version_count: r.versionCount }));
  const page: OpenedHistoryPage = { mode: 'opened', items };
  if (rows.length > limit) page.next_last_id = shown[shown.length - 1]!.id;
  return page;
}

export interface HistoryParams {
  /** Default 'indexed'. */
  mode?: string | undefined;
  limit?: number | undefined;
  /** Indexed mode only. */
  pageKey?: string | undefined;
  /** Opened mode only. */
  lastId?: number | undefined;
}

function wrongCursor(field: 'page_key' | 'last_id', mode: HistoryMode): TroveError {
  return new TroveError('INVALID_ARGUMENT', `${field} pages the ${mode === 'indexed' ? 'opened' : 'indexed'} history, not the ${mode} one`, { field });
}

/** Either view by mode: Hister's get_history. A cursor of the other mode is refused, never silently ignored. */
export async function getHistory(app: App, params: HistoryParams, scope: Scope = ALL_OWNERS): Promise<HistoryPage> {
  const mode = params.mode ?? 'indexed';
  if (mode === 'indexed') {
    if (params.lastId !== undefined) throw wrongCursor('last_id', mode);
    return listIndexedHistory(app, params, scope);
  }
  if (mode === 'opened') {
    if (params.pageKey) throw wrongCursor('page_key', mode);
    return listOpenedHistory(app, params, scope);
  }
  throw new TroveError('INVALID_ARGUMENT', `mode must be one of ${HISTORY_MODES.join(', ')}`, { field: 'mode', allowed: [...HISTORY_MODES] });
}

function checkText(field: string, value: unknown, maxBytes: number): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string' || Buffer.byteLength(value, 'utf8') > maxBytes) {
    throw new TroveError('INVALID_ARGUMENT', `${field} must be a string of at most ${maxBytes} bytes`, { field });
  }
  return value;
}

function checkOpenedUrl(value: unknown): string {
  const url = checkText('url', value, MAX_URL_BYTES);
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || !OPENED_SCHEMES.has(parsed.protocol)) {
    throw new TroveError('INVALID_ARGUMENT', 'url must be an absolute http(s), file: or memory: URL', { field: 'url' });
  }
  return url;
}

/** The url as given unless redaction changed more than its spelling (a password, a token in the query). */
function redactedUrl(app: App, url: string): string {
  const redacted = redactUrl(app.rules.redactor, url);
  return redacted === new URL(url).href ? url : redacted;
}

export interface OpenedParams {
  url: string;
  /** Default: the title of the document at that url, else ''. */
  title?: string | undefined;
  query?: string | undefined;
}

/** Records that the user opened a search result; secrets in it are redacted like everything stored. */
export async function recordOpened(app: App, params: OpenedParams, ownerId: number | null = null): Promise<{ id: number; opened: string }> {
  const url = redactedUrl(app, checkOpenedUrl(params.url));
  let title = checkText('title', params.title, MAX_TEXT_BYTES);
  const query = checkText('query', params.query, MAX_TEXT_BYTES);
  if (!title) {
    const doc = await app.store.getDocument(url, ownerId === null ? ALL_OWNERS : { userId: ownerId });
    if (doc?.url === url) title = doc.title;
  }
  const r = app.rules.redactor;
  const openedAt = Date.now();
  const id = await app.store.recordOpened({ ownerId, url, title: redactText(r, title), query: redactText(r, query), openedAt });
  return { id, opened: iso(openedAt) };
}

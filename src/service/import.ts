import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { realpathSync } from 'node:fs';
import type { App } from '../app.js';
import { parseDay } from '../engine/query/time.js';
import { TroveError } from '../errors.js';
import { type BookmarkFile, readBookmarksFile } from '../ingest/importers/bookmarks.js';
import { readBrowserHistory } from '../ingest/importers/history.js';
import { type Locale, locateHistory } from '../ingest/importers/profiles.js';
import { BROWSERS, type Browser } from '../ingest/importers/types.js';
import type { ImportBatchResult } from '../store/history.js';
import { type FetchFailure, processFetchQueue } from './import-fetch.js';
import { BOOKMARK_BATCH, VISIT_BATCH, historyBatch, screenBookmarks, screenHistory, titleOnlyDocument } from './import-records.js';

// `trove import <browser>` and `trove import bookmarks`: read everything first (a bad input fails before
// anything is written), then store it in batches, each with its checkpoint, so an interrupted import
// resumes and a repeated one adds nothing.

export interface ImportProgress {
  phase: 'visits' | 'bookmarks' | 'fetch';
  done: number;
  total: number;
}

export interface ImportOptions {
  /** Queue the pages for fetching, then fetch the queue. */
  fetch?: boolean | undefined;
  onProgress?: ((p: ImportProgress) => void) | undefined;
  /** Stops the import between batches (each batch is stored with its checkpoint, so it resumes). */
  signal?: AbortSignal | undefined;
}

export interface HistoryImportOptions extends ImportOptions {
  /** A history database file or a profile directory; default: the browser's default profile. */
  profile?: string | undefined;
  /** YYYY-MM-DD (UTC): only visits on or after that day. */
  since?: string | undefined;
  /** Where default profiles are looked for; default: this user and platform. */
  locale?: Locale | undefined;
}

interface SummaryBase {
  source: string;
  path: string;
  /** Distinct http(s) urls read. */
  urls: number;
  /** Entries left out because their url is not http(s). */
  skipped: number;
  /** Entries a skip rule (indexer.skip_domains, indexer.skip_patterns) keeps out. */
  excluded: number;
  documents_created: number;
  /** Existing documents without a label that got one (bookmark folders). */
  documents_labelled: number;
  queued: number;
  fetched: number;
  failed: number;
  failures: FetchFailure[];
}

export interface HistorySummary extends SummaryBase {
  visits_read: number;
  visits_new: number;
  /** Urls never imported from this browser before. */
  urls_new: number;
  /** The first visit time read (ISO), or null when resuming found nothing new. */
  since: string | null;
}

export interface BookmarksSummary extends SummaryBase {
  bookmarks_read: number;
}

function isBrowser(name: string): name is Browser {
  return (BROWSERS as readonly string[]).includes(name);
}

function sinceMs(since: string | undefined): number {
  if (since === undefined || since === '') return 0;
  const ms = parseDay(since);
  if (ms === undefined) throw new TroveError('INVALID_ARGUMENT', `--since must be a date YYYY-MM-DD, got ${JSON.stringify(since.slice(0, 40))}`, { field: 'since' });
  return ms;
}

function defaultLocale(): Locale {
  return { home: homedir(), platform: process.platform, env: process.env };
}

type Counters = Pick<SummaryBase, 'documents_created' | 'documents_labelled' | 'queued' | 'fetched' | 'failed' | 'failures'>;

function counters(): Counters {
  return { documents_created: 0, documents_labelled: 0, queued: 0, fetched: 0, failed: 0, failures: [] };
}

function addBatch(summary: SummaryBase, r: ImportBatchResult): void {
  summary.documents_created += r.documentsCreated;
  summary.documents_labelled += r.documentsLabelled;
  summary.queued += r.queued;
}

async function fetchQueued(app: App, summary: SummaryBase, opts: ImportOptions): Promise<void> {
  if (!opts.fetch) return;
  const run = await processFetchQueue(app, (done, total) => opts.onProgress?.({ phase: 'fetch', done, total }), opts.signal);
  summary.fetched = run.fetched;
  summary.failed = run.failed;
  summary.failures = run.failures;
}

/** Where this run starts: after the stored checkpoint when it covers `floor`, else at `floor` (a fresh range). */
async function startPoint(app: App, source: string, path: string, floor: number): Promise<{ rangeStart: number; start: number }> {
  const checkpoint = await app.store.getImportCheckpoint(source, path);
  if (checkpoint && checkpoint.rangeStart <= floor) return { rangeStart: checkpoint.rangeStart, start: Math.max(floor, checkpoint.lastVisitAt) };
  return { rangeStart: floor, start: floor };
}

/** Imports a browser's history: visits, title-only documents, and with `fetch` the pages themselves. Skip rules and redaction apply. */
export async function importBrowserHistory(app: App, browser: string, opts: HistoryImportOptions = {}): Promise<HistorySummary> {
  if (!isBrowser(browser)) throw new TroveError('INVALID_ARGUMENT', `unknown browser ${JSON.stringify(browser.slice(0, 40))}; one of ${BROWSERS.join(', ')}`, { field: 'browser' });
  const floor = sinceMs(opts.since);
  const path = realpathSync(locateHistory(browser, opts.profile, opts.locale ?? defaultLocale()));
  const source = `import:${browser}`;
  const { rangeStart, start } = await startPoint(app, source, path, floor);
  const { history, excluded } = screenHistory(app, readBrowserHistory(browser, path, start));
  const total = history.at.length;
  const since = total ? new Date(history.at[0]!).toISOString() : null;
  const summary: HistorySummary = { source, path, visits_read: total, visits_new: 0, urls: history.pages.length, urls_new: 0, skipped: history.skipped, excluded, since, ...counters() };
  opts.onProgress?.({ phase: 'visits', done: 0, total });
  for (let from = 0; from < total; from += VISIT_BATCH) {
    opts.signal?.throwIfAborted();
    const to = Math.min(from + VISIT_BATCH, total);
    const r = await app.store.recordImport(historyBatch(history, from, to, { source, profile: path, rangeStart, queueFetch: opts.fetch === true }));
    addBatch(summary, r);
    summary.visits_new += r.visitsNew;
    summary.urls_new += r.urlsNew;
    opts.onProgress?.({ phase: 'visits', done: to, total });
  }
  await fetchQueued(app, summary, opts);
  return summary;
}

/** Imports a Netscape bookmarks file: one title-only document per bookmark, its folder path as the label. */
export async function importBookmarks(app: App, file: string, opts: ImportOptions = {}): Promise<BookmarksSummary> {
  const path = resolve(file);
  const read: BookmarkFile = readBookmarksFile(path);
  const { bookmarks, excluded } = screenBookmarks(app, read.bookmarks);
  const source = 'import:bookmarks';
  const total = bookmarks.length;
  const urls = new Set(bookmarks.map((b) => b.url)).size;
  const summary: BookmarksSummary = { source, path, bookmarks_read: read.bookmarks.length, urls, skipped: read.skipped, excluded, ...counters() };
  const now = Date.now();
  opts.onProgress?.({ phase: 'bookmarks', done: 0, total });
  for (let from = 0; from < total; from += BOOKMARK_BATCH) {
    opts.signal?.throwIfAborted();
    const slice = bookmarks.slice(from, from + BOOKMARK_BATCH);
    const documents = slice.map((b) => titleOnlyDocument({ url: b.url, title: b.title, label: b.label, source, capturedAt: b.addedAt ?? now }));
    addBatch(summary, await app.store.recordImport({ source, visits: [], documents, queueFetch: opts.fetch === true }));
    opts.onProgress?.({ phase: 'bookmarks', done: from + slice.length, total });
  }
  await fetchQueued(app, summary, opts);
  return summary;
}

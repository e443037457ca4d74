import { createHash } from 'node:crypto';
import type { App } from '../app.js';
import type { Bookmark } from '../ingest/importers/bookmarks.js';
import type { BrowserHistory, HistoryPage } from '../ingest/importers/types.js';
import { redactText, redactUrl } from '../ingest/redact.js';
import { skipReason } from '../ingest/skip.js';
import type { ImportBatch, VisitedUrl } from '../store/history.js';
import type { DocumentWrite } from '../store/types.js';

// Turning what an importer read into the batches the store writes: screened, batched, title-only documents.

/** Visits per transaction: large enough for fast imports, small enough to keep a serving process responsive. */
export const VISIT_BATCH = 2000;
/** Bookmarks per transaction. */
export const BOOKMARK_BATCH = 500;

const EMPTY_SHA256 = createHash('sha256').update('').digest('hex');

export interface TitleOnly {
  url: string;
  title: string;
  label: string | null;
  source: string;
  capturedAt: number;
}

/**
 * A document with a title and url but no text. Its one empty passage puts the title, domain and url
 * in the keyword index, so it is found before (or without) its page being fetched.
 */
export function titleOnlyDocument(d: TitleOnly): DocumentWrite {
  return {
    kind: 'web',
    url: d.url,
    title: d.title || d.url,
    domain: hostOf(d.url),
    language: 'unknown',
    label: d.label,
    source: d.source,
    metadata: {},
    text: '',
    html: null,
    rawHtml: null,
    sha256: EMPTY_SHA256,
    capturedAt: d.capturedAt,
    chunks: [{ ordinal: 0, start: 0, end: 0, text: '' }],
  };
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return '';
  }
}

export interface HistoryBatchOptions {
  source: string;
  profile: string;
  rangeStart: number;
  queueFetch: boolean;
}

/** Visits [from, to) of the history as one store batch; its checkpoint is the last visit time in it. */
export function historyBatch(history: BrowserHistory, from: number, to: number, opts: HistoryBatchOptions): ImportBatch {
  const byPage = new Map<number, VisitedUrl>();
  for (let i = from; i < to; i++) {
    const index = history.page[i]!;
    let visit = byPage.get(index);
    if (!visit) {
      const page = history.pages[index]!;
      visit = { url: page.url, title: page.title, visitCount: page.visitCount, visitTimes: [] };
      byPage.set(index, visit);
    }
    visit.visitTimes.push(history.at[i]!);
  }
  const visits = [...byPage.values()];
  const documents = visits.map((v) =>
    titleOnlyDocument({ url: v.url, title: v.title, label: null, source: opts.source, capturedAt: v.visitTimes[v.visitTimes.length - 1]! }),
  );
  const checkpoint = { source: opts.source, profile: opts.profile, rangeStart: opts.rangeStart, lastVisitAt: history.at[to - 1]! };
  return { source: opts.source, visits, documents, queueFetch: opts.queueFetch, checkpoint };
}

function allowed(app: App, url: string): boolean {
  try {
    return skipReason(app.rules.skip, new URL(url)) === undefined;
  } catch {
    return false;
  }
}

/** Redacts secrets in a page's url and title in place. */
function redactPage(app: App, page: { url: string; title: string }): void {
  page.url = redactUrl(app.rules.redactor, page.url);
  page.title = redactText(app.rules.redactor, page.title);
}

/** The history without pages a skip rule keeps out (nor their visits), urls and titles redacted, as for every input. */
export function screenHistory(app: App, history: BrowserHistory): { history: BrowserHistory; excluded: number } {
  const pages: HistoryPage[] = [];
  const newIndex = history.pages.map((p) => {
    if (!allowed(app, p.url)) return -1;
    redactPage(app, p);
    return pages.push(p) - 1;
  });
  const out: BrowserHistory = { pages, at: [], page: [], skipped: history.skipped };
  let excluded = 0;
  history.at.forEach((at, i) => {
    const j = newIndex[history.page[i]!]!;
    if (j < 0) excluded++;
    else {
      out.at.push(at);
      out.page.push(j);
    }
  });
  return { history: out, excluded };
}

/** Bookmarks a skip rule allows, urls and titles redacted. */
export function screenBookmarks(app: App, bookmarks: Bookmark[]): { bookmarks: Bookmark[]; excluded: number } {
  const kept = bookmarks.filter((b) => allowed(app, b.url));
  for (const b of kept) redactPage(app, b);
  return { bookmarks: kept, excluded: bookmarks.length - kept.length };
}

import type { DocumentWrite } from './types.js';

// Types of the Store methods for imported browser history and the fetch queue.

/** One url's visits in an import batch; times are Unix milliseconds. */
export interface VisitedUrl {
  url: string;
  title: string;
  /** The browser's own visit count for the url (it may count visits it no longer lists). */
  visitCount: number;
  visitTimes: number[];
}

/** How far an import of one history database has come: every visit in [rangeStart, lastVisitAt] is stored. */
export interface ImportCheckpoint {
  source: string;
  /** The history database's path. */
  profile: string;
  rangeStart: number;
  lastVisitAt: number;
}

export interface ImportBatch {
  /** e.g. `import:firefox`, `import:bookmarks`. */
  source: string;
  visits: VisitedUrl[];
  /**
   * Title-only documents for the urls: created when the url is absent; an existing document keeps its
   * content and title, and gains the label only when it has none.
   */
  documents: DocumentWrite[];
  /** Queue the documents' urls for fetching (urls whose document already has text are not queued). */
  queueFetch: boolean;
  /** Stored with the batch, in the same transaction. */
  checkpoint?: ImportCheckpoint | undefined;
}

export interface ImportBatchResult {
  /** Visit times not stored before. */
  visitsNew: number;
  /** Urls with no visits from this source before. */
  urlsNew: number;
  documentsCreated: number;
  /** Existing documents that got the batch's label. */
  documentsLabelled: number;
  queued: number;
}

/** Visits of one url from one source. */
export interface VisitRecord {
  url: string;
  title: string;
  source: string;
  visitCount: number;
  firstVisitAt: number;
  lastVisitAt: number;
  /** The distinct visit times stored, ascending. */
  visitTimes: number[];
}

export type FetchState = 'queued' | 'done' | 'failed';

export interface FetchQueueItem {
  id: number;
  url: string;
  source: string;
  state: FetchState;
  attempts: number;
  /** An error code of the last failed attempt. */
  lastError: string | null;
  queuedAt: number;
  finishedAt: number | null;
}

export interface FetchQueueFilter {
  states: FetchState[];
  /** Only items tried fewer times than this. */
  maxAttempts?: number | undefined;
  limit?: number | undefined;
}

import type { App } from '../app.js';
import { TroveError } from '../errors.js';
import type { FetchQueueItem } from '../store/history.js';
import { type IngestTools, addContents, createIngestTools, urlInput } from './documents.js';

// Fetching the pages an import queued: a few at a time, each failure recorded in the queue (never fatal),
// so running the import again retries what failed and finishes what was left.

export const FETCH_CONCURRENCY = 4;
/** A page that failed this often is left alone (it stays in the queue as failed). */
export const MAX_FETCH_ATTEMPTS = 3;

/** Failures listed in a run's result (all are counted). */
export const MAX_LISTED_FAILURES = 100;

export interface FetchFailure {
  url: string;
  code: string;
  message: string;
}

export interface FetchRun {
  fetched: number;
  failed: number;
  /** The first MAX_LISTED_FAILURES failures. */
  failures: FetchFailure[];
}

/** Failures of the store or of trove itself stop the run; everything else is a failure of that one page. */
function isFatal(err: unknown): boolean {
  return !(err instanceof TroveError) || err.code.startsWith('STORE_') || err.code === 'INTERNAL';
}

async function fetchOne(app: App, item: FetchQueueItem, tools: IngestTools): Promise<void> {
  const existing = await app.store.getDocument(item.url);
  // Stored under the url the browser recorded, so its title-only document gains the text (and keeps its label).
  const input = await urlInput(app, item.url, { label: existing?.label ?? null, source: item.source, storeUnder: item.url });
  await addContents(app, [input], tools);
}

/** One queue item: fetched and stored, or its failure recorded; store failures propagate. */
async function attempt(app: App, item: FetchQueueItem, tools: IngestTools, run: FetchRun): Promise<void> {
  try {
    await fetchOne(app, item, tools);
  } catch (err) {
    if (isFatal(err)) throw err;
    const e = err as TroveError;
    await app.store.finishFetch(item.id, e.code);
    run.failed++;
    if (run.failures.length < MAX_LISTED_FAILURES) run.failures.push({ url: item.url, code: e.code, message: e.message });
    app.log.info('import fetch failed', { url: item.url, code: e.code });
    return;
  }
  await app.store.finishFetch(item.id, null);
  run.fetched++;
}

/** Fetches every queued page and every failed one tried fewer than MAX_FETCH_ATTEMPTS times. */
export async function processFetchQueue(app: App, onProgress?: (done: number, total: number) => void, signal?: AbortSignal): Promise<FetchRun> {
  const items = await app.store.listFetchQueue({ states: ['queued', 'failed'], maxAttempts: MAX_FETCH_ATTEMPTS });
  const run: FetchRun = { fetched: 0, failed: 0, failures: [] };
  if (items.length === 0) return run;
  const tools = await createIngestTools(app);
  let next = 0;
  let fatal: unknown;
  onProgress?.(0, items.length);
  const worker = async () => {
    while (next < items.length && fatal === undefined && !signal?.aborted) {
      try {
        await attempt(app, items[next++]!, tools, run);
      } catch (err) {
        fatal ??= err;
        return;
      }
      onProgress?.(run.fetched + run.failed, items.length);
    }
  };
  // Workers stop taking items after a fatal error, and all of them finish before it is thrown.
  await Promise.all(Array.from({ length: Math.min(FETCH_CONCURRENCY, items.length) }, worker));
  if (fatal !== undefined) throw fatal;
  signal?.throwIfAborted();
  return run;
}

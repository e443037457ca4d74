import { parseDay } from '../../engine/query/time.js';
import { TroveError } from '../../errors.js';
import { principalLabel } from '../access.js';
import { importBrowserHistory } from '../import.js';
import type { JobSpec } from './jobs.js';
import type { ImportHistoryParams } from './params.js';

// import_history: step 2's browser-history importer as an operation, its progress in the operation.

export const IMPORT_HISTORY_JOB: JobSpec = {
  async check(_app, _caller, params) {
    const { since } = params as unknown as ImportHistoryParams;
    if (since !== null && parseDay(since) === undefined) throw new TroveError('INVALID_ARGUMENT', 'since must be a date YYYY-MM-DD', { field: 'since' });
  },

  async run(app, caller, params, ctx) {
    const p = params as unknown as ImportHistoryParams;
    // get_status says updating while the import changes the catalog.
    const end = app.lifecycle.begin(`${p.browser} history import`);
    const s = await importBrowserHistory(app, p.browser, {
      profile: p.profile ?? undefined,
      since: p.since ?? undefined,
      fetch: p.fetch,
      signal: ctx.signal,
      onProgress: (progress) => ctx.progress({ ...progress }),
    }).finally(end);
    app.log.info('audit', { action: 'operation import_history', principal: principalLabel(caller.grant.principal), source: s.source });
    const trusted = {
      source: s.source, path: s.path, visitsRead: s.visits_read, visitsNew: s.visits_new, urls: s.urls, urlsNew: s.urls_new,
      since: s.since, skipped: s.skipped, excluded: s.excluded, documentsCreated: s.documents_created, documentsLabelled: s.documents_labelled,
      queued: s.queued, fetched: s.fetched, failed: s.failed, failuresListed: s.failures.length,
    };
    // Failed urls came from the browser's history: untrusted.
    const untrusted = s.failures.map((f) => ({ source_type: 'import_failure', fields: { url: f.url, code: f.code, message: f.message } }));
    return { trusted, untrusted };
  },
};

import type { Command } from 'commander';
import type { App } from '../app.js';
import { BROWSERS } from '../ingest/importers/types.js';
import { MAX_LISTED_FAILURES } from '../service/import-fetch.js';
import { type BookmarksSummary, type HistorySummary, type ImportProgress, importBookmarks, importBrowserHistory } from '../service/import.js';
import { type GlobalOptions, printJson, withApp } from './context.js';
import { createProgress } from './progress.js';

const SHOWN_FAILURES = 20;

interface ImportFlags extends GlobalOptions {
  profile?: string;
  since?: string;
  fetch?: boolean;
}

function formatSummary(s: HistorySummary | BookmarksSummary): string {
  const lines = [`imported ${s.source} from ${s.path}`];
  if ('visits_read' in s) {
    lines.push(`visits:    ${s.visits_read} read, ${s.visits_new} new${s.since ? ` (from ${s.since})` : ''}`);
    lines.push(`urls:      ${s.urls} (${s.urls_new} new); visits skipped: ${s.skipped} not http/https, ${s.excluded} by skip rules`);
  } else {
    lines.push(`bookmarks: ${s.bookmarks_read} read, ${s.urls} urls; skipped: ${s.skipped} not http/https, ${s.excluded} by skip rules`);
  }
  lines.push(`documents: ${s.documents_created} created, ${s.documents_labelled} labelled`);
  if (s.queued || s.fetched || s.failed) lines.push(`fetch:     ${s.queued} queued, ${s.fetched} fetched, ${s.failed} failed`);
  for (const f of s.failures.slice(0, SHOWN_FAILURES)) lines.push(`  failed ${f.url}: ${f.code}: ${f.message}`);
  if (s.failed > SHOWN_FAILURES) lines.push(`  ... and ${s.failed - SHOWN_FAILURES} more (--json lists up to ${MAX_LISTED_FAILURES})`);
  return lines.join('\n');
}

type Body = (app: App, flags: ImportFlags, onProgress: (p: ImportProgress) => void) => Promise<HistorySummary | BookmarksSummary>;

async function run(cmd: Command, body: Body): Promise<void> {
  const flags = cmd.optsWithGlobals() as ImportFlags;
  const progress = createProgress(process.stderr);
  await withApp(flags, async (app) => {
    let summary: HistorySummary | BookmarksSummary;
    try {
      summary = await body(app, flags, (p) => progress.update(p.phase, p.done, p.total));
    } finally {
      progress.finish();
    }
    app.log.info('audit', { action: `import ${cmd.name()}`, principal: 'cli', source: `import:${cmd.name()}` });
    if (flags.json) printJson(summary);
    else process.stdout.write(`${formatSummary(summary)}\n`);
  });
}

/** `trove import <browser>` and `trove import bookmarks FILE` (see docs/importers.md). */
export function registerImport(program: Command): void {
  const parent = program.command('import').description('import browser history or a bookmarks file (see docs/importers.md)');
  for (const browser of BROWSERS) {
    parent
      .command(browser)
      .description(`import ${browser} history: visits, and a title-only document per visited page`)
      .option('--profile <path>', 'history database file or profile directory (default: the default profile)')
      .option('--since <YYYY-MM-DD>', 'only visits on or after this day (UTC)')
      .option('--fetch', 'also fetch and index the visited pages (resumable; failures are retried next time)')
      .option('--json', 'machine-readable summary')
      .action(async (_o, cmd: Command) => {
        await run(cmd, (app, f, onProgress) => importBrowserHistory(app, browser, { profile: f.profile, since: f.since, fetch: f.fetch, onProgress }));
      });
  }
  parent
    .command('bookmarks')
    .description('import a bookmarks file exported by a browser (Netscape HTML); folders become labels')
    .argument('<file>', 'bookmarks.html')
    .option('--fetch', 'also fetch and index the bookmarked pages')
    .option('--json', 'machine-readable summary')
    .action(async (file: string, _o, cmd: Command) => {
      await run(cmd, (app, f, onProgress) => importBookmarks(app, file, { fetch: f.fetch, onProgress }));
    });
}

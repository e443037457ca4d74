import type { App } from '../app.js';
import { type FolderSpec, owns, prunesDirectory, relativePath } from '../ingest/folders.js';
import { watchTree, withinAny } from '../ingest/watch.js';
import { type FolderSyncReport, configuredFolders, countsOf, emptyReport, syncDirectories, syncPath } from './folders.js';

// While `trove serve` runs: configured folders are watched and every change is synced, one job at a time.

export interface FolderWatchOptions {
  /** Run a full sync once the watchers are up (so nothing that changes during it is missed). */
  initialSync?: boolean;
  debounceMs?: number;
  /** Called after each sync job (initial or change burst), for logs and tests. */
  onSynced?: (report: FolderSyncReport) => void;
}

export interface FolderWatch {
  /** Resolves when every queued sync job has finished. */
  idle(): Promise<void>;
  /** Stops watching, interrupts the running job (between files) and waits for it. */
  close(): Promise<void>;
}

/** Changed paths without those inside another changed path (syncing a directory covers its contents). */
export function outermostPaths(paths: string[]): string[] {
  const kept = new Set<string>();
  // Sorted, a directory comes before everything inside it.
  return [...new Set(paths)].sort().filter((p) => {
    if (withinAny(p, kept)) return false;
    kept.add(p);
    return true;
  });
}

export async function syncChanges(app: App, folder: FolderSpec, paths: string[], signal?: AbortSignal): Promise<FolderSyncReport> {
  const report = emptyReport(1);
  for (const path of outermostPaths(paths)) await syncPath(app, folder, path, report, signal);
  if (report.added + report.updated + report.removed + report.failed > 0) app.log.info('folder changes synced', { path: folder.root, ...countsOf(report) });
  return report;
}

/** Watches the configured folders (checked first: INVALID_CONFIG when one is missing); errors are logged, never thrown. */
export function watchDirectories(app: App, opts: FolderWatchOptions = {}, folders: FolderSpec[] = configuredFolders(app)): FolderWatch {
  let chain: Promise<void> = Promise.resolve();
  const stopping = new AbortController();
  const enqueue = (job: () => Promise<FolderSyncReport>) => {
    chain = chain
      .then(async () => {
        if (stopping.signal.aborted) return;
        const end = app.lifecycle.begin('folder sync');
        let report: FolderSyncReport;
        try {
          report = await job();
        } finally {
          end();
        }
        for (const error of report.errors) app.log.warn('folder file refused', { ...error });
        opts.onSynced?.(report);
      })
      .catch((err: unknown) => {
        if (!stopping.signal.aborted) app.log.error('folder sync failed', { error: err instanceof Error ? err.message : String(err) });
      });
  };
  const watchers = folders.map((folder) =>
    watchTree(folder.root, {
      debounceMs: opts.debounceMs ?? 200,
      maxWaitMs: 2000,
      skipDirectory: (dir) => !owns(folder, dir) || prunesDirectory(folder, relativePath(folder, dir)),
      onChanges: (paths) => enqueue(() => syncChanges(app, folder, paths, stopping.signal)),
      onError: (err) => app.log.error('folder watch failed', { path: folder.root, error: err.message }),
    }),
  );
  if (folders.length) app.log.info('watching folders', { folders: folders.map((f) => f.root) });
  if (opts.initialSync) {
    enqueue(async () => {
      const report = await syncDirectories(app, folders, stopping.signal);
      app.lifecycle.note('folder_sync', report.failed ? { code: 'FOLDER_FILES_REFUSED', message: `${report.failed} files of the configured folders were refused at the last full sync (see the server log)`, count: report.failed } : undefined);
      return report;
    });
  }
  return {
    idle: () => chain,
    close: async () => {
      stopping.abort();
      for (const w of watchers) w.close();
      await chain;
    },
  };
}

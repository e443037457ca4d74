import { type Dirent, type FSWatcher, lstatSync, readdirSync, statSync, watch } from 'node:fs';
import { dirname, join } from 'node:path';

// Watches a directory tree and reports changed paths in debounced bursts. Events only say "something
// happened at this path"; the caller looks at the disk to learn what (created, changed, gone, renamed).
//
// One fs.watch per kept directory rather than fs.watch(root, { recursive: true }): on Linux, Node 20
// emulates `recursive` with one inotify watch per file and directory, walking excluded and hidden trees
// too (node_modules, .git), which exhausts the inotify limit on ordinary folders.

export interface WatchTreeOptions {
  /** Quiet time that ends a burst. */
  debounceMs: number;
  /** A steady stream of events still flushes this often. */
  maxWaitMs: number;
  /** Directories left unwatched with everything under them (hidden, excluded, owned by another watcher). */
  skipDirectory(abs: string): boolean;
  /** Absolute paths that changed. Watches on new and renamed directories are in place before it is called. */
  onChanges(paths: string[]): void;
  /** Watch failures (inotify limit, permissions), each kind reported once; the rest keeps working. */
  onError(err: Error): void;
}

export interface TreeWatcher {
  /** Directories watched now (for tests and diagnostics). */
  watched(): string[];
  close(): void;
}

interface DirWatch {
  watcher: FSWatcher;
  /** The directory watched: a path reused by another directory (renames) needs a fresh watch. */
  ino: number;
}

/** The inode of a directory; links are not followed except for the root (`follow`). */
function directoryIno(path: string, follow: boolean): number | undefined {
  try {
    const st = follow ? statSync(path) : lstatSync(path);
    return st.isDirectory() ? st.ino : undefined;
  } catch {
    return undefined;
  }
}

/** Some directory above `path` is in `dirs`. */
export function withinAny(path: string, dirs: ReadonlySet<string>): boolean {
  for (let d = path, up = dirname(d); up !== d; d = up, up = dirname(d)) if (dirs.has(up)) return true;
  return false;
}

function subdirectories(dir: string): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.filter((e) => e.isDirectory()).map((e) => join(dir, e.name));
}

export function watchTree(root: string, opts: WatchTreeOptions): TreeWatcher {
  const dirs = new Map<string, DirWatch>();
  const pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let firstAt = 0;
  let closed = false;
  const reported = new Set<string>();

  /** Each kind of failure once: a full inotify table would otherwise log once per directory. */
  const fail = (err: Error) => {
    const kind = (err as NodeJS.ErrnoException).code ?? err.message;
    if (reported.has(kind)) return;
    reported.add(kind);
    opts.onError(err);
  };

  const onEvent = (dir: string, name: string | Buffer | null) => {
    if (closed) return;
    if (pending.size === 0) firstAt = Date.now();
    pending.add(name ? join(dir, name.toString()) : dir);
    const waited = Date.now() - firstAt;
    if (timer && waited >= opts.maxWaitMs) return;
    clearTimeout(timer);
    timer = setTimeout(flush, Math.min(opts.debounceMs, Math.max(0, opts.maxWaitMs - waited)));
  };

  const unwatch = (dir: string) => {
    dirs.get(dir)?.watcher.close();
    dirs.delete(dir);
  };

  /** Watches `dir` and its kept subdirectories; already watched ones are kept when they are still the same directory. */
  const watchDir = (dir: string) => {
    const ino = directoryIno(dir, dir === root);
    if (closed || ino === undefined || (dir !== root && opts.skipDirectory(dir))) return;
    if (dirs.get(dir)?.ino !== ino) {
      unwatch(dir);
      try {
        const watcher = watch(dir, { persistent: true }, (_event, name) => onEvent(dir, name));
        watcher.on('error', (err) => {
          if (dirs.get(dir)?.watcher === watcher) unwatch(dir);
          fail(err);
        });
        dirs.set(dir, { watcher, ino });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') fail(err as Error);
        return;
      }
    }
    for (const sub of subdirectories(dir)) watchDir(sub);
  };

  /** Drops watches on directories gone or replaced under the changed paths, then watches what appeared. */
  const refresh = (paths: string[]) => {
    const changed = new Set(paths);
    for (const [dir, w] of [...dirs]) {
      if ((changed.has(dir) || withinAny(dir, changed)) && directoryIno(dir, dir === root) !== w.ino) unwatch(dir);
    }
    for (const p of paths) if (dirs.has(dirname(p)) || p === root) watchDir(p);
  };

  function flush() {
    timer = undefined;
    const paths = [...pending];
    pending.clear();
    if (closed || paths.length === 0) return;
    refresh(paths);
    opts.onChanges(paths);
  }

  watchDir(root);
  return {
    watched: () => [...dirs.keys()].sort(),
    close() {
      closed = true;
      clearTimeout(timer);
      for (const dir of [...dirs.keys()]) unwatch(dir);
    },
  };
}

import { type Dirent, readdirSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TroveError } from '../errors.js';
import { fileFormat } from './files.js';
import { type PathMatcher, pathMatcher } from './glob.js';

// Which files of a configured folder ([[indexer.directories]]) are indexed.

/** One configured folder, resolved and checked. */
export interface FolderSpec {
  /** Position in the config list, for messages. */
  index: number;
  /** Absolute path, symlinks not resolved (URLs match what `trove add` stores). */
  root: string;
  /** file:// URL of the root, without a trailing slash. */
  url: string;
  label: string | null;
  include: PathMatcher | null;
  exclude: PathMatcher;
  maxFileBytes: number;
  hidden: boolean;
  /** Other configured roots inside this one: they own their files. */
  nested: string[];
}

export interface FolderEntry {
  path?: unknown;
  label?: unknown;
  include?: unknown;
  exclude?: unknown;
  max_file_bytes?: unknown;
  hidden?: unknown;
}

export interface ResolveOptions {
  /** indexer.max_file_bytes, used when an entry sets none (0). */
  defaultMaxBytes: number;
  /** Relative paths resolve against this (the config file's directory, else the working directory). */
  baseDir: string;
  home: string;
}

function pathError(index: number, message: string): TroveError {
  const key = `indexer.directories[${index}].path`;
  return new TroveError('INVALID_CONFIG', `config ${key}: ${message}`, { key });
}

function expandPath(raw: string, opts: ResolveOptions): string {
  const home = raw === '~' || raw.startsWith('~/') ? join(opts.home, raw.slice(1)) : raw;
  return isAbsolute(home) ? resolve(home) : resolve(opts.baseDir, home);
}

function checkDirectory(index: number, path: string): void {
  let isDir: boolean;
  try {
    isDir = statSync(path).isDirectory();
  } catch {
    throw pathError(index, `no such directory: ${path}`);
  }
  if (!isDir) throw pathError(index, `not a directory: ${path}`);
}

export function isInside(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

export function fileUrl(path: string): string {
  return pathToFileURL(path).href.replace(/\/$/, '');
}

/** Resolves and validates the configured folders: each path must be an existing directory, listed once. */
export function resolveFolders(entries: readonly FolderEntry[], opts: ResolveOptions): FolderSpec[] {
  const folders = entries.map((e, index): FolderSpec => {
    const root = expandPath(String(e.path ?? ''), opts);
    checkDirectory(index, root);
    const include = (e.include as string[] | undefined) ?? [];
    const maxBytes = Number(e.max_file_bytes ?? 0);
    return {
      index,
      root,
      url: fileUrl(root),
      label: typeof e.label === 'string' && e.label !== '' ? e.label : null,
      include: include.length ? pathMatcher(include) : null,
      exclude: pathMatcher((e.exclude as string[] | undefined) ?? []),
      maxFileBytes: maxBytes > 0 ? maxBytes : opts.defaultMaxBytes,
      hidden: e.hidden === true,
      nested: [],
    };
  });
  for (const f of folders) {
    const twin = folders.find((o) => o.index < f.index && o.root === f.root);
    if (twin) throw pathError(f.index, `${f.root} is already indexer.directories[${twin.index}]`);
    f.nested = folders.filter((o) => o !== f && o.root !== f.root && isInside(o.root, f.root)).map((o) => o.root);
  }
  return folders;
}

/** The '/'-separated path of `abs` inside the folder ('' for the root). */
export function relativePath(folder: FolderSpec, abs: string): string {
  return relative(folder.root, abs).split(sep).join('/');
}

/** The path is inside the folder and not inside a nested configured folder. */
export function owns(folder: FolderSpec, abs: string): boolean {
  return isInside(abs, folder.root) && !folder.nested.some((n) => isInside(abs, n));
}

function hiddenName(name: string): boolean {
  return name.startsWith('.');
}

function lastSegment(rel: string): string {
  return rel.slice(rel.lastIndexOf('/') + 1);
}

/** A directory (relative path) whose whole subtree is left out. */
export function prunesDirectory(folder: FolderSpec, rel: string): boolean {
  if (rel === '') return false;
  if (!folder.hidden && hiddenName(lastSegment(rel))) return true;
  if (folder.exclude(rel, true)) return true;
  return folder.nested.includes(join(folder.root, rel));
}

/** No directory above `rel` (the root excluded) is pruned. */
export function ancestorsKept(folder: FolderSpec, rel: string): boolean {
  const parts = rel.split('/');
  for (let i = 1; i < parts.length; i++) if (prunesDirectory(folder, parts.slice(0, i).join('/'))) return false;
  return true;
}

/** A file (relative path, its directories already kept) that the folder indexes. */
export function selectsFile(folder: FolderSpec, rel: string): boolean {
  if (!folder.hidden && hiddenName(lastSegment(rel))) return false;
  if (!fileFormat(rel)) return false;
  if (folder.include && !folder.include(rel)) return false;
  return !folder.exclude(rel);
}

export interface FolderListing {
  /** Selected files, absolute, sorted. */
  files: string[];
  /** Directories that could not be read: what was indexed under them is kept, not removed. */
  unreadable: string[];
}

function readEntries(dir: string): Dirent[] {
  return readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Selected files under `dir` (itself kept); symbolic links are not followed, so reads stay inside the root. */
export function listFolder(folder: FolderSpec, dir: string): FolderListing {
  const out: FolderListing = { files: [], unreadable: [] };
  const walk = (d: string) => {
    let entries: Dirent[];
    try {
      entries = readEntries(d);
    } catch {
      out.unreadable.push(d);
      return;
    }
    for (const e of entries) {
      const abs = join(d, e.name);
      const rel = relativePath(folder, abs);
      if (e.isDirectory()) {
        if (!prunesDirectory(folder, rel)) walk(abs);
      } else if (e.isFile() && selectsFile(folder, rel)) {
        out.files.push(abs);
      }
    }
  };
  walk(dir);
  return out;
}

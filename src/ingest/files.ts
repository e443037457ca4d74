import { createHash } from 'node:crypto';
import { type BigIntStats, closeSync, fstatSync, openSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TroveError } from '../errors.js';
import { CODE_LANGUAGES } from './extract/code.js';

export type FileFormat = 'text' | 'markdown' | 'html' | 'code' | 'pdf';

const FORMATS: Record<string, FileFormat> = {
  '.txt': 'text',
  '.text': 'text',
  '.md': 'markdown',
  '.markdown': 'markdown',
  '.html': 'html',
  '.htm': 'html',
  '.pdf': 'pdf',
  ...Object.fromEntries(Object.keys(CODE_LANGUAGES).map((ext) => [ext, 'code' as const])),
};

const SUPPORTED = 'text (.txt), Markdown (.md), HTML (.html), PDF (.pdf) and source code (.ts, .py, .go, .rs, .java, .c, .json, .yaml, ...)';

export interface LocalFile {
  path: string;
  url: string;
  format: FileFormat;
  /** Lower-case extension with its dot, e.g. '.md'. */
  extension: string;
  /** The file as text; empty for a binary format (pdf), whose content is in `bytes`. */
  content: string;
  bytes?: Buffer;
  modifiedAt: number;
  /** What the file was when read, so read_source can tell whether it changed since. */
  identity: FileIdentity;
}

/** A file's identity and content hash at one read (metadata.file_identity of a local document). */
export interface FileIdentity {
  dev: string;
  ino: string;
  size: number;
  mtime_ns: string;
  /** Hex SHA-256 of the file's bytes. */
  sha256: string;
}

export function identityOf(st: BigIntStats, bytes: Buffer): FileIdentity {
  return { dev: String(st.dev), ino: String(st.ino), size: Number(st.size), mtime_ns: String(st.mtimeNs), sha256: createHash('sha256').update(bytes).digest('hex') };
}

/** The bytes and identity of a file from one open descriptor, so both describe the same file. */
export function readWithIdentity(path: string): { bytes: Buffer; identity: FileIdentity; stats: BigIntStats } {
  const fd = openSync(path, 'r');
  try {
    const stats = fstatSync(fd, { bigint: true });
    const bytes = readFileSync(fd);
    return { bytes, identity: identityOf(stats, bytes), stats };
  } finally {
    closeSync(fd);
  }
}

export function fileFormat(path: string): FileFormat | undefined {
  return FORMATS[extname(path).toLowerCase()];
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/** Reads a supported text file, refusing missing, oversized, binary and non-UTF-8 files with a code. */
export function readLocalFile(path: string, maxBytes: number): LocalFile {
  const abs = resolve(path);
  let st;
  try {
    st = statSync(abs);
  } catch {
    throw new TroveError('FILE_NOT_FOUND', `no such file: ${path}`, { path });
  }
  if (!st.isFile()) throw new TroveError('UNSUPPORTED_TYPE', `not a regular file: ${path}`, { path });
  const format = fileFormat(abs);
  if (!format) throw new TroveError('UNSUPPORTED_TYPE', `unsupported file type ${extname(abs) || '(none)'}: ${path}; supported: ${SUPPORTED}`, { path });
  if (st.size > maxBytes) throw new TroveError('TOO_LARGE', `${path} is ${st.size} bytes; the limit is ${maxBytes} (indexer.max_file_bytes)`, { path, size: st.size, limit: maxBytes });
  const { bytes, identity } = readWithIdentity(abs);
  const base = { path: abs, url: pathToFileURL(abs).href, format, extension: extname(abs).toLowerCase(), modifiedAt: Math.trunc(st.mtimeMs), identity };
  if (format === 'pdf') return { ...base, content: '', bytes };
  if (bytes.includes(0)) throw new TroveError('UNSUPPORTED_TYPE', `${path} looks binary (it contains NUL bytes)`, { path });
  let content: string;
  try {
    content = decoder.decode(bytes);
  } catch {
    throw new TroveError('UNSUPPORTED_TYPE', `${path} is not valid UTF-8 text`, { path });
  }
  return { ...base, content };
}

/** Supported files under a directory, hidden entries skipped, sorted for a stable order. */
export function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    let entries;
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (e.name.startsWith('.')) continue;
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && fileFormat(p)) out.push(p);
    }
  };
  walk(resolve(dir));
  return out;
}

export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

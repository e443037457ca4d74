// Resident memory of `trove serve` answering searches, next to a bare Node process running the same queries on
// raw FTS5 over the same file (the limit), and store bytes per 1k documents next to the text they hold.
import { spawn } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export interface Footprint {
  documents: number;
  chunks: number;
  /** Peak and final resident set of the server process, MiB. */
  trove_rss_mib: { peak: number; final: number };
  raw_rss_mib: { peak: number; final: number };
  ratio_peak: number;
  store_bytes: number;
  store_bytes_per_1k_docs: number;
  text_bytes_per_1k_docs: number;
}

const mib = (kb: number) => Number((kb / 1024).toFixed(1));

function memoryOf(pid: number): { peak: number; final: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
  return { peak: mib(kb('VmHWM')), final: mib(kb('VmRSS')) };
}

function fileBytes(path: string): number {
  let total = 0;
  for (const suffix of ['', '-wal']) {
    try {
      total += statSync(path + suffix).size;
    } catch {
      // no WAL file after a clean close
    }
  }
  return total;
}

/** Starts `trove serve` on the store, runs the queries over GET /api/search, and reads its memory before it stops. */
async function troveServe(bin: string, dataDir: string, queries: string[]): Promise<{ peak: number; final: number }> {
  const child = spawn(process.execPath, [bin, 'serve', '--address', '127.0.0.1:0'], {
    stdio: ['ignore', 'pipe', 'ignore'],
    env: { ...process.env, TROVE_DATA_DIR: dataDir, XDG_CONFIG_HOME: dataDir, TROVE_LOG_LEVEL: 'error' },
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /listening on (\S+)/.exec(out);
        if (m) resolve(m[1]!);
      });
      child.once('exit', (code) => reject(new Error(`trove serve exited (${code}) before listening`)));
    });
    for (const q of queries) {
      const res = await fetch(`${url}/api/search?q=${encodeURIComponent(q)}&limit=10`);
      if (!res.ok) throw new Error(`search failed: ${res.status}`);
      await res.arrayBuffer();
    }
    return memoryOf(child.pid!);
  } finally {
    child.kill('SIGTERM');
  }
}

const RAW_SCRIPT = `
const Database = require('better-sqlite3');
const db = new Database(process.argv[1], { readonly: true });
db.pragma('cache_size = -32768');
const q = db.prepare('SELECT rowid, bm25(chunk_fts) AS s FROM chunk_fts WHERE chunk_fts MATCH ? ORDER BY s LIMIT 10');
for (const line of JSON.parse(process.argv[2])) q.all(line.split(' ').map((w) => '"' + w + '"').join(' OR '));
process.stdout.write(require('fs').readFileSync('/proc/self/status', 'utf8'));
`;

/** The same queries on raw FTS5 in a bare Node process (better-sqlite3 alone). */
function rawProcess(root: string, dbPath: string, queries: string[]): Promise<{ peak: number; final: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', RAW_SCRIPT, dbPath, JSON.stringify(queries)], { cwd: join(root, '..'), stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`raw FTS5 process failed (${code})`));
      const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(out)?.[1] ?? 0);
      resolve({ peak: mib(kb('VmHWM')), final: mib(kb('VmRSS')) });
    });
  });
}

export async function measureFootprint(opts: { root: string; dataDir: string; documents: number; chunks: number; textBytes: number; queries: string[] }): Promise<Footprint> {
  const bin = join(opts.root, '..', 'bin', 'trove.js');
  const dbPath = join(opts.dataDir, 'trove.db');
  const store = fileBytes(dbPath);
  const trove = await troveServe(bin, opts.dataDir, opts.queries);
  const raw = await rawProcess(opts.root, dbPath, opts.queries);
  return {
    documents: opts.documents,
    chunks: opts.chunks,
    trove_rss_mib: trove,
    raw_rss_mib: raw,
    ratio_peak: Number((trove.peak / raw.peak).toFixed(2)),
    store_bytes: store,
    store_bytes_per_1k_docs: Math.round((store / opts.documents) * 1000),
    text_bytes_per_1k_docs: Math.round((opts.textBytes / opts.documents) * 1000),
  };
}

export function footprintMarkdown(rows: Footprint[]): string {
  const lines = [
    'Resident memory of `trove serve` after the benchmark queries over GET /api/search, next to a bare Node process running them on raw FTS5 (better-sqlite3 alone), and the store file per 1k documents next to the text it holds:',
    '',
    '| documents | chunks | trove RSS peak / final MiB | raw FTS5 process peak / final MiB | ratio (peak) | store MiB | store KiB per 1k docs | text KiB per 1k docs |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows) {
    lines.push(`| ${r.documents} | ${r.chunks} | ${r.trove_rss_mib.peak} / ${r.trove_rss_mib.final} | ${r.raw_rss_mib.peak} / ${r.raw_rss_mib.final} | ${r.ratio_peak}x | ${(r.store_bytes / 2 ** 20).toFixed(1)} | ${Math.round(r.store_bytes_per_1k_docs / 1024)} | ${Math.round(r.text_bytes_per_1k_docs / 1024)} |`);
  }
  return lines.join('\n');
}

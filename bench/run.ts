// `npm run bench [-- --quick]`: keyword search latency of trove next to the same query on raw FTS5 over the same database.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { type App, createApp } from '../src/app.js';
import { loadConfig } from '../src/config/load.js';
import { createLogger } from '../src/log.js';
import { ADD_BATCH, type ContentInput, addContents } from '../src/service/documents.js';
import { startServer } from '../src/http/server.js';
import { OWNER, authorize } from '../src/service/access.js';
import { retain } from '../src/service/memory.js';
import { searchDocuments } from '../src/service/search.js';
import { SCHEMA_VERSION } from '../src/store/sqlite/migrations.js';
import { type DocumentWrite, MAX_CHUNKS } from '../src/store/types.js';
import { chunkText } from '../src/engine/chunk.js';
import type { SqliteStore } from '../src/store/sqlite/store.js';
import type Database from 'better-sqlite3';
import { coldStartMarkdown, runColdStartBench } from './cold-start.js';
import { makeCorpus, rng } from './corpus.js';
import { makeMemorySet } from './memory-data.js';
import { entitiesMarkdown, runEntitiesBench } from './entities.js';
import { extractionMarkdown, runExtractionBench } from './extraction.js';
import { type Footprint, footprintMarkdown, measureFootprint } from './footprint.js';
import { type McpRate, mcpMarkdown, runMcpBench } from './mcp.js';
import { memoryMarkdown, runMemoryBench } from './memory.js';
import { runSciFactBench, sciFactMarkdown } from './scifact.js';

const quick = process.argv.includes('--quick');
/** Documents of the largest level: the generated documents average about 1.77 passages, so about a million chunks. */
const LARGE = Number(process.env.TROVE_BENCH_LARGE_DOCS ?? 570_000);
const sizes = quick ? [10_000] : [10_000, 100_000, LARGE];
/** Levels above this are built with bulk store writes (see bulkFill); the ones below through the ingest service. */
const SERVICE_INGEST_MAX = 100_000;
const QUERIES = quick ? 150 : 300;
const ROUNDS = quick ? 2 : 3;
const SEED = 20261130;
const root = new URL('.', import.meta.url).pathname;

interface Row {
  documents: number;
  chunks: number;
  queries_needing_fill: number;
  ingest_docs_per_s: number | null;
  /** Built with bulk store writes (bulkFill), not the ingest service. */
  ingest_bulk: boolean;
  trove_ms: Stats;
  raw_fts5_ms: Stats;
  raw_fts5_and_only_ms: Stats;
  ratio_p50: number;
  ratio_p95: number;
  ratio_p50_vs_and_only: number;
  /** The same query as one MCP tools/call over HTTP (one client, keep-alive), end to end. */
  mcp_http_ms: Stats;
  ratio_mcp_p50: number;
}

interface Stats {
  p50: number;
  p95: number;
  p99: number;
}

function stats(xs: number[]): Stats {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number) => Number(s[Math.min(s.length - 1, Math.floor(q * s.length))]!.toFixed(3));
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99) };
}

function openApp(dir: string): App {
  return createApp(loadConfig({ dataDir: dir, env: { XDG_CONFIG_HOME: dir } }), createLogger('warn'));
}

const storeDir = (size: number) => join(root, '.cache', `keyword-${size}-s${SEED}-v${SCHEMA_VERSION}-c2`);

async function build(size: number): Promise<{ app: App; rate: number | null; bulk?: boolean }> {
  const dir = storeDir(size);
  if (existsSync(join(dir, 'complete'))) return { app: openApp(dir), rate: null };
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const app = openApp(dir);
  const corpus = makeCorpus(SEED);
  const started = performance.now();
  if (size > SERVICE_INGEST_MAX) {
    await bulkFill(app, corpus.docs(size), size);
    writeFileSync(join(dir, 'complete'), '');
    return { app, rate: size / ((performance.now() - started) / 1000), bulk: true };
  }
  let batch: ContentInput[] = [];
  let n = 0;
  for (const doc of corpus.docs(size)) {
    batch.push({ url: doc.url, title: doc.title, text: doc.text, source: 'bench', capturedAt: doc.capturedAt });
    if (batch.length === ADD_BATCH) {
      await addContents(app, batch);
      batch = [];
    }
    if (++n % 10_000 === 0) process.stderr.write(`  ingested ${n}/${size}\n`);
  }
  if (batch.length) await addContents(app, batch);
  const rate = size / ((performance.now() - started) / 1000);
  writeFileSync(join(dir, 'complete'), '');
  return { app, rate };
}

/**
 * The million-passage store: the same generated documents, chunked as ingest does, written with the store's own
 * writeDocuments in batches of 512 (entities and the keyword index as always), without the per-input work of
 * the ingest service (redaction, language detection, the extraction pool), which would take some 18 minutes.
 */
async function bulkFill(app: App, docs: Iterable<{ url: string; title: string; text: string; capturedAt: number }>, size: number): Promise<void> {
  let batch: DocumentWrite[] = [];
  let n = 0;
  for (const doc of docs) {
    batch.push({
      kind: 'web', url: doc.url, title: doc.title, domain: new URL(doc.url).hostname, language: 'en', label: null, source: 'bench',
      metadata: {}, text: doc.text, html: null, rawHtml: null, sha256: createHash('sha256').update(doc.text).digest('hex'), capturedAt: doc.capturedAt,
      chunks: chunkText(doc.text, { size: app.config.indexer.chunk_chars, maxChunks: MAX_CHUNKS }),
    });
    if (batch.length === 512) {
      await app.store.writeDocuments(batch);
      batch = [];
    }
    if (++n % 50_000 === 0) process.stderr.write(`  written ${n}/${size}\n`);
  }
  if (batch.length) await app.store.writeDocuments(batch);
}

/**
 * Known-item queries, as a person searches what they read: one to three words taken from one stored document's
 * title or text, skipping the 100 most frequent words (stop-word-like).
 */
function makeQueries(db: Database.Database, words: string[], size: number): string[] {
  const rand = rng(SEED + 1);
  const common = new Set(words.slice(0, 100));
  const text = db.prepare('SELECT title, text FROM documents d JOIN versions v ON v.id = d.current_version_id WHERE d.seq = ?');
  const out: string[] = [];
  while (out.length < QUERIES) {
    const row = text.get(1 + Math.floor(rand() * size)) as { title: string; text: string } | undefined;
    if (!row) continue;
    const pool = `${row.title} ${row.text.slice(0, 4000)}`.split(/[^a-z]+/).filter((w) => w && !common.has(w));
    if (pool.length === 0) continue;
    const n = 1 + Math.floor(rand() * 3);
    out.push(Array.from({ length: n }, () => pool[Math.floor(rand() * pool.length)]).join(' '));
  }
  return out;
}

async function measure(size: number): Promise<Row> {
  process.stderr.write(`keyword search at ${size} documents\n`);
  const { app, rate, bulk } = await build(size);
  const db = (app.store as SqliteStore).database;
  const raw = db.prepare('SELECT rowid, bm25(chunk_fts) AS s FROM chunk_fts WHERE chunk_fts MATCH ? ORDER BY s LIMIT 10');
  const queries = makeQueries(db, makeCorpus(SEED).words, size);
  const quoted = (q: string) => q.split(' ').map((w) => `"${w}"`);
  // The same retrieval done with plain FTS5: every word, then any word when that finds fewer than 10.
  const rawSame = (q: string) => {
    const all = raw.all(quoted(q).join(' AND '));
    return all.length < 10 && q.includes(' ') ? [...all, ...raw.all(quoted(q).join(' OR '))] : all;
  };
  const rawAnd = (q: string) => raw.all(quoted(q).join(' AND '));
  const trove: number[] = [];
  const sameTimes: number[] = [];
  const andTimes: number[] = [];
  let filled = 0;
  for (const q of queries) {
    await searchDocuments(app, { query: q, limit: 10 });
    rawSame(q);
    if (raw.all(quoted(q).join(' AND ')).length < 10 && q.includes(' ')) filled++;
  }
  const time = (f: () => unknown, into: number[]) => {
    const t = performance.now();
    f();
    into.push(performance.now() - t);
  };
  for (let round = 0; round < ROUNDS; round++) {
    for (const q of queries) {
      time(() => rawSame(q), sameTimes);
      time(() => rawAnd(q), andTimes);
      const t = performance.now();
      await searchDocuments(app, { query: q, limit: 10 });
      trove.push(performance.now() - t);
    }
  }
  const mcpTimes = await timeMcpSearch(app, queries);
  const chunks = db.prepare('SELECT count(*) FROM chunks').pluck().get() as number;
  const textBytes = db.prepare('SELECT sum(length(CAST(text AS BLOB))) FROM versions').pluck().get() as number;
  await app.close();
  footprints.push(await measureFootprint({ root, dataDir: storeDir(size), documents: size, chunks, textBytes, queries }));
  const t = stats(trove);
  const r = stats(sameTimes);
  const a = stats(andTimes);
  return {
    documents: size,
    chunks,
    queries_needing_fill: filled,
    ingest_docs_per_s: rate === null ? null : Math.round(rate),
    ingest_bulk: bulk === true,
    trove_ms: t,
    raw_fts5_ms: r,
    raw_fts5_and_only_ms: a,
    ratio_p50: Number((t.p50 / r.p50).toFixed(2)),
    ratio_p95: Number((t.p95 / r.p95).toFixed(2)),
    ratio_p50_vs_and_only: Number((t.p50 / a.p50).toFixed(2)),
    mcp_http_ms: stats(mcpTimes),
    ratio_mcp_p50: Number((stats(mcpTimes).p50 / r.p50).toFixed(2)),
  };
}

/** Each query once as a legacy-era MCP tools/call over HTTP on 127.0.0.1: the end-to-end latency a client sees. */
async function timeMcpSearch(app: App, queries: string[]): Promise<number[]> {
  const server = await startServer(app, { host: '127.0.0.1', port: 0 });
  const times: number[] = [];
  try {
    for (const [i, q] of queries.entries()) {
      const body = JSON.stringify({ jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: { name: 'search', arguments: { query: q, limit: 10 } } });
      const t = performance.now();
      const res = await fetch(`${server.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body });
      const text = await res.text();
      if (i >= 10) times.push(performance.now() - t);
      if (!res.ok || text.includes('"isError":true')) throw new Error(`MCP search failed: ${res.status} ${text.slice(0, 200)}`);
    }
  } finally {
    await server.close();
  }
  return times;
}

function table(rows: Row[]): string {
  const lines = [
    '| documents | chunks | trove p50 / p95 / p99 ms | raw FTS5, same retrieval | ratio p50 | ratio p95 | raw FTS5, AND only | ratio p50 vs AND only | MCP HTTP call p50 / p95 / p99 ms | MCP ratio p50 | queries filled | ingest docs/s |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows) {
    const f = (s: Stats) => `${s.p50} / ${s.p95} / ${s.p99}`;
    lines.push(
      `| ${r.documents} | ${r.chunks} | ${f(r.trove_ms)} | ${f(r.raw_fts5_ms)} | ${r.ratio_p50}x | ${r.ratio_p95}x | ${f(r.raw_fts5_and_only_ms)} | ${r.ratio_p50_vs_and_only}x | ${f(r.mcp_http_ms)} | ${r.ratio_mcp_p50}x | ${r.queries_needing_fill}/${QUERIES} | ${r.ingest_docs_per_s === null ? '(cached)' : `${r.ingest_docs_per_s}${r.ingest_bulk ? ' (bulk)' : ''}`} |`,
    );
  }
  return lines.join('\n');
}

/** MCP HTTP calls/s on the 10k-document store: search with the benchmark's queries, get_preview of stored pages. */
async function measureMcp(): Promise<McpRate[]> {
  process.stderr.write('MCP over HTTP, 16 concurrent clients\n');
  const { app } = await build(10_000);
  const db = (app.store as SqliteStore).database;
  const queries = makeQueries(db, makeCorpus(SEED).words, 10_000);
  const urls = db.prepare('SELECT url FROM documents ORDER BY seq LIMIT 200').pluck().all() as string[];
  try {
    return await runMcpBench(app, [
      { tool: 'search', args: (i) => ({ query: queries[i % queries.length]!, limit: 10 }) },
      { tool: 'get_preview', args: (i) => ({ url: urls[i % urls.length]! }) },
    ], quick);
  } finally {
    await app.close();
  }
}

/** recall over MCP HTTP on a store of its own: the memory benchmark's facts in the default bank, its questions as queries. */
async function measureMcpRecall(): Promise<McpRate[]> {
  process.stderr.write('MCP recall over HTTP, 16 concurrent clients\n');
  const dir = mkdtempSync(join(tmpdir(), 'trove-bench-recall-'));
  const app = openApp(dir);
  try {
    const set = makeMemorySet();
    const grant = authorize(OWNER, 'memory.write');
    for (const f of set.facts) await retain(app, { bank: app.config.mcp.default_bank, content: f.content, context: f.context, source: 'mcp:bench', grant });
    const questions = set.questions.map((q) => q.text);
    // Its ratio is to the no-op measured on the first server (same configuration, another store).
    return await runMcpBench(app, [{ tool: 'recall', args: (i) => ({ query: questions[i % questions.length]!, max_results: 5 }) }], quick, { noop: false });
  } finally {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const rows: Row[] = [];
const footprints: Footprint[] = [];
for (const size of sizes) rows.push(await measure(size));
const mcp = [...(await measureMcp()), ...(await measureMcpRecall())];
const machine = { cpus: cpus().length, cpu: cpus()[0]?.model ?? 'unknown', memory_gib: Math.round(totalmem() / 2 ** 30), node: process.version };
const extraction = await runExtractionBench({ quick, cores: machine.cpus });
const coldStart = await runColdStartBench({ quick, root });
const sciFact = await runSciFactBench({ quick, root });
const memory = await runMemoryBench({ quick });
const entities = await runEntitiesBench({ quick });
const result = { date: new Date().toISOString(), quick, machine, queries: QUERIES, rounds: ROUNDS, keyword: rows, footprint: footprints, mcp, extraction, cold_start: coldStart, scifact: sciFact, memory, entities };
mkdirSync(join(root, 'results'), { recursive: true });
writeFileSync(join(root, 'results', 'latest.json'), `${JSON.stringify(result, null, 2)}\n`);
const md = `Keyword search, ${QUERIES} queries x ${ROUNDS} rounds, limit 10 (${machine.cpus} cores, ${machine.cpu}, Node ${machine.node}):\n\n${table(rows)}\n\n${footprintMarkdown(footprints)}\n\n${mcpMarkdown(mcp)}\n\n${extractionMarkdown(extraction)}\n\n${coldStartMarkdown(coldStart)}\n\n${sciFactMarkdown(sciFact)}\n${memoryMarkdown(memory)}\n${entitiesMarkdown(entities)}`;
writeFileSync(join(root, 'results', 'latest.md'), md);
process.stdout.write(md);

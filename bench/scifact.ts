// Ranking quality on BEIR SciFact training claims (../shared/data/scifact): trove's recall ranking through the
// real engine (a SQLite store written by addContents, rankChunks as recall calls it), the `search` tool's query
// language, plain FTS5 BM25, MiniSearch and Orama with defaults, and hybrid when an embeddings endpoint is configured
// (TROVE_SEMANTIC_ENABLED=true TROVE_SEMANTIC_BASE_URL=... TROVE_SEMANTIC_MODEL=...), all on the same corpus and claims.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { create, insertMultiple, search as oramaSearch } from '@orama/orama';
import Database from 'better-sqlite3';
import MiniSearch from 'minisearch';
import { type App, createApp } from '../src/app.js';
import { loadConfig } from '../src/config/load.js';
import { terms } from '../src/engine/text/tokenize.js';
import { TroveError } from '../src/errors.js';
import { createLogger } from '../src/log.js';
import { ADD_BATCH, addContents } from '../src/service/documents.js';
import { rankChunks } from '../src/service/keyword.js';
import { rankedChunks } from '../src/service/memory.js';
import { searchDocuments } from '../src/service/search.js';
import { ALL_OWNERS, type ChunkFilter, type ChunkHit } from '../src/store/types.js';
import { SCHEMA_VERSION } from '../src/store/sqlite/migrations.js';
import { fixed, mean, ndcgAt, quantile, recallAt } from './metrics.js';
import { type Claim, docUrl, loadSciFact, type SciDoc } from './scifact-data.js';

/** Claims in --quick mode: the first ones of the training file. */
export const QUICK_CLAIMS = 150;

export interface QualityRow {
  engine: string;
  ndcg_at_10: number;
  /** null where the engine cannot return 100 results (the search tool's limit is 50). */
  recall_at_100: number | null;
  p50_ms: number;
  p95_ms: number;
}

export interface SciFactReport {
  documents: number;
  claims: number;
  claims_in_file: number;
  rows: QualityRow[];
  /** Why the hybrid row is missing. */
  hybrid_skipped?: string;
}

type Ranker = (claim: string) => Promise<string[]> | string[];

const ALL: ChunkFilter = { scope: ALL_OWNERS, bankId: null };

async function measure(engine: string, claims: Claim[], rank: Ranker, depth = 100): Promise<QualityRow> {
  for (const c of claims.slice(0, 10)) await rank(c.text); // warm-up
  const ndcg: number[] = [];
  const recall: number[] = [];
  const ms: number[] = [];
  for (const c of claims) {
    const started = performance.now();
    const ranked = await rank(c.text);
    ms.push(performance.now() - started);
    ndcg.push(ndcgAt(10, ranked, c.judged));
    recall.push(recallAt(100, ranked, c.judged));
  }
  return { engine, ndcg_at_10: fixed(mean(ndcg)), recall_at_100: depth >= 100 ? fixed(mean(recall)) : null, p50_ms: fixed(quantile(ms, 0.5), 2), p95_ms: fixed(quantile(ms, 0.95), 2) };
}

/** Document ids in order of their best passage. */
function documentsOf(hits: readonly ChunkHit[], limit: number): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const h of hits) {
    const id = h.url.slice(h.url.lastIndexOf('/') + 1);
    if (seen.has(id)) continue;
    seen.add(id);
    out.push(id);
    if (out.length === limit) break;
  }
  return out;
}

function semanticEnv(): Record<string, string> {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('TROVE_SEMANTIC_'))) as Record<string, string>;
}

/** The corpus in a trove store (cached under bench/.cache per schema version; rebuilt when semantic settings are given). */
async function troveStore(root: string, docs: SciDoc[]): Promise<App> {
  const semantic = semanticEnv();
  const dir = join(root, '.cache', `scifact-v${SCHEMA_VERSION}${Object.keys(semantic).length ? '-semantic' : ''}`);
  const open = () => createApp(loadConfig({ dataDir: dir, env: { ...semantic, XDG_CONFIG_HOME: dir } }), createLogger('warn'));
  if (existsSync(join(dir, 'complete'))) return open();
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const app = open();
  for (let i = 0; i < docs.length; i += ADD_BATCH) {
    await addContents(app, docs.slice(i, i + ADD_BATCH).map((d) => ({ url: docUrl(d.id), title: d.title, text: d.text, source: 'bench' })));
  }
  writeFileSync(join(dir, 'complete'), '');
  return app;
}

/** Plain SQLite FTS5: title and text, porter over unicode61, every word of the claim OR-ed, bm25() order. */
function fts5Ranker(docs: SciDoc[]): { rank: Ranker; close: () => void } {
  const db = new Database(':memory:');
  db.exec("CREATE VIRTUAL TABLE docs USING fts5(id UNINDEXED, title, text, tokenize = 'porter unicode61')");
  const insert = db.prepare('INSERT INTO docs (id, title, text) VALUES (?, ?, ?)');
  db.transaction(() => {
    for (const d of docs) insert.run(d.id, d.title, d.text);
  })();
  const query = db.prepare('SELECT id FROM docs WHERE docs MATCH ? ORDER BY bm25(docs) LIMIT 100').pluck();
  const rank = (claim: string) => {
    const words = [...new Set(terms(claim))].map((w) => `"${w}"`);
    return words.length ? (query.all(words.join(' OR ')) as string[]) : [];
  };
  return { rank, close: () => db.close() };
}

function miniSearchRanker(docs: SciDoc[]): Ranker {
  const index = new MiniSearch<SciDoc>({ fields: ['title', 'text'] });
  index.addAll(docs);
  return (claim) => index.search(claim).slice(0, 100).map((r) => String(r.id));
}

async function oramaRanker(docs: SciDoc[]): Promise<Ranker> {
  const db = create({ schema: { title: 'string', text: 'string' } as const });
  await insertMultiple(db, docs.map((d) => ({ id: d.id, title: d.title, text: d.text })));
  return async (claim) => (await oramaSearch(db, { term: claim, limit: 100 })).hits.map((h) => h.id);
}

/** The `search` tool on the raw claim: AND of every word, then partial matches; a claim its syntax rejects finds nothing. */
async function searchToolRow(app: App, claims: Claim[]): Promise<QualityRow> {
  const rejected = new Set<string>();
  const row = await measure('trove search tool, query language', claims, async (c) => {
    try {
      return (await searchDocuments(app, { query: c, limit: 50 })).results.map((r) => r.url.slice(r.url.lastIndexOf('/') + 1));
    } catch (err) {
      if (!(err instanceof TroveError) || err.code !== 'INVALID_QUERY') throw err;
      rejected.add(c);
      return [];
    }
  }, 50);
  return { ...row, engine: `${row.engine} (limit 50; ${rejected.size} claims rejected as invalid syntax)` };
}

/** Hybrid ranking once every passage is embedded; undefined with the reason when no endpoint is configured. */
async function hybridRow(app: App, claims: Claim[]): Promise<QualityRow | string> {
  if (!app.embeddings || !app.embedder) return 'no embeddings endpoint configured (set TROVE_SEMANTIC_ENABLED, TROVE_SEMANTIC_BASE_URL, TROVE_SEMANTIC_MODEL)';
  process.stderr.write('  embedding the corpus\n');
  await app.embedder.drain();
  return measure('trove hybrid (recall ranking + vectors, RRF)', claims, async (c) => documentsOf((await rankedChunks(app, c, ALL, 200)).hits, 100));
}

export async function runSciFactBench(opts: { quick: boolean; root: string }): Promise<SciFactReport | { skipped: string }> {
  const data = loadSciFact();
  if (!data) return { skipped: 'data set absent: ../shared/data/scifact' };
  process.stderr.write('SciFact training claims\n');
  const claims = opts.quick ? data.claims.slice(0, QUICK_CLAIMS) : data.claims;
  const app = await troveStore(opts.root, data.docs);
  const rows: QualityRow[] = [];
  let hybridSkipped: string | undefined;
  try {
    rows.push(await measure('trove keyword, recall ranking (rankChunks)', claims, async (c) => documentsOf(await rankChunks(app, c, ALL, 200), 100)));
    rows.push(await searchToolRow(app, claims));
    const hybrid = await hybridRow(app, claims);
    if (typeof hybrid === 'string') hybridSkipped = hybrid;
    else rows.push(hybrid);
  } finally {
    await app.close();
  }
  const fts = fts5Ranker(data.docs);
  rows.push(await measure('SQLite FTS5 bm25, porter, OR-ed words', claims, fts.rank));
  fts.close();
  // The npm engines take 20-80 ms a claim plus seconds to index: full runs only.
  if (!opts.quick) {
    rows.push(await measure('MiniSearch 7, defaults', claims, miniSearchRanker(data.docs)));
    rows.push(await measure('Orama 3, defaults', claims, await oramaRanker(data.docs)));
  }
  return { documents: data.docs.length, claims: claims.length, claims_in_file: data.claims.length, rows, ...(hybridSkipped ? { hybrid_skipped: hybridSkipped } : {}) };
}

export function sciFactMarkdown(r: SciFactReport | { skipped: string }): string {
  if ('skipped' in r) return `SciFact skipped: ${r.skipped}.\n`;
  const subset = r.claims < r.claims_in_file ? ` (--quick: the first ${r.claims} of ${r.claims_in_file}; MiniSearch and Orama in full runs only)` : '';
  const lines = [
    `SciFact, ${r.documents} abstracts, ${r.claims} training claims${subset}:`,
    '',
    '| engine | nDCG@10 | Recall@100 | p50 ms | p95 ms |',
    '|---|---:|---:|---:|---:|',
    ...r.rows.map((x) => `| ${x.engine} | ${x.ndcg_at_10} | ${x.recall_at_100 ?? 'n/a'} | ${x.p50_ms} | ${x.p95_ms} |`),
  ];
  if (r.hybrid_skipped) lines.push('', `Hybrid: ${r.hybrid_skipped}.`);
  return `${lines.join('\n')}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const report = await runSciFactBench({ quick: process.argv.includes('--quick'), root: new URL('.', import.meta.url).pathname });
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n${sciFactMarkdown(report)}`);
}

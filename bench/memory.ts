// Memory: retain the generated conversational facts (bench/memory-data.ts) through the retain service into a fresh
// store, then ask every question through recall; retain throughput, recall latency and recall@5, next to plain
// FTS5 over the same facts. With an embeddings endpoint configured (TROVE_SEMANTIC_*) recall ranks hybrid.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { type App, createApp } from '../src/app.js';
import { loadConfig } from '../src/config/load.js';
import { terms } from '../src/engine/text/tokenize.js';
import { createLogger } from '../src/log.js';
import { OWNER, authorize } from '../src/service/access.js';
import { findBank } from '../src/service/banks.js';
import { rankChunks } from '../src/service/keyword.js';
import { recall, retain } from '../src/service/memory.js';
import { type Fact, makeMemorySet, type Question } from './memory-data.js';
import { fixed, mean, quantile, recallAt } from './metrics.js';

const BANK = 'bench';
const K = 5;

export interface RecallRow {
  engine: string;
  recall_at_5: number;
  /** Reciprocal rank of the first answer within the first 5, averaged. */
  mrr_at_5: number;
  /** recall@5 by how the question relates to its fact. */
  by_overlap: Record<Question['overlap'], number>;
  p50_ms: number;
  p95_ms: number;
}

export interface MemoryReport {
  facts: number;
  questions: number;
  retain_per_s: number;
  retain_p50_ms: number;
  /** keyword, or hybrid when an embeddings endpoint ranked too. */
  recall_mode: string;
  rows: RecallRow[];
}

type Ranker = (question: string) => Promise<string[]> | string[];

async function measure(engine: string, questions: Question[], rank: Ranker): Promise<RecallRow> {
  for (const q of questions.slice(0, 10)) await rank(q.text);
  const ms: number[] = [];
  const hits: number[] = [];
  const rr: number[] = [];
  const by: Record<Question['overlap'], number[]> = { entity: [], words: [], none: [] };
  for (const q of questions) {
    const started = performance.now();
    const ranked = (await rank(q.text)).slice(0, K);
    ms.push(performance.now() - started);
    const judged = new Map(q.answers.map((a) => [a, 1]));
    const r = recallAt(K, ranked, judged);
    hits.push(r);
    by[q.overlap].push(r);
    const first = ranked.findIndex((id) => judged.has(id));
    rr.push(first < 0 ? 0 : 1 / (first + 1));
  }
  const byOverlap = Object.fromEntries(Object.entries(by).map(([k, v]) => [k, fixed(mean(v))])) as Record<Question['overlap'], number>;
  return { engine, recall_at_5: fixed(mean(hits)), mrr_at_5: fixed(mean(rr)), by_overlap: byOverlap, p50_ms: fixed(quantile(ms, 0.5), 2), p95_ms: fixed(quantile(ms, 0.95), 2) };
}

/** Plain SQLite FTS5 over the facts: porter over unicode61, every word of the question OR-ed, bm25() order. */
function fts5Ranker(facts: Fact[]): { rank: Ranker; close: () => void } {
  const db = new Database(':memory:');
  db.exec("CREATE VIRTUAL TABLE facts USING fts5(id UNINDEXED, content, tokenize = 'porter unicode61')");
  const insert = db.prepare('INSERT INTO facts (id, content) VALUES (?, ?)');
  db.transaction(() => {
    for (const f of facts) insert.run(f.id, f.content);
  })();
  const query = db.prepare(`SELECT id FROM facts WHERE facts MATCH ? ORDER BY bm25(facts) LIMIT ${K}`).pluck();
  const rank = (question: string) => {
    const words = [...new Set(terms(question))].map((w) => `"${w}"`);
    return words.length ? (query.all(words.join(' OR ')) as string[]) : [];
  };
  return { rank, close: () => db.close() };
}

function semanticEnv(): Record<string, string> {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('TROVE_SEMANTIC_'))) as Record<string, string>;
}

export async function runMemoryBench(opts: { quick: boolean }): Promise<MemoryReport> {
  process.stderr.write('memory: retain and recall\n');
  const set = makeMemorySet();
  const dir = mkdtempSync(join(tmpdir(), 'trove-bench-memory-'));
  const app: App = createApp(loadConfig({ dataDir: dir, env: { ...semanticEnv(), XDG_CONFIG_HOME: dir } }), createLogger('warn'));
  const grant = authorize(OWNER, 'memory.write');
  try {
    const factOf = new Map<string, string>();
    const retainMs: number[] = [];
    const started = performance.now();
    for (const f of set.facts) {
      const t = performance.now();
      const r = await retain(app, { bank: BANK, content: f.content, context: f.context, source: 'mcp:bench', grant });
      retainMs.push(performance.now() - t);
      factOf.set(r.id, f.id);
    }
    const retainPerS = set.facts.length / ((performance.now() - started) / 1000);
    if (app.embedder) await app.embedder.drain();
    const questions = opts.quick ? set.questions.filter((_, i) => i % 2 === 0) : set.questions;
    let mode = 'keyword';
    const viaRecall = await measure('trove recall (service)', questions, async (q) => {
      const r = await recall(app, { bank: BANK, query: q, maxResults: K, grant });
      mode = r.mode;
      return r.results.map((m) => factOf.get(m.id) ?? m.id);
    });
    const bank = await findBank(app, grant, BANK);
    const filter = { scope: grant.scope, bankId: bank?.id ?? null, kinds: ['memory' as const] };
    const byChunks = await measure('trove keyword ranking (rankChunks)', questions, async (q) => (await rankChunks(app, q, filter, K)).map((h) => factOf.get(h.documentId) ?? h.documentId));
    const fts = fts5Ranker(set.facts);
    const raw = await measure('SQLite FTS5 bm25, porter, OR-ed words', questions, fts.rank);
    fts.close();
    return {
      facts: set.facts.length, questions: questions.length, retain_per_s: Math.round(retainPerS), retain_p50_ms: fixed(quantile(retainMs, 0.5), 2),
      recall_mode: mode, rows: [viaRecall, byChunks, raw],
    };
  } finally {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export function memoryMarkdown(r: MemoryReport): string {
  return [
    `Memory: ${r.facts} generated facts retained one by one (${r.retain_per_s} facts/s, p50 ${r.retain_p50_ms} ms), ${r.questions} questions asked in other words, recall mode ${r.recall_mode}:`,
    '',
    '| engine | recall@5 | MRR@5 | names shared | words shared | nothing shared | p50 ms | p95 ms |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...r.rows.map((x) => `| ${x.engine} | ${x.recall_at_5} | ${x.mrr_at_5} | ${x.by_overlap.entity} | ${x.by_overlap.words} | ${x.by_overlap.none} | ${x.p50_ms} | ${x.p95_ms} |`),
    '',
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const report = await runMemoryBench({ quick: process.argv.includes('--quick') });
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n${memoryMarkdown(report)}`);
}

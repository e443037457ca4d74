import type { Sort } from '../../engine/query/ast.js';
import type { Candidate, SearchOutcome, SearchRequest } from '../types.js';
import type { CompiledQuery } from './compile.js';
import { CHUNK_BITS, MAX_CHUNKS as CHUNK_SPAN } from './migrations.js';
import { type DocumentRow, scopeCondition, toRecord } from './rows.js';
import type { StatementCache } from './statements.js';

interface Hit {
  seq: number;
  chunkId: number;
  score: number;
}

interface Scan {
  hits: Hit[];
  total: number;
  exact: boolean;
}

/** Totals are exact up to this many documents, then reported as "at least". */
export const TOTAL_CAP = 1000;

const ORDER: Record<Sort['key'], string> = {
  relevance: 'd.updated_at DESC, d.seq DESC',
  date: 'd.updated_at DESC, d.seq DESC',
  domain: 'd.domain ASC, d.updated_at DESC, d.seq DESC',
};
const REVERSED: Record<Sort['key'], string> = {
  relevance: 'd.updated_at ASC, d.seq ASC',
  date: 'd.updated_at ASC, d.seq ASC',
  domain: 'd.domain DESC, d.updated_at DESC, d.seq DESC',
};

export class SqliteSearch {
  constructor(private readonly stmts: StatementCache) {}

  run(compiled: CompiledQuery, req: SearchRequest): SearchOutcome {
    const base = { bareWords: compiled.bareWords, highlight: compiled.highlight, phrase: compiled.phrase };
    if (compiled.impossible) return { ...base, candidates: [], total: 0, totalExact: true };
    const { where, params } = this.documentConditions(compiled, req);
    const sort = req.query.sort;
    let full: Scan;
    if (!compiled.fts) full = this.scanDocuments(where, params, sort, req.limit);
    else if (sort.key === 'relevance') full = this.scanRanked(compiled.fts, where, params, req, { window: req.window, exclude: new Set(), reverse: sort.reverse, count: true });
    else full = this.scanSorted(compiled.fts, where, params, sort, req.limit);
    let partial: Hit[] = [];
    if (compiled.partialFts && sort.key === 'relevance' && !sort.reverse && full.total < req.limit) {
      const seen = new Set(full.hits.map((h) => h.seq));
      partial = this.scanRanked(compiled.partialFts, where, params, req, { window: req.limit - full.hits.length, exclude: seen, reverse: false, count: false }).hits;
    }
    const candidates = this.materialize(full.hits, partial);
    return { ...base, candidates, total: full.total, totalExact: full.exact };
  }

  private documentConditions(compiled: CompiledQuery, req: SearchRequest): { where: string[]; params: unknown[] } {
    const where = [...compiled.where];
    const params = [...compiled.params];
    const scope = scopeCondition(req.scope);
    if (scope) {
      where.push(scope.sql);
      params.push(...scope.params);
    }
    // What is in a bank (memories) matches only from that bank. Without any memory in a bank the condition
    // is left out, so that an unscoped search needs no join with documents (the partial index answers at once).
    if (!this.hasBankDocuments()) {
      // nothing to exclude
    } else if (req.bankId === undefined || req.bankId === null) where.push('d.bank_id IS NULL');
    else {
      where.push('(d.bank_id IS NULL OR d.bank_id = ?)');
      params.push(req.bankId);
    }
    if (compiled.negFts) {
      where.push(`d.seq NOT IN (SELECT rowid >> ${CHUNK_BITS} FROM chunk_fts WHERE chunk_fts MATCH ?)`);
      params.push(compiled.negFts);
    }
    return { where, params };
  }

  private hasBankDocuments(): boolean {
    return this.stmts.get('SELECT EXISTS (SELECT 1 FROM documents WHERE bank_id IS NOT NULL)').pluck().get() === 1;
  }

  /**
   * Best chunk per document for the top `window` documents: SQLite keeps the top-k chunk rows (as plain FTS5 does),
   * grouping happens here, and k grows only when documents repeat too often to fill the window.
   */
  private scanRanked(fts: string, where: string[], params: unknown[], req: SearchRequest, opts: { window: number; exclude: Set<number>; reverse: boolean; count: boolean }): Scan {
    const w = req.weights;
    const { exclude, reverse } = opts;
    const join = where.length ? `JOIN documents d ON d.seq = f.rowid >> ${CHUNK_BITS}` : '';
    const cond = where.length ? ` AND ${where.join(' AND ')}` : '';
    const from = `FROM chunk_fts f ${join} WHERE chunk_fts MATCH ?${cond}`;
    const score = `bm25(chunk_fts, ${w.title}, ${w.domain}, ${w.url}, ${w.text})`;
    const stmt = this.stmts.get(`SELECT f.rowid, ${score} AS s ${from} ORDER BY s ${reverse ? 'DESC' : 'ASC'} LIMIT ?`, true);
    const window = Math.max(opts.window, 1);
    for (let k = Math.ceil(window * 1.5) + exclude.size; ; k *= 4) {
      const rows = stmt.all(fts, ...params, k) as Array<[number, number]>;
      const hits: Hit[] = [];
      const seen = new Set<number>();
      for (const [rowid, bm25] of rows) {
        const seq = Math.floor(rowid / CHUNK_SPAN); // not >>: rowids exceed 32 bits
        if (seen.has(seq)) continue;
        seen.add(seq);
        if (!exclude.has(seq)) hits.push({ seq, chunkId: rowid, score: -bm25 });
      }
      const complete = rows.length < k;
      if (complete || hits.length >= window) {
        const total = complete || !opts.count ? hits.length : this.countCapped(`SELECT DISTINCT f.rowid >> ${CHUNK_BITS} ${from}`, [fts, ...params]);
        return { hits: hits.slice(0, window), total, exact: complete || total < TOTAL_CAP };
      }
    }
  }

  /** Counts rows of `select` up to TOTAL_CAP; beyond that the exact number costs more than it tells. */
  private countCapped(select: string, params: unknown[]): number {
    return this.stmts.get(`SELECT count(*) FROM (${select} LIMIT ${TOTAL_CAP})`, true).pluck().get(...params) as number;
  }

  /** Matches ordered by date or domain. */
  private scanSorted(fts: string, where: string[], params: unknown[], sort: Sort, limit: number): Scan {
    const cond = where.length ? ` AND ${where.join(' AND ')}` : '';
    const from = `FROM chunk_fts f JOIN documents d ON d.seq = f.rowid >> ${CHUNK_BITS} WHERE chunk_fts MATCH ?${cond}`;
    const order = sort.reverse ? REVERSED[sort.key] : ORDER[sort.key];
    const rows = this.stmts
      .get(`SELECT d.seq, min(f.rowid), 0 ${from} GROUP BY d.seq ORDER BY ${order} LIMIT ?`, true)
      .all(fts, ...params, limit) as Array<[number, number, number]>;
    const total = this.countCapped(`SELECT DISTINCT d.seq ${from}`, [fts, ...params]);
    return { hits: rows.map(([seq, chunkId]) => ({ seq, chunkId, score: 0 })), total, exact: total < TOTAL_CAP };
  }

  /** Queries without words: documents by recency (or the requested order), first chunk as the passage. */
  private scanDocuments(where: string[], params: unknown[], sort: Sort, limit: number): Scan {
    const cond = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const order = sort.reverse ? REVERSED[sort.key] : ORDER[sort.key];
    const rows = this.stmts.get(`SELECT d.seq FROM documents d ${cond} ORDER BY ${order} LIMIT ?`, true).all(...params, limit) as Array<[number]>;
    const total = this.countCapped(`SELECT 1 FROM documents d ${cond}`, params);
    return { hits: rows.map(([seq]) => ({ seq, chunkId: seq * CHUNK_SPAN, score: 0 })), total, exact: total < TOTAL_CAP };
  }

  private materialize(full: Hit[], partial: Hit[]): Candidate[] {
    const hits = [...full, ...partial];
    if (hits.length === 0) return [];
    const sql = `SELECT d.*, j.value AS hit_id, c.text AS chunk_text FROM json_each(?) j
                 JOIN documents d ON d.seq = j.value >> ${CHUNK_BITS} LEFT JOIN chunks c ON c.id = j.value`;
    const rows = this.stmts.get(sql).all(JSON.stringify(hits.map((h) => h.chunkId))) as Array<DocumentRow & { hit_id: number; chunk_text: string | null }>;
    const byChunk = new Map(rows.map((r) => [r.hit_id, r]));
    const out: Candidate[] = [];
    hits.forEach((h, i) => {
      const row = byChunk.get(h.chunkId);
      if (row) out.push({ document: toRecord(row), score: h.score, match: i < full.length ? 'full' : 'partial', chunkText: row.chunk_text ?? '' });
    });
    return out;
  }
}

import type { Sort } from '../../engine/query/ast.js';
import { TopK } from '../../engine/topk.js';
import type { Candidate, SearchOutcome, SearchRequest } from '../types.js';
import type { CompiledQuery } from './compile.js';
import { CHUNK_BITS, MAX_CHUNKS as CHUNK_SPAN } from './migrations.js';
import { type DocumentRow, toRecord } from './rows.js';
import type { StatementCache } from './statements.js';

interface Hit {
  seq: number;
  chunkId: number;
  score: number;
}

interface Scan {
  hits: Hit[];
  total: number;
}

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
    const base = { bareWords: compiled.bareWords, highlight: compiled.highlight };
    if (compiled.impossible) return { ...base, candidates: [], total: 0 };
    const { where, params } = this.documentConditions(compiled);
    const sort = req.query.sort;
    let full: Scan;
    if (!compiled.fts) full = this.scanDocuments(where, params, sort, req.limit);
    else if (sort.key === 'relevance') full = this.scanRanked(compiled.fts, where, params, req, new Set(), sort.reverse);
    else full = this.scanSorted(compiled.fts, where, params, sort, req.limit);
    let partial: Hit[] = [];
    if (compiled.partialFts && sort.key === 'relevance' && !sort.reverse && full.total < req.limit) {
      const seen = new Set(full.hits.map((h) => h.seq));
      partial = this.scanRanked(compiled.partialFts, where, params, { ...req, window: req.limit - full.hits.length }, seen, false).hits;
    }
    const candidates = this.materialize(full.hits, partial, compiled.phraseFts);
    return { ...base, candidates, total: full.total };
  }

  private documentConditions(compiled: CompiledQuery): { where: string[]; params: unknown[] } {
    const where = [...compiled.where];
    const params = [...compiled.params];
    if (compiled.negFts) {
      where.push(`d.seq NOT IN (SELECT rowid >> ${CHUNK_BITS} FROM chunk_fts WHERE chunk_fts MATCH ?)`);
      params.push(compiled.negFts);
    }
    return { where, params };
  }

  /** Every matching chunk once, best chunk per document kept; rows come in rowid order, so a document's chunks are adjacent. */
  private scanRanked(fts: string, where: string[], params: unknown[], req: SearchRequest, exclude: Set<number>, reverse: boolean): Scan {
    const w = req.weights;
    const join = where.length ? `JOIN documents d ON d.seq = f.rowid >> ${CHUNK_BITS}` : '';
    const cond = where.length ? ` AND ${where.join(' AND ')}` : '';
    const sql = `SELECT f.rowid, bm25(chunk_fts, ${w.title}, ${w.domain}, ${w.url}, ${w.text}) FROM chunk_fts f ${join} WHERE chunk_fts MATCH ?${cond}`;
    const stmt = this.stmts.get(sql, true);
    const top = new TopK<Hit>(Math.max(req.window, 1));
    let total = 0;
    let seq = -1;
    let best: Hit | undefined;
    const flush = () => {
      if (best) top.push(reverse ? -best.score : best.score, best);
    };
    for (const row of stmt.iterate(fts, ...params) as Iterable<[number, number]>) {
      const rowid = row[0];
      const s = Math.floor(rowid / CHUNK_SPAN); // not >>: rowids exceed 32 bits
      const score = -row[1];
      if (s !== seq) {
        flush();
        seq = s;
        best = undefined;
        if (exclude.has(s)) continue;
        total++;
        best = { seq: s, chunkId: rowid, score };
      } else if (best && score > best.score) {
        best = { seq: s, chunkId: rowid, score };
      }
    }
    flush();
    return { hits: top.sorted(), total };
  }

  /** Matches ordered by date or domain. */
  private scanSorted(fts: string, where: string[], params: unknown[], sort: Sort, limit: number): Scan {
    const cond = where.length ? ` AND ${where.join(' AND ')}` : '';
    const from = `FROM chunk_fts f JOIN documents d ON d.seq = f.rowid >> ${CHUNK_BITS} WHERE chunk_fts MATCH ?${cond}`;
    const order = sort.reverse ? REVERSED[sort.key] : ORDER[sort.key];
    const rows = this.stmts
      .get(`SELECT d.seq, min(f.rowid), 0 ${from} GROUP BY d.seq ORDER BY ${order} LIMIT ?`, true)
      .all(fts, ...params, limit) as Array<[number, number, number]>;
    const total = this.stmts.get(`SELECT count(DISTINCT d.seq) ${from}`, true).pluck().get(fts, ...params) as number;
    return { hits: rows.map(([seq, chunkId]) => ({ seq, chunkId, score: 0 })), total };
  }

  /** Queries without words: documents by recency (or the requested order), first chunk as the passage. */
  private scanDocuments(where: string[], params: unknown[], sort: Sort, limit: number): Scan {
    const cond = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const order = sort.reverse ? REVERSED[sort.key] : ORDER[sort.key];
    const rows = this.stmts.get(`SELECT d.seq FROM documents d ${cond} ORDER BY ${order} LIMIT ?`, true).all(...params, limit) as Array<[number]>;
    const total = this.stmts.get(`SELECT count(*) FROM documents d ${cond}`, true).pluck().get(...params) as number;
    return { hits: rows.map(([seq]) => ({ seq, chunkId: seq * CHUNK_SPAN, score: 0 })), total };
  }

  private materialize(full: Hit[], partial: Hit[], phraseFts: string | null): Candidate[] {
    const hits = [...full, ...partial];
    if (hits.length === 0) return [];
    const docs = new Map<number, DocumentRow>();
    const docRows = this.stmts.get('SELECT * FROM documents WHERE seq IN (SELECT value FROM json_each(?))').all(JSON.stringify(hits.map((h) => h.seq))) as DocumentRow[];
    for (const row of docRows) docs.set(row.seq, row);
    const chunkIds = JSON.stringify(hits.map((h) => h.chunkId));
    const texts = new Map<number, string>();
    for (const [id, text] of this.stmts.get('SELECT id, text FROM chunks WHERE id IN (SELECT value FROM json_each(?))', true).all(chunkIds) as Array<[number, string]>) texts.set(id, text);
    const phrased = new Set<number>();
    if (phraseFts) {
      const sql = 'SELECT rowid FROM chunk_fts WHERE chunk_fts MATCH ? AND rowid IN (SELECT value FROM json_each(?))';
      for (const id of this.stmts.get(sql, true).pluck().all(phraseFts, chunkIds) as number[]) phrased.add(id);
    }
    const out: Candidate[] = [];
    hits.forEach((h, i) => {
      const row = docs.get(h.seq);
      if (!row) return;
      out.push({
        document: toRecord(row),
        score: h.score,
        match: i < full.length ? 'full' : 'partial',
        chunkText: texts.get(h.chunkId) ?? '',
        phraseMatch: phrased.has(h.chunkId),
      });
    });
    return out;
  }
}

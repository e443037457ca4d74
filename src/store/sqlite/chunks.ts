import type { ChunkFilter, ChunkHit, ChunkQuery, DocumentKind, EntityCount, EntityRef, SourceRecord } from '../types.js';
import { CHUNK_BITS, MAX_CHUNKS } from './migrations.js';
import { parseMetadata, scopeCondition } from './rows.js';
import type { StatementCache } from './statements.js';

// Reads over chunks for the tree toolset and recall: what a caller may see is documents in their scope that
// are in no bank, plus the memories of their current bank, and nothing else, entities included.

/** A document's source label: its `source`, except that a local document goes by its folder label when it has one. */
export const SOURCE_LABEL = "CASE WHEN d.kind = 'local' THEN ifnull(d.label, d.source) ELSE d.source END";

const quote = (word: string): string => `"${word.replace(/"/g, '""')}"`;

interface Conditions {
  sql: string;
  params: unknown[];
}

/** SQL on `documents d` (and the chunk id expression `chunk`) for a filter. */
export function chunkConditions(f: ChunkFilter, chunk: string): Conditions {
  const where: string[] = [];
  const params: unknown[] = [];
  const scope = scopeCondition(f.scope);
  // Documents outside banks by scope; what is in a bank (memories) only from that bank, whoever asks.
  const documents = scope ? `(d.bank_id IS NULL AND ${scope.sql})` : 'd.bank_id IS NULL';
  params.push(...(scope?.params ?? []));
  if (f.bankId === null) where.push(documents);
  else {
    where.push(`(${documents} OR d.bank_id = ?)`);
    params.push(f.bankId);
  }
  if (f.kinds?.length) {
    where.push(`d.kind IN (${f.kinds.map(() => '?').join(', ')})`);
    params.push(...f.kinds);
  }
  if (f.sources?.length) {
    where.push(`(${f.sources.map(() => `(d.kind = ? AND ${SOURCE_LABEL} = ?)`).join(' OR ')})`);
    for (const s of f.sources) params.push(s.kind, s.label);
  }
  if (f.entityIds?.length) {
    where.push(`${chunk} IN (SELECT chunk_id FROM chunk_entities WHERE entity_id IN (${f.entityIds.map(() => '?').join(', ')}))`);
    params.push(...f.entityIds);
  }
  if (f.since !== undefined) {
    where.push('d.updated_at >= ?');
    params.push(f.since);
  }
  if (f.until !== undefined) {
    where.push('d.updated_at <= ?');
    params.push(f.until);
  }
  return { sql: where.join(' AND '), params };
}

const HIT_COLUMNS = `c.id AS chunk_id, c.ordinal, c.start, c.end, c.text, d.id AS document_id, d.kind, d.url, d.title, d.metadata, d.updated_at, ${SOURCE_LABEL} AS source_label`;

interface HitRow {
  chunk_id: number;
  ordinal: number;
  start: number;
  end: number;
  text: string;
  document_id: string;
  kind: DocumentKind;
  url: string;
  title: string;
  metadata: string;
  updated_at: number;
  source_label: string;
}

function toHit(r: HitRow, score: number): ChunkHit {
  return {
    chunkId: r.chunk_id, documentId: r.document_id, kind: r.kind, sourceLabel: r.source_label, title: r.title, url: r.url,
    metadata: parseMetadata(r.metadata), ordinal: r.ordinal, start: r.start, end: r.end, text: r.text, updatedAt: r.updated_at, score,
  };
}

export class SqliteChunks {
  constructor(private readonly stmts: StatementCache) {}

  search(q: ChunkQuery): ChunkHit[] {
    const words = (q.words ?? []).filter((w) => w.length > 0);
    const ranked = words.length ? this.ranked(q, words) : this.newest(q);
    return this.materialize(ranked);
  }

  /**
   * BM25 over any of the words, best first. The url column is left out: a memory's url (memory:<bank>/<id>)
   * would make "memory" or the bank's name match every memory in it.
   */
  private ranked(q: ChunkQuery, words: string[]): Array<[number, number]> {
    const cond = chunkConditions(q.filter, 'f.rowid');
    const w = q.weights;
    const sql = `SELECT f.rowid, bm25(chunk_fts, ${w.title}, ${w.domain}, ${w.url}, ${w.text}) AS s
      FROM chunk_fts f JOIN documents d ON d.seq = f.rowid >> ${CHUNK_BITS}
      WHERE chunk_fts MATCH ? AND ${cond.sql} ORDER BY s LIMIT ? OFFSET ?`;
    const match = `{title domain text} : (${words.map(quote).join(' OR ')})`;
    const rows = this.stmts.get(sql, true).all(match, ...cond.params, q.limit, q.offset ?? 0) as Array<[number, number]>;
    return rows.map(([id, bm25]) => [id, -bm25]);
  }

  /** Newest documents first, their chunks in order. */
  private newest(q: ChunkQuery): Array<[number, number]> {
    const cond = chunkConditions(q.filter, 'c.id');
    const sql = `SELECT c.id, 0 FROM documents d JOIN chunks c ON c.id BETWEEN d.seq * ${MAX_CHUNKS} AND d.seq * ${MAX_CHUNKS} + ${MAX_CHUNKS - 1}
      WHERE ${cond.sql} ORDER BY d.updated_at DESC, d.seq DESC, c.id LIMIT ? OFFSET ?`;
    return this.stmts.get(sql, true).all(...cond.params, q.limit, q.offset ?? 0) as Array<[number, number]>;
  }

  private materialize(ranked: Array<[number, number]>): ChunkHit[] {
    if (ranked.length === 0) return [];
    const sql = `SELECT ${HIT_COLUMNS} FROM json_each(?) j JOIN chunks c ON c.id = j.value JOIN documents d ON d.seq = c.document_seq`;
    const rows = this.stmts.get(sql).all(JSON.stringify(ranked.map(([id]) => id))) as HitRow[];
    const byId = new Map(rows.map((r) => [r.chunk_id, r]));
    return ranked.flatMap(([id, score]) => {
      const row = byId.get(id);
      return row ? [toHit(row, score)] : [];
    });
  }

  get(chunkId: number, filter: ChunkFilter): ChunkHit | undefined {
    const cond = chunkConditions(filter, 'c.id');
    const row = this.stmts.get(`SELECT ${HIT_COLUMNS} FROM chunks c JOIN documents d ON d.seq = c.document_seq WHERE c.id = ? AND ${cond.sql}`).get(chunkId, ...cond.params) as HitRow | undefined;
    return row ? toHit(row, 0) : undefined;
  }

  entitiesOf(chunkIds: number[]): Map<number, EntityRef[]> {
    const out = new Map<number, EntityRef[]>();
    if (chunkIds.length === 0) return out;
    const sql = `SELECT ce.chunk_id, e.id, e.kind, e.name, ce.mentions FROM json_each(?) j
      JOIN chunk_entities ce ON ce.chunk_id = j.value JOIN entities e ON e.id = ce.entity_id ORDER BY ce.mentions DESC, e.name`;
    const rows = this.stmts.get(sql).all(JSON.stringify(chunkIds)) as Array<{ chunk_id: number; id: number; kind: string; name: string; mentions: number }>;
    for (const r of rows) {
      const list = out.get(r.chunk_id) ?? [];
      list.push({ id: r.id, kind: r.kind, name: r.name, mentions: r.mentions });
      out.set(r.chunk_id, list);
    }
    return out;
  }

  /** Counted from the visible chunks' links only: the shared entities table never shows another user's mentions. */
  topEntities(filter: ChunkFilter, kind: string | undefined, limit: number): EntityCount[] {
    const cond = chunkConditions(filter, 'ce.chunk_id');
    const byKind = kind === undefined ? '' : ' AND e.kind = ?';
    const sql = `SELECT e.id, e.kind, e.name, sum(ce.mentions) AS mentions, count(*) AS chunk_count, max(d.updated_at) AS last_seen
      FROM chunk_entities ce JOIN entities e ON e.id = ce.entity_id JOIN documents d ON d.seq = ce.chunk_id >> ${CHUNK_BITS}
      WHERE ${cond.sql}${byKind} GROUP BY e.id ORDER BY mentions DESC, chunk_count DESC, e.kind, e.name LIMIT ?`;
    const rows = this.stmts.get(sql).all(...cond.params, ...(kind === undefined ? [] : [kind]), limit) as Array<{ id: number; kind: string; name: string; mentions: number; chunk_count: number; last_seen: number }>;
    return rows.map((r) => ({ id: r.id, kind: r.kind, name: r.name, mentions: r.mentions, chunkCount: r.chunk_count, lastSeen: r.last_seen }));
  }

  sources(filter: ChunkFilter, email: string | undefined): SourceRecord[] {
    const cond = chunkConditions(filter, 'c.id');
    // Aliases unlike any column: GROUP BY would take documents.label over an alias `label`.
    const sql = `SELECT d.kind, ${SOURCE_LABEL} AS source_label, count(DISTINCT d.seq) AS documents, count(c.id) AS chunks, max(d.updated_at) AS last
      FROM documents d LEFT JOIN chunks c ON c.id BETWEEN d.seq * ${MAX_CHUNKS} AND d.seq * ${MAX_CHUNKS} + ${MAX_CHUNKS - 1}
      WHERE ${cond.sql} GROUP BY d.kind, source_label ORDER BY last DESC, d.kind, source_label`;
    const rows = (this.stmts.get(sql).all(...cond.params) as Array<{ kind: DocumentKind; source_label: string; documents: number; chunks: number; last: number }>)
      .map((r) => ({ ...r, label: r.source_label }));
    const keep = email === undefined ? undefined : this.sourcesMentioning(filter, email);
    return rows
      .filter((r) => !keep || keep.has(`${r.kind}\u0000${r.label}`))
      .map((r) => ({ kind: r.kind, label: r.label, documentCount: r.documents, chunkCount: r.chunks, lastActivity: r.last }));
  }

  /** (kind, label) keys of the visible sources with a chunk linked to the email entity `email`. */
  private sourcesMentioning(filter: ChunkFilter, email: string): Set<string> {
    const cond = chunkConditions(filter, 'ce.chunk_id');
    const sql = `SELECT DISTINCT d.kind, ${SOURCE_LABEL} AS source_label FROM entities e JOIN chunk_entities ce ON ce.entity_id = e.id
      JOIN documents d ON d.seq = ce.chunk_id >> ${CHUNK_BITS} WHERE e.kind = 'email' AND e.name = ? AND ${cond.sql}`;
    const rows = this.stmts.get(sql).all(email, ...cond.params) as Array<{ kind: string; source_label: string }>;
    return new Set(rows.map((r) => `${r.kind}\u0000${r.source_label}`));
  }
}

import { createRequire } from 'node:module';
import type Database from 'better-sqlite3';
import type { ChunkFilter, DocumentKind, EmbeddingCounts, EmbeddingResult, EmbeddingTask, VectorSpace } from '../types.js';
import { chunkConditions } from './chunks.js';
import type { StatementCache } from './statements.js';

// Vectors in a sqlite-vec table keyed by chunk id, with the owner, kind and bank of the chunk's document
// as metadata columns so kNN filters before it ranks. sqlite-vec is loaded on first use only.

const TICKET = 'random() & 9007199254740991';
/** sqlite-vec's largest k. */
const MAX_K = 4096;
const DOCUMENT_KINDS: DocumentKind[] = ['web', 'local'];

interface QueueRow {
  chunk_id: number;
  ticket: number;
  text: string | null;
  title: string | null;
  kind: DocumentKind | null;
}

interface Arm {
  sql: string;
  params: unknown[];
}

export class SqliteVectors {
  private loaded = false;

  constructor(
    private readonly db: Database.Database,
    private readonly stmts: StatementCache,
  ) {}

  private load(): void {
    if (this.loaded) return;
    (createRequire(import.meta.url)('sqlite-vec') as { load(db: Database.Database): void }).load(this.db);
    this.loaded = true;
  }

  private storedSpace(): VectorSpace | undefined {
    return this.stmts.get('SELECT model, dimensions FROM vector_space WHERE id = 1').get() as VectorSpace | undefined;
  }

  private tableExists(): boolean {
    return this.stmts.get("SELECT count(*) FROM sqlite_master WHERE name = 'chunk_vec'").pluck().get() === 1;
  }

  /** Makes the vector table match `space`; another model or length drops every vector and queues every chunk. */
  open(space: VectorSpace): { reset: boolean } {
    this.load();
    return this.db.transaction(() => {
      const stored = this.storedSpace();
      if (stored && stored.model === space.model && stored.dimensions === space.dimensions && this.tableExists()) return { reset: false };
      this.db.exec('DROP TABLE IF EXISTS chunk_vec');
      this.db.exec(`CREATE VIRTUAL TABLE chunk_vec USING vec0(embedding float[${Math.trunc(space.dimensions)}] distance_metric=cosine, owner integer, kind text, bank integer)`);
      this.db.exec(`DELETE FROM embedding_queue; INSERT INTO embedding_queue (chunk_id, ticket) SELECT id, ${TICKET} FROM chunks`);
      this.stmts.get('INSERT OR REPLACE INTO vector_space (id, model, dimensions, created_at) VALUES (1, ?, ?, ?)').run(space.model, space.dimensions, Date.now());
      return { reset: true };
    }).immediate();
  }

  /** The next chunks to embed, in queue order; queue entries of removed chunks are cleared on the way. */
  pending(limit: number): EmbeddingTask[] {
    this.load();
    const select = this.stmts.get(`SELECT q.chunk_id, q.ticket, c.text, d.title, d.kind FROM embedding_queue q
      LEFT JOIN chunks c ON c.id = q.chunk_id LEFT JOIN documents d ON d.seq = c.document_seq
      WHERE q.failed = 0 ORDER BY q.chunk_id LIMIT ?`);
    for (;;) {
      const rows = select.all(limit) as QueueRow[];
      const gone = rows.filter((r) => r.text === null);
      if (gone.length) this.forget(gone);
      const tasks = rows.flatMap((r) => (r.text === null ? [] : [{ chunkId: r.chunk_id, ticket: r.ticket, text: r.text, title: r.title ?? '', kind: r.kind ?? 'web' }]));
      if (tasks.length || !gone.length) return tasks;
    }
  }

  /** Drops the vectors and queue entries of removed chunks (unless rewritten since). */
  private forget(rows: QueueRow[]): void {
    const hasTable = this.tableExists();
    this.db.transaction(() => {
      for (const r of rows) {
        const info = this.stmts.get('DELETE FROM embedding_queue WHERE chunk_id = ? AND ticket = ?').run(r.chunk_id, r.ticket);
        if (info.changes && hasTable) this.stmts.get('DELETE FROM chunk_vec WHERE rowid = ?').run(BigInt(r.chunk_id));
      }
    }).immediate();
  }

  /** Stores answers whose ticket is still current; the number stored. Nothing when the space changed meanwhile. */
  store(space: VectorSpace, results: EmbeddingResult[]): number {
    this.load();
    return this.db.transaction(() => {
      const stored = this.storedSpace();
      if (!stored || stored.model !== space.model || stored.dimensions !== space.dimensions) return 0;
      let n = 0;
      for (const r of results) {
        const doc = this.stmts.get(`SELECT ifnull(d.owner_id, 0) AS owner, d.kind, ifnull(d.bank_id, 0) AS bank FROM embedding_queue q
          JOIN chunks c ON c.id = q.chunk_id JOIN documents d ON d.seq = c.document_seq WHERE q.chunk_id = ? AND q.ticket = ? AND q.failed = 0`)
          .get(r.chunkId, r.ticket) as { owner: number; kind: string; bank: number } | undefined;
        if (!doc) continue;
        const id = BigInt(r.chunkId);
        this.stmts.get('DELETE FROM chunk_vec WHERE rowid = ?').run(id);
        this.stmts.get('INSERT INTO chunk_vec (rowid, embedding, owner, kind, bank) VALUES (?, ?, ?, ?, ?)').run(id, r.vector, BigInt(doc.owner), doc.kind, BigInt(doc.bank));
        this.stmts.get('DELETE FROM embedding_queue WHERE chunk_id = ?').run(r.chunkId);
        n++;
      }
      return n;
    }).immediate();
  }

  /** Takes chunks the endpoint refused out of the queue until they change (or the model does). */
  fail(tasks: Array<{ chunkId: number; ticket: number }>): void {
    this.db.transaction(() => {
      for (const t of tasks) this.stmts.get('UPDATE embedding_queue SET failed = 1 WHERE chunk_id = ? AND ticket = ?').run(t.chunkId, t.ticket);
    }).immediate();
  }

  /**
   * Nearest visible chunks as [chunk id, cosine similarity], best first; undefined when the stored vectors
   * are of another space (or none). kNN runs per arm (documents in scope, the bank's memories), then the
   * filter's other conditions; k grows while filtering leaves fewer than `limit`.
   */
  nearest(space: VectorSpace, vector: Float32Array, filter: ChunkFilter, limit: number): Array<[number, number]> | undefined {
    // Read each time: another process may have moved the store to another model since.
    const stored = this.storedSpace();
    if (!stored || stored.model !== space.model || stored.dimensions !== space.dimensions || !this.tableExists()) return undefined;
    this.load();
    const arms = this.arms(filter);
    for (let k = Math.min(Math.max(limit * 4, 32), MAX_K); ; k = Math.min(k * 4, MAX_K)) {
      let full = false;
      const found: Array<[number, number]> = [];
      for (const arm of arms) {
        const rows = this.stmts.get(`SELECT rowid, distance FROM chunk_vec WHERE embedding MATCH ? AND k = ? AND ${arm.sql}`, true).all(vector, k, ...arm.params) as Array<[number, number]>;
        if (rows.length === k) full = true;
        found.push(...rows);
      }
      found.sort((a, b) => a[1] - b[1]);
      const visible = this.visible(found.map(([id]) => id), filter);
      const kept = found.filter(([id]) => visible.has(id)).map(([id, d]): [number, number] => [id, 1 - d]);
      if (kept.length >= limit || !full || k === MAX_K) return kept.slice(0, limit);
    }
  }

  /** Metadata constraints of the kNN queries: one per part of what the filter lets a caller see. */
  private arms(f: ChunkFilter): Arm[] {
    const arms: Arm[] = [];
    const kinds = DOCUMENT_KINDS.filter((k) => !f.kinds?.length || f.kinds.includes(k));
    if (kinds.length) {
      const where = [`kind IN (${kinds.map(() => '?').join(', ')})`];
      const params: unknown[] = [...kinds];
      if (!f.scope.all) {
        if (f.scope.userId === null) where.push('owner = 0');
        else {
          where.push('owner IN (0, ?)');
          params.push(BigInt(f.scope.userId));
        }
      }
      arms.push({ sql: where.join(' AND '), params });
    }
    if (f.bankId !== null && (!f.kinds?.length || f.kinds.includes('memory'))) {
      arms.push({ sql: "kind = 'memory' AND bank = ?", params: [BigInt(f.bankId)] });
    }
    return arms;
  }

  private visible(ids: number[], filter: ChunkFilter): Set<number> {
    if (ids.length === 0) return new Set();
    const cond = chunkConditions(filter, 'c.id');
    const sql = `SELECT c.id FROM json_each(?) j JOIN chunks c ON c.id = j.value JOIN documents d ON d.seq = c.document_seq WHERE ${cond.sql}`;
    return new Set(this.stmts.get(sql).pluck().all(JSON.stringify(ids), ...cond.params) as number[]);
  }

  /** Queues every chunk again (a reindex); 0 when no vector space exists yet (opening one queues them all). */
  requeueAll(): number {
    if (!this.storedSpace()) return 0;
    return this.stmts.get(`INSERT INTO embedding_queue (chunk_id, ticket) SELECT id, ${TICKET} FROM chunks WHERE true
      ON CONFLICT (chunk_id) DO UPDATE SET ticket = excluded.ticket, failed = 0`).run().changes;
  }

  counts(): EmbeddingCounts {
    const space = this.storedSpace() ?? null;
    if (!space) {
      const chunks = this.stmts.get('SELECT count(*) FROM chunks').pluck().get() as number;
      return { space, embedded: 0, queued: chunks, failed: 0 };
    }
    const q = this.stmts.get(`SELECT count(*) FILTER (WHERE q.failed = 0) AS queued, count(*) FILTER (WHERE q.failed = 1) AS failed
      FROM embedding_queue q JOIN chunks c ON c.id = q.chunk_id`).get() as { queued: number; failed: number };
    let embedded = 0;
    if (this.tableExists()) {
      this.load();
      embedded = this.stmts.get('SELECT count(*) FROM chunk_vec').pluck().get() as number;
    }
    return { space: { model: space.model, dimensions: space.dimensions }, embedded, queued: q.queued, failed: q.failed };
  }
}

import type Database from 'better-sqlite3';
import type { FetchQueueFilter, FetchQueueItem, FetchState, ImportBatch, ImportBatchResult, ImportCheckpoint, VisitRecord, VisitedUrl } from '../history.js';
import type { DocumentWrite } from '../types.js';
import type { StatementCache } from './statements.js';
import type { SqliteWriter } from './write.js';

const GLOBAL_URL = 'ifnull(owner_id, 0) = 0 AND url = ?';

interface VisitRow {
  id: number;
  url: string;
  title: string;
  source: string;
  visit_count: number;
  first_visit_at: number;
  last_visit_at: number;
}

interface QueueRow {
  id: number;
  url: string;
  source: string;
  state: FetchState;
  attempts: number;
  last_error: string | null;
  queued_at: number;
  finished_at: number | null;
}

/** Imported visits, title-only documents, import checkpoints and the fetch queue. */
export class SqliteImports {
  constructor(
    private readonly db: Database.Database,
    private readonly stmts: StatementCache,
    private readonly writer: SqliteWriter,
  ) {}

  /** One batch in one transaction: visits, documents, queue entries and the checkpoint together or not at all. */
  record(batch: ImportBatch): ImportBatchResult {
    return this.db.transaction(() => {
      const result: ImportBatchResult = { visitsNew: 0, urlsNew: 0, documentsCreated: 0, documentsLabelled: 0, queued: 0 };
      for (const v of batch.visits) this.recordVisits(batch.source, v, result);
      const documents = uniqueByUrl(batch.documents);
      this.ensureDocuments(documents, result);
      if (batch.queueFetch) for (const d of documents) result.queued += this.enqueue(d.url, batch.source);
      if (batch.checkpoint) this.saveCheckpoint(batch.checkpoint);
      return result;
    }).immediate();
  }

  private recordVisits(source: string, v: VisitedUrl, result: ImportBatchResult): void {
    if (v.visitTimes.length === 0) return;
    const first = v.visitTimes.reduce((a, b) => Math.min(a, b));
    const last = v.visitTimes.reduce((a, b) => Math.max(a, b));
    let id = this.stmts.get(`SELECT id FROM history_visits WHERE ${GLOBAL_URL} AND source = ?`).pluck().get(v.url, source) as number | undefined;
    if (id === undefined) {
      const info = this.stmts
        .get('INSERT INTO history_visits (url, title, visit_count, first_visit_at, last_visit_at, source) VALUES (?, ?, 0, ?, ?, ?)')
        .run(v.url, v.title, first, last, source);
      id = Number(info.lastInsertRowid);
      result.urlsNew++;
    }
    const insertTime = this.stmts.get('INSERT OR IGNORE INTO history_visit_times (visit_id, visited_at) VALUES (?, ?)');
    for (const t of v.visitTimes) result.visitsNew += insertTime.run(id, t).changes;
    const seen = this.stmts.get('SELECT count(*) FROM history_visit_times WHERE visit_id = ?').pluck().get(id) as number;
    // max() everywhere: a re-import of the same (or an older copy of the) database never lowers or double-counts anything.
    this.stmts
      .get(`UPDATE history_visits SET
              title = CASE WHEN @title <> '' AND (@last >= last_visit_at OR title = '') THEN @title ELSE title END,
              visit_count = max(visit_count, @count, @seen), first_visit_at = min(first_visit_at, @first), last_visit_at = max(last_visit_at, @last)
            WHERE id = @id`)
      .run({ title: v.title, last, count: v.visitCount, seen, first, id });
  }

  private ensureDocuments(documents: DocumentWrite[], result: ImportBatchResult): void {
    const absent: DocumentWrite[] = [];
    for (const w of documents) {
      const row = this.stmts.get(`SELECT seq, label FROM documents WHERE ${GLOBAL_URL}`).get(w.url) as { seq: number; label: string | null } | undefined;
      if (!row) absent.push(w);
      else if (row.label === null && w.label) {
        this.stmts.get('UPDATE documents SET label = ? WHERE seq = ?').run(w.label, row.seq);
        result.documentsLabelled++;
      }
    }
    if (result.documentsLabelled > 0) this.stmts.get('UPDATE instance SET revision = revision + 1 WHERE id = 1').run();
    // Inside this transaction the writer's own transaction becomes a savepoint.
    if (absent.length) result.documentsCreated += this.writer.write(absent).filter((r) => r.created).length;
  }

  /** Queues a url unless its document already has text or the queue knows it; 1 when queued. */
  private enqueue(url: string, source: string): number {
    const textLength = this.stmts
      .get(`SELECT length(v.text) FROM documents d JOIN versions v ON v.id = d.current_version_id WHERE ifnull(d.owner_id, 0) = 0 AND d.url = ?`)
      .pluck()
      .get(url) as number | undefined;
    if (textLength) return 0;
    return this.stmts.get("INSERT OR IGNORE INTO fetch_queue (url, source, state, queued_at) VALUES (?, ?, 'queued', ?)").run(url, source, Date.now()).changes;
  }

  private saveCheckpoint(c: ImportCheckpoint): void {
    this.stmts
      .get(`INSERT INTO import_state (source, profile, range_start, last_visit_at, updated_at) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (source, profile) DO UPDATE SET range_start = excluded.range_start, last_visit_at = excluded.last_visit_at, updated_at = excluded.updated_at`)
      .run(c.source, c.profile, c.rangeStart, c.lastVisitAt, Date.now());
  }

  checkpoint(source: string, profile: string): ImportCheckpoint | undefined {
    const row = this.stmts.get('SELECT range_start, last_visit_at FROM import_state WHERE source = ? AND profile = ?').get(source, profile) as
      | { range_start: number; last_visit_at: number }
      | undefined;
    return row ? { source, profile, rangeStart: row.range_start, lastVisitAt: row.last_visit_at } : undefined;
  }

  visits(url: string): VisitRecord[] {
    const rows = this.stmts.get(`SELECT * FROM history_visits WHERE ${GLOBAL_URL} ORDER BY source`).all(url) as VisitRow[];
    const times = this.stmts.get('SELECT visited_at FROM history_visit_times WHERE visit_id = ? ORDER BY visited_at').pluck();
    return rows.map((r) => ({
      url: r.url,
      title: r.title,
      source: r.source,
      visitCount: r.visit_count,
      firstVisitAt: r.first_visit_at,
      lastVisitAt: r.last_visit_at,
      visitTimes: times.all(r.id) as number[],
    }));
  }

  queue(filter: FetchQueueFilter): FetchQueueItem[] {
    const rows = this.stmts
      .get('SELECT * FROM fetch_queue WHERE state IN (SELECT value FROM json_each(?)) AND attempts < ? ORDER BY id LIMIT ?')
      .all(JSON.stringify(filter.states), filter.maxAttempts ?? Number.MAX_SAFE_INTEGER, filter.limit ?? -1) as QueueRow[];
    return rows.map((r) => ({
      id: r.id,
      url: r.url,
      source: r.source,
      state: r.state,
      attempts: r.attempts,
      lastError: r.last_error,
      queuedAt: r.queued_at,
      finishedAt: r.finished_at,
    }));
  }

  finishFetch(id: number, errorCode: string | null): boolean {
    const state: FetchState = errorCode === null ? 'done' : 'failed';
    return this.stmts.get('UPDATE fetch_queue SET state = ?, attempts = attempts + 1, last_error = ?, finished_at = ? WHERE id = ?').run(state, errorCode, Date.now(), id).changes > 0;
  }
}

/** The first write of each url. */
function uniqueByUrl(writes: DocumentWrite[]): DocumentWrite[] {
  const byUrl = new Map<string, DocumentWrite>();
  for (const w of writes) if (!byUrl.has(w.url)) byUrl.set(w.url, w);
  return [...byUrl.values()];
}

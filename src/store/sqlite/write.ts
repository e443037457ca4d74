import { brotliCompressSync, constants as zlib } from 'node:zlib';
import type Database from 'better-sqlite3';
import { extractEntities } from '../../engine/entities.js';
import { terms } from '../../engine/text/tokenize.js';
import { TroveError } from '../../errors.js';
import { ulid } from '../../util/ulid.js';
import type { DocumentWrite, WriteResult } from '../types.js';
import { MAX_CHUNKS } from './migrations.js';
import { type DocumentRow, toRecord } from './rows.js';
import type { StatementCache } from './statements.js';

const PRELOAD_AFTER = 500;
// Quality 1: 0.5 ms for a 170 KB page, 18% of its size (quality 5 takes 2.3 ms for 14%; ingest waits on it).
const BROTLI_FAST = { params: { [zlib.BROTLI_PARAM_QUALITY]: 1 } };
/** Longer entity names (a huge URL) are not worth an index row. */
const MAX_ENTITY_NAME = 512;

const UPSERT_ENTITY = `INSERT INTO entities (kind, name, mention_count, last_seen_at) VALUES (?, ?, ?, ?)
  ON CONFLICT (kind, name) DO UPDATE SET mention_count = mention_count + excluded.mention_count, last_seen_at = max(ifnull(last_seen_at, 0), excluded.last_seen_at)
  RETURNING id`;
const LINK_ENTITY = `INSERT INTO chunk_entities (chunk_id, entity_id, mentions) VALUES (?, ?, ?)
  ON CONFLICT (chunk_id, entity_id) DO UPDATE SET mentions = mentions + excluded.mentions`;
// Entities keep their mention counts exact as chunks go; the links themselves are deleted with the chunks.
const UNCOUNT_ENTITIES = `UPDATE entities SET mention_count = mention_count - (SELECT sum(ce.mentions) FROM chunk_entities ce WHERE ce.entity_id = entities.id AND ce.chunk_id BETWEEN ? AND ?)
  WHERE id IN (SELECT entity_id FROM chunk_entities WHERE chunk_id BETWEEN ? AND ?)`;

/** What only some writes set: a memory's id (its url names it) and bank. */
export interface WriteExtras {
  id?: string | undefined;
  bankId?: number | null | undefined;
}

/** Writes documents, versions, chunks and the keyword index in one immediate transaction. */
export class SqliteWriter {
  /** Words known to be in `terms`: at first those this process wrote, after PRELOAD_AFTER documents all of them. */
  private knownTerms = new Set<string>();
  private documentsWritten = 0;

  constructor(
    private readonly db: Database.Database,
    private readonly stmts: StatementCache,
  ) {}

  /** All or nothing: one transaction for the batch (FTS5 merges its segments once per commit, so batches ingest faster). */
  write(ws: DocumentWrite[]): WriteResult[] {
    for (const w of ws) {
      if (w.chunks.length > MAX_CHUNKS) throw new TroveError('TOO_LARGE', `document has ${w.chunks.length} passages; at most ${MAX_CHUNKS} are kept`);
    }
    try {
      return this.db.transaction(() => ws.map((w) => this.writeOne(w))).immediate();
    } catch (err) {
      this.knownTerms = new Set();
      this.documentsWritten = 0;
      throw err;
    }
  }

  /** One document, inside the caller's transaction. */
  writeOne(w: DocumentWrite, extras: WriteExtras = {}): WriteResult {
    const owner = w.ownerId ?? null;
    const existing = this.stmts.get('SELECT * FROM documents WHERE ifnull(owner_id, 0) = ? AND url = ?').get(owner ?? 0, w.url) as DocumentRow | undefined;
    const now = Date.now();
    let row: DocumentRow;
    let created = false;
    let versionAdded = false;
    if (!existing) {
      const info = this.stmts
        .get(`INSERT INTO documents (id, kind, url, title, domain, language, label, owner_id, bank_id, source, metadata, added_at, updated_at)
              VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
        .run(extras.id ?? ulid(now), w.kind, w.url, w.title, w.domain, w.language, w.label, owner, extras.bankId ?? null, w.source, JSON.stringify(w.metadata), w.capturedAt, w.capturedAt);
      row = this.stmts.get('SELECT * FROM documents WHERE seq = ?').get(info.lastInsertRowid) as DocumentRow;
      created = true;
    } else {
      row = existing;
    }
    const currentSha = row.current_version_id
      ? (this.stmts.get('SELECT sha256 FROM versions WHERE id = ?').pluck().get(row.current_version_id) as string | undefined)
      : undefined;
    const attributesChanged = !created && (row.title !== w.title || row.label !== w.label || row.language !== w.language || row.metadata !== JSON.stringify(w.metadata));
    if (currentSha !== w.sha256) {
      this.addVersion(row.seq, w);
      versionAdded = true;
    } else if (attributesChanged) {
      // Same content: `updated` keeps meaning "content changed", so a relabel does not move it.
      this.stmts.get('UPDATE documents SET title = ?, label = ?, language = ?, metadata = ? WHERE seq = ?')
        .run(w.title, w.label, w.language, JSON.stringify(w.metadata), row.seq);
      if (row.title !== w.title) this.reindexTitle(row.seq, w);
    }
    const changed = versionAdded || attributesChanged;
    if (changed) this.stmts.get('UPDATE instance SET revision = revision + 1 WHERE id = 1').run();
    const revision = this.stmts.get('SELECT revision FROM instance WHERE id = 1').pluck().get() as number;
    const fresh = this.stmts.get('SELECT * FROM documents WHERE seq = ?').get(row.seq) as DocumentRow;
    return { document: toRecord(fresh), created, versionAdded, changed: created || changed, revision };
  }

  private addVersion(seq: number, w: DocumentWrite): void {
    const raw = w.rawHtml ? brotliCompressSync(Buffer.from(w.rawHtml, 'utf8'), BROTLI_FAST) : null;
    const v = this.stmts
      .get('INSERT INTO versions (document_seq, text, html, raw_html, sha256, captured_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(seq, w.text, w.html, raw, w.sha256, w.capturedAt);
    this.stmts.get(`UPDATE documents SET title = ?, label = ?, language = ?, metadata = ?, domain = ?, kind = ?, source = ?,
                    updated_at = max(updated_at, ?), version_count = version_count + 1, current_version_id = ? WHERE seq = ?`)
      .run(w.title, w.label, w.language, JSON.stringify(w.metadata), w.domain, w.kind, w.source, w.capturedAt, v.lastInsertRowid, seq);
    this.deleteChunks(seq);
    const insertChunk = this.stmts.get('INSERT INTO chunks (id, document_seq, version_id, ordinal, start, end, text) VALUES (?, ?, ?, ?, ?, ?, ?)');
    const insertFts = this.stmts.get('INSERT INTO chunk_fts (rowid, title, domain, url, text) VALUES (?, ?, ?, ?, ?)');
    for (const c of w.chunks) {
      const id = seq * MAX_CHUNKS + c.ordinal;
      insertChunk.run(id, seq, v.lastInsertRowid, c.ordinal, c.start, c.end, c.text);
      insertFts.run(id, w.title, w.domain, w.url, c.text);
      this.linkEntities(id, c.text, w.capturedAt);
    }
    this.rememberTerms([w.title, w.domain, w.url, w.text]);
  }

  /** Names, emails, URLs, hashtags and dates of a chunk, counted and linked to it. */
  private linkEntities(chunkId: number, text: string, at: number): void {
    const mentions = extractEntities(text);
    if (mentions.length === 0) return;
    const upsert = this.stmts.get(UPSERT_ENTITY).pluck();
    const link = this.stmts.get(LINK_ENTITY);
    for (const m of mentions) {
      if (!m.name || m.name.length > MAX_ENTITY_NAME) continue;
      const entityId = upsert.get(m.kind, m.name, m.count, at) as number;
      link.run(chunkId, entityId, m.count);
    }
  }

  /** The title lives in every chunk's index row; rewrite them. */
  private reindexTitle(seq: number, w: DocumentWrite): void {
    const chunks = this.stmts.get('SELECT id, text FROM chunks WHERE id BETWEEN ? AND ?').all(seq * MAX_CHUNKS, seq * MAX_CHUNKS + MAX_CHUNKS - 1) as Array<{ id: number; text: string }>;
    const del = this.stmts.get('DELETE FROM chunk_fts WHERE rowid = ?');
    const ins = this.stmts.get('INSERT INTO chunk_fts (rowid, title, domain, url, text) VALUES (?, ?, ?, ?, ?)');
    for (const c of chunks) {
      del.run(c.id);
      ins.run(c.id, w.title, w.domain, w.url, c.text);
    }
    this.rememberTerms([w.title]);
  }

  deleteChunks(seq: number): void {
    const lo = seq * MAX_CHUNKS;
    const hi = lo + MAX_CHUNKS - 1;
    const ids = this.stmts.get('SELECT id FROM chunks WHERE id BETWEEN ? AND ?').pluck().all(lo, hi) as number[];
    const del = this.stmts.get('DELETE FROM chunk_fts WHERE rowid = ?');
    for (const id of ids) del.run(id);
    if (ids.length > 0) {
      this.stmts.get(UNCOUNT_ENTITIES).run(lo, hi, lo, hi);
      this.stmts.get('DELETE FROM chunk_entities WHERE chunk_id BETWEEN ? AND ?').run(lo, hi);
    }
    this.stmts.get('DELETE FROM chunks WHERE id BETWEEN ? AND ?').run(lo, hi);
  }

  /** Keeps the unstemmed vocabulary that wildcards expand against. */
  private rememberTerms(texts: string[]): void {
    // A one-off `trove add` should not pay for reading the whole vocabulary; a bulk ingest should.
    if (++this.documentsWritten === PRELOAD_AFTER) for (const t of this.stmts.get('SELECT term FROM terms').pluck().iterate() as Iterable<string>) this.knownTerms.add(t);
    const insert = this.stmts.get('INSERT OR IGNORE INTO terms (term) VALUES (?)');
    for (const text of texts) {
      for (const t of terms(text)) {
        if (this.knownTerms.has(t) || t.length > 64) continue;
        this.knownTerms.add(t);
        insert.run(t);
      }
    }
  }
}

import { brotliDecompressSync } from 'node:zlib';
import { TroveError } from '../../errors.js';
import type { DocumentContent, IndexedEntry, IndexedKey, OpenedInput, OpenedRecord } from '../types.js';
import { type DocumentRow, toRecord } from './rows.js';
import type { StatementCache } from './statements.js';

// Reads behind previews and the two history views, and the opened-results log.

const CONTENT = {
  current: 'SELECT v.text, v.html, v.raw_html FROM documents d JOIN versions v ON v.id = d.current_version_id WHERE d.id = ?',
  version: 'SELECT v.text, v.html, v.raw_html FROM documents d JOIN versions v ON v.document_seq = d.seq WHERE d.id = ? AND v.id = ?',
};

// Global documents, memories left out (they belong to banks, not to what was read). The (updated_at) index
// carries seq as its rowid, so both pages walk it in order; the row-value bound keeps equal times in seq order.
const INDEXED_FIRST = `SELECT * FROM documents WHERE owner_id IS NULL AND kind <> 'memory'
  ORDER BY updated_at DESC, seq DESC LIMIT ?`;
const INDEXED_AFTER = `SELECT * FROM documents WHERE owner_id IS NULL AND kind <> 'memory' AND (updated_at, seq) < (?, ?)
  ORDER BY updated_at DESC, seq DESC LIMIT ?`;

const GLOBAL_DOCUMENT_SEQ = 'SELECT seq FROM documents WHERE ifnull(owner_id, 0) = 0 AND url = ?';
const INSERT_OPENED = 'INSERT INTO history_opened (document_seq, url, title, query, opened_at) VALUES (?, ?, ?, ?, ?)';

// The linked document, else (it was deleted, maybe indexed again since) the global document with that url now.
const OPENED = `SELECT h.id, h.url, h.title, h.query, h.opened_at, ifnull(d.version_count, 0) AS version_count
  FROM history_opened h
  LEFT JOIN documents d ON d.seq = ifnull(h.document_seq, (SELECT seq FROM documents WHERE ifnull(owner_id, 0) = 0 AND url = h.url))
  WHERE h.owner_id IS NULL AND h.id < ? ORDER BY h.id DESC LIMIT ?`;

interface ContentRow {
  text: string;
  html: string | null;
  raw_html: Buffer | null;
}

interface OpenedRow {
  id: number;
  url: string;
  title: string;
  query: string;
  opened_at: number;
  version_count: number;
}

export class SqliteViews {
  constructor(
    private readonly stmts: StatementCache,
    private readonly path: string,
  ) {}

  content(documentId: string, versionId?: number): DocumentContent | undefined {
    const row = (versionId === undefined ? this.stmts.get(CONTENT.current).get(documentId) : this.stmts.get(CONTENT.version).get(documentId, versionId)) as ContentRow | undefined;
    if (!row) return undefined;
    return { text: row.text, html: row.html, rawHtml: row.raw_html === null ? null : this.inflate(row.raw_html) };
  }

  private inflate(blob: Buffer): string {
    try {
      return brotliDecompressSync(blob).toString('utf8');
    } catch (err) {
      throw new TroveError('STORE_CORRUPT', `a stored page in ${this.path} cannot be decompressed; restore the store from a backup`, undefined, { cause: err });
    }
  }

  indexed(limit: number, after?: IndexedKey): IndexedEntry[] {
    const rows = (after === undefined ? this.stmts.get(INDEXED_FIRST).all(limit) : this.stmts.get(INDEXED_AFTER).all(after.at, after.seq, limit)) as DocumentRow[];
    return rows.map((r) => ({ document: toRecord(r), key: { at: r.updated_at, seq: r.seq } }));
  }

  recordOpened(input: OpenedInput): number {
    const seq = this.stmts.get(GLOBAL_DOCUMENT_SEQ).pluck().get(input.url) as number | undefined;
    const info = this.stmts.get(INSERT_OPENED).run(seq ?? null, input.url, input.title, input.query, input.openedAt);
    return Number(info.lastInsertRowid);
  }

  opened(limit: number, beforeId?: number): OpenedRecord[] {
    const rows = this.stmts.get(OPENED).all(beforeId ?? Number.MAX_SAFE_INTEGER, limit) as OpenedRow[];
    return rows.map((r) => ({ id: r.id, url: r.url, title: r.title, query: r.query, openedAt: r.opened_at, versionCount: r.version_count }));
  }
}

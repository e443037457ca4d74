import { brotliDecompressSync } from 'node:zlib';
import { TroveError } from '../../errors.js';
import type { DocumentContent, IndexedEntry, IndexedKey, OpenedInput, OpenedRecord, Scope } from '../types.js';
import { type DocumentRow, scopeCondition, toRecord } from './rows.js';
import type { StatementCache } from './statements.js';

// Reads behind previews and the two history views, and the opened-results log.

const CONTENT = {
  current: 'SELECT v.text, v.html, v.raw_html FROM documents d JOIN versions v ON v.id = d.current_version_id WHERE d.id = ?',
  version: 'SELECT v.text, v.html, v.raw_html FROM documents d JOIN versions v ON v.document_seq = d.seq WHERE d.id = ? AND v.id = ?',
};

// Global documents, memories left out (they belong to banks, not to what was read). The (updated_at) index
// carries seq as its rowid, so both pages walk it in order; the row-value bound keeps equal times in seq order.
const indexedSql = (scope: string, after: boolean) => `SELECT d.* FROM documents d WHERE d.kind <> 'memory'${scope}${after ? ' AND (d.updated_at, d.seq) < (?, ?)' : ''}
  ORDER BY d.updated_at DESC, d.seq DESC LIMIT ?`;

// The opener's own document at that url first, else the global one.
const DOCUMENT_SEQ = 'SELECT seq FROM documents WHERE ifnull(owner_id, 0) IN (0, ?) AND url = ? ORDER BY owner_id IS NULL LIMIT 1';
const INSERT_OPENED = 'INSERT INTO history_opened (document_seq, url, title, query, owner_id, opened_at) VALUES (?, ?, ?, ?, ?, ?)';

// The linked document, else (it was deleted, maybe indexed again since) the global document with that url now.
const openedSql = (scope: string) => `SELECT h.id, h.url, h.title, h.query, h.opened_at, ifnull(d.version_count, 0) AS version_count
  FROM history_opened h
  LEFT JOIN documents d ON d.seq = ifnull(h.document_seq, (SELECT seq FROM documents WHERE ifnull(owner_id, 0) IN (0, ifnull(h.owner_id, 0)) AND url = h.url ORDER BY owner_id IS NULL LIMIT 1))
  WHERE h.id < ?${scope} ORDER BY h.id DESC LIMIT ?`;

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

  indexed(limit: number, after?: IndexedKey, scope?: Scope): IndexedEntry[] {
    const cond = scopeCondition(scope);
    const stmt = this.stmts.get(indexedSql(cond ? ` AND ${cond.sql}` : '', after !== undefined));
    const params = [...(cond?.params ?? []), ...(after ? [after.at, after.seq] : []), limit];
    const rows = stmt.all(...params) as DocumentRow[];
    return rows.map((r) => ({ document: toRecord(r), key: { at: r.updated_at, seq: r.seq } }));
  }

  recordOpened(input: OpenedInput): number {
    const owner = input.ownerId ?? null;
    const seq = this.stmts.get(DOCUMENT_SEQ).pluck().get(owner ?? 0, input.url) as number | undefined;
    const info = this.stmts.get(INSERT_OPENED).run(seq ?? null, input.url, input.title, input.query, owner, input.openedAt);
    return Number(info.lastInsertRowid);
  }

  /** Opened results newest first: every owner's for `all`, else one owner's own (history is never shared). */
  opened(limit: number, beforeId?: number, scope?: Scope): OpenedRecord[] {
    const own = !scope || scope.all ? undefined : scope.userId;
    const sql = openedSql(own === undefined ? '' : own === null ? ' AND h.owner_id IS NULL' : ' AND h.owner_id = ?');
    const params = own === undefined || own === null ? [] : [own];
    const rows = this.stmts.get(sql).all(beforeId ?? Number.MAX_SAFE_INTEGER, ...params, limit) as OpenedRow[];
    return rows.map((r) => ({ id: r.id, url: r.url, title: r.title, query: r.query, openedAt: r.opened_at, versionCount: r.version_count }));
  }
}

import type Database from 'better-sqlite3';
import { ulid } from '../../util/ulid.js';
import type { BankRecord, MemoryWrite, MemoryWriteResult } from '../types.js';
import { type DocumentRow, toRecord } from './rows.js';
import type { StatementCache } from './statements.js';
import type { SqliteWriter } from './write.js';

// Banks and the memories in them. A bank is (owner, name): owner null is the instance owner.

const BANK = `SELECT b.id, b.name, b.owner_id, b.created_at, count(d.seq) AS memory_count, max(d.updated_at) AS last_activity
  FROM banks b LEFT JOIN documents d ON d.bank_id = b.id`;
const BANK_BY_NAME = `${BANK} WHERE ifnull(b.owner_id, 0) = ? AND b.name = ? GROUP BY b.id`;
const BANKS_OF = `${BANK} WHERE ifnull(b.owner_id, 0) = ? GROUP BY b.id ORDER BY b.name`;
const BANK_ID = 'SELECT id FROM banks WHERE ifnull(owner_id, 0) = ? AND name = ?';
const INSERT_BANK = 'INSERT INTO banks (name, owner_id, created_at) VALUES (?, ?, ?)';
// The text's hash finds a duplicate among the bank's memories (documents_bank narrows to the bank).
const DUPLICATE = `SELECT d.* FROM documents d JOIN versions v ON v.id = d.current_version_id
  WHERE d.bank_id = ? AND d.kind = 'memory' AND v.sha256 = ? LIMIT 1`;
const MERGE = `UPDATE documents SET updated_at = max(updated_at, ?),
  metadata = json_set(metadata, '$.retained_count', ifnull(json_extract(metadata, '$.retained_count'), 1) + 1) WHERE seq = ?`;
const BUMP_REVISION = 'UPDATE instance SET revision = revision + 1 WHERE id = 1';

interface BankRow {
  id: number;
  name: string;
  owner_id: number | null;
  created_at: number;
  memory_count: number;
  last_activity: number | null;
}

function toBank(r: BankRow): BankRecord {
  return { id: r.id, name: r.name, ownerId: r.owner_id, createdAt: r.created_at, memoryCount: r.memory_count, lastActivity: r.last_activity };
}

function retainedCount(row: DocumentRow): number {
  try {
    const n = (JSON.parse(row.metadata) as { retained_count?: unknown }).retained_count;
    return typeof n === 'number' ? n : 1;
  } catch {
    return 1;
  }
}

export class SqliteMemory {
  constructor(
    private readonly db: Database.Database,
    private readonly stmts: StatementCache,
    private readonly writer: SqliteWriter,
  ) {}

  bank(ownerId: number | null, name: string): BankRecord | undefined {
    const row = this.stmts.get(BANK_BY_NAME).get(ownerId ?? 0, name) as BankRow | undefined;
    return row ? toBank(row) : undefined;
  }

  banks(ownerId: number | null): BankRecord[] {
    return (this.stmts.get(BANKS_OF).all(ownerId ?? 0) as BankRow[]).map(toBank);
  }

  /** Deletes the bank; foreign keys take its memories, the keyword index and entity counts are cleared here. */
  deleteBank(ownerId: number | null, name: string): number | undefined {
    return this.db.transaction(() => {
      const id = this.stmts.get(BANK_ID).pluck().get(ownerId ?? 0, name) as number | undefined;
      if (id === undefined) return undefined;
      const seqs = this.stmts.get('SELECT seq FROM documents WHERE bank_id = ?').pluck().all(id) as number[];
      for (const seq of seqs) this.writer.deleteChunks(seq);
      this.stmts.get('DELETE FROM banks WHERE id = ?').run(id);
      this.stmts.get(BUMP_REVISION).run();
      return seqs.length;
    }).immediate();
  }

  /** Bank, duplicate check and write in one transaction, so two retains of the same text store it once. */
  retain(w: MemoryWrite): MemoryWriteResult {
    return this.db.transaction(() => {
      const at = w.document.capturedAt;
      let bankId = this.stmts.get(BANK_ID).pluck().get(w.ownerId ?? 0, w.bank) as number | undefined;
      bankId ??= Number(this.stmts.get(INSERT_BANK).run(w.bank, w.ownerId, at).lastInsertRowid);
      const duplicate = this.stmts.get(DUPLICATE).get(bankId, w.document.sha256) as DocumentRow | undefined;
      if (duplicate) {
        this.stmts.get(MERGE).run(at, duplicate.seq);
        this.stmts.get(BUMP_REVISION).run();
        const row = this.stmts.get('SELECT * FROM documents WHERE seq = ?').get(duplicate.seq) as DocumentRow;
        return { document: toRecord(row), merged: true, retainedCount: retainedCount(row), revision: this.revision() };
      }
      const id = ulid(at);
      const write = { ...w.document, kind: 'memory' as const, url: `memory:${w.bank}/${id}`, ownerId: w.ownerId };
      const result = this.writer.writeOne(write, { id, bankId });
      return { document: result.document, merged: false, retainedCount: 1, revision: result.revision };
    }).immediate();
  }

  private revision(): number {
    return this.stmts.get('SELECT revision FROM instance WHERE id = 1').pluck().get() as number;
  }
}

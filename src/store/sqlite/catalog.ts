import type Database from 'better-sqlite3';
import type { CatalogAccess, CatalogCounts, CatalogDocument, CatalogEntry, CatalogFilter, InstanceState } from '../types.js';
import { type DocumentRow, scopeCondition, toRecord } from './rows.js';
import type { StatementCache } from './statements.js';

// Reads behind the catalog tools (list_documents, get_document, read_text, read_source, get_status).

const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

/** SQL condition on documents `d` and its parameters: the scope, and memories only of the one bank. */
function accessCondition(access: CatalogAccess): { sql: string; params: unknown[] } {
  const parts: string[] = [];
  const params: unknown[] = [];
  const scope = scopeCondition(access.scope);
  if (scope) {
    parts.push(scope.sql);
    params.push(...scope.params);
  }
  if (access.bankId === null) parts.push("d.kind <> 'memory'");
  else {
    parts.push("(d.kind <> 'memory' OR d.bank_id = ?)");
    params.push(access.bankId);
  }
  return { sql: parts.join(' AND '), params };
}

function toDocument(row: DocumentRow): CatalogDocument {
  return { ...toRecord(row), currentVersionId: row.current_version_id };
}

export class SqliteCatalog {
  constructor(
    private readonly db: Database.Database,
    private readonly stmts: StatementCache,
  ) {}

  instance(): InstanceState {
    const row = this.stmts.get('SELECT instance_id, epoch, revision FROM instance WHERE id = 1').get() as { instance_id: string; epoch: number; revision: number };
    return { instanceId: row.instance_id, epoch: row.epoch, revision: row.revision };
  }

  list(filter: CatalogFilter): { revision: number; entries: CatalogEntry[] } {
    const cond = accessCondition(filter);
    const where = [cond.sql];
    const params = [...cond.params];
    for (const [column, value] of [['kind', filter.kind], ['label', filter.label], ['domain', filter.domain]] as const) {
      if (value === undefined) continue;
      where.push(`d.${column} = ?`);
      params.push(value);
    }
    const sql = `SELECT d.id, d.url, d.title, d.label FROM documents d WHERE ${where.join(' AND ')} ORDER BY d.url, d.id`;
    // One read transaction: the revision is the one the rows were read at, whatever other processes write.
    return this.db.transaction(() => ({
      revision: this.instance().revision,
      entries: this.stmts.get(sql).all(...params) as CatalogEntry[],
    }))();
  }

  documents(ids: readonly string[], access: CatalogAccess): CatalogDocument[] {
    if (ids.length === 0) return [];
    const cond = accessCondition(access);
    const rows = this.stmts
      .get(`SELECT d.* FROM documents d WHERE d.id IN (SELECT value FROM json_each(?)) AND ${cond.sql}`)
      .all(JSON.stringify(ids), ...cond.params) as DocumentRow[];
    return rows.map(toDocument);
  }

  find(idOrUrl: string, access: CatalogAccess): CatalogDocument | undefined {
    const cond = accessCondition(access);
    if (ULID.test(idOrUrl)) {
      const byId = this.stmts.get(`SELECT d.* FROM documents d WHERE d.id = ? AND ${cond.sql}`).get(idOrUrl, ...cond.params) as DocumentRow | undefined;
      if (byId) return toDocument(byId);
    }
    const own = access.scope.all ? 0 : (access.scope.userId ?? 0);
    const row = this.stmts
      .get(`SELECT d.* FROM documents d WHERE d.url = ? AND ${cond.sql} ORDER BY ifnull(d.owner_id, 0) = ? DESC, d.owner_id IS NULL DESC, d.seq LIMIT 1`)
      .get(idOrUrl, ...cond.params, own) as DocumentRow | undefined;
    return row ? toDocument(row) : undefined;
  }

  counts(access: CatalogAccess): CatalogCounts {
    const cond = accessCondition(access);
    const rows = this.stmts
      .get(`SELECT d.kind AS kind, count(*) AS n, sum(d.version_count) AS versions FROM documents d WHERE ${cond.sql} GROUP BY d.kind`)
      .all(...cond.params) as Array<{ kind: string; n: number; versions: number }>;
    const by = (k: string) => rows.find((r) => r.kind === k)?.n ?? 0;
    return { web: by('web'), local: by('local'), memory: by('memory'), versions: rows.reduce((sum, r) => sum + (r.versions ?? 0), 0) };
  }
}

import { statSync } from 'node:fs';
import type Database from 'better-sqlite3';
import type { FetchQueueFilter, FetchQueueItem, ImportBatch, ImportBatchResult, ImportCheckpoint, VisitRecord } from '../history.js';
import {
  ALL_OWNERS,
  type Scope,
  type EmbeddingCounts, type EmbeddingResult, type EmbeddingTask, type VectorQuery, type VectorSpace,
  type BankRecord, type ChunkFilter, type ChunkHit, type ChunkQuery, type EntityCount, type EntityRef, type MemoryWrite, type MemoryWriteResult, type SourceRecord,
  type CatalogAccess, type CatalogCounts, type CatalogDocument, type CatalogEntry, type CatalogFilter, type InstanceState,
  type DocumentContent, type DocumentRecord, type DocumentRef, type DocumentWrite, type IndexedEntry, type IndexedKey, type OpenedInput, type OpenedRecord, type SearchOutcome, type SearchRequest, type Store, type StoreInfo, type UserRecord, type VersionRecord, type WriteResult,
} from '../types.js';
import { type Vocabulary, compileQuery } from './compile.js';
import { SqliteCatalog } from './catalog.js';
import { SqliteChunks } from './chunks.js';
import { guard } from './errors.js';
import { SqliteImports } from './imports.js';
import { SqliteMemory } from './memory.js';
import { SCHEMA_VERSION } from './migrations.js';
import { openDatabase } from './open.js';
import { type KeywordRebuild, rebuildKeywordIndex } from './reindex.js';
import { type DocumentRow, scopeCondition, toRecord } from './rows.js';
import { SqliteSearch } from './search.js';
import { StatementCache } from './statements.js';
import { SqliteUsers } from './users.js';
import { SqliteVectors } from './vectors.js';
import { SqliteViews } from './views.js';
import { SqliteWriter } from './write.js';

export interface SqliteStoreOptions {
  path: string;
  busyTimeoutMs: number;
}

const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

export class SqliteStore implements Store {
  private readonly db: Database.Database;
  private readonly stmts: StatementCache;
  private readonly writer: SqliteWriter;
  private readonly imports: SqliteImports;
  private readonly searcher: SqliteSearch;
  private readonly views: SqliteViews;
  private readonly users: SqliteUsers;
  private readonly memory: SqliteMemory;
  private readonly chunks: SqliteChunks;
  private readonly vocab: Vocabulary;
  private readonly vectors: SqliteVectors;
  private readonly catalog: SqliteCatalog;

  constructor(private readonly opts: SqliteStoreOptions) {
    this.db = openDatabase({ path: opts.path, busyTimeoutMs: opts.busyTimeoutMs });
    this.stmts = new StatementCache(this.db);
    this.writer = new SqliteWriter(this.db, this.stmts);
    this.imports = new SqliteImports(this.db, this.stmts, this.writer);
    this.searcher = new SqliteSearch(this.stmts);
    this.views = new SqliteViews(this.stmts, opts.path);
    this.users = new SqliteUsers(this.db, this.stmts, this.writer);
    this.memory = new SqliteMemory(this.db, this.stmts, this.writer);
    this.chunks = new SqliteChunks(this.stmts);
    this.vectors = new SqliteVectors(this.db, this.stmts);
    this.catalog = new SqliteCatalog(this.db, this.stmts);
    this.vocab = {
      withPrefix: (prefix, limit) => this.stmts.get('SELECT term FROM terms WHERE term > ? AND term < ? ORDER BY term LIMIT ?').pluck().all(prefix, `${prefix}\u{10ffff}`, limit) as string[],
      like: (pattern, limit) => this.stmts.get("SELECT term FROM terms WHERE term LIKE ? ESCAPE '\\' LIMIT ?").pluck().all(pattern, limit) as string[],
    };
  }

  /** The raw database, for benchmarks that compare against plain FTS5. */
  get database(): Database.Database {
    return this.db;
  }

  private run<T>(fn: () => T): Promise<T> {
    try {
      return Promise.resolve(guard(this.opts.path, fn));
    } catch (err) {
      return Promise.reject(err);
    }
  }

  info(): Promise<StoreInfo> {
    return this.run(() => {
      const inst = this.stmts.get('SELECT instance_id, epoch, revision FROM instance WHERE id = 1').get() as { instance_id: string; epoch: number; revision: number };
      const kinds = this.stmts.get('SELECT kind, count(*) AS n FROM documents GROUP BY kind').all() as Array<{ kind: string; n: number }>;
      const by = (k: string) => kinds.find((r) => r.kind === k)?.n ?? 0;
      const versions = this.stmts.get('SELECT count(*) FROM versions').pluck().get() as number;
      const chunks = this.stmts.get('SELECT count(*) FROM chunks').pluck().get() as number;
      return {
        backend: 'sqlite',
        location: this.opts.path,
        sizeBytes: fileSize(this.opts.path) + fileSize(`${this.opts.path}-wal`),
        instanceId: inst.instance_id,
        epoch: inst.epoch,
        revision: inst.revision,
        schemaVersion: SCHEMA_VERSION,
        counts: { documents: by('web') + by('local') + by('memory'), web: by('web'), local: by('local'), memory: by('memory'), versions, chunks },
      };
    });
  }

  writeDocuments(writes: DocumentWrite[]): Promise<WriteResult[]> {
    return this.run(() => this.writer.write(writes));
  }

  async writeDocument(write: DocumentWrite): Promise<WriteResult> {
    return (await this.writeDocuments([write]))[0]!;
  }

  /** By id when visible, else by exact url: the caller's own document first, then the global one (then any, for admins). */
  private findRow(idOrUrl: string, scope: Scope): DocumentRow | undefined {
    const cond = scopeCondition(scope);
    const where = cond ? ` AND ${cond.sql}` : '';
    const params = cond?.params ?? [];
    if (ULID.test(idOrUrl)) {
      const byId = this.stmts.get(`SELECT d.* FROM documents d WHERE d.id = ?${where}`).get(idOrUrl, ...params) as DocumentRow | undefined;
      if (byId) return byId;
    }
    const own = scope.all ? 0 : (scope.userId ?? 0);
    return this.stmts
      .get(`SELECT d.* FROM documents d WHERE d.url = ?${where} ORDER BY ifnull(d.owner_id, 0) = ? DESC, d.owner_id IS NULL DESC, d.seq LIMIT 1`)
      .get(idOrUrl, ...params, own) as DocumentRow | undefined;
  }

  getDocument(idOrUrl: string, scope: Scope = ALL_OWNERS): Promise<DocumentRecord | undefined> {
    return this.run(() => {
      const row = this.findRow(idOrUrl, scope);
      return row ? toRecord(row) : undefined;
    });
  }

  listVersions(documentId: string): Promise<VersionRecord[]> {
    return this.run(() => {
      const rows = this.stmts
        .get(`SELECT v.id, v.sha256, v.captured_at, length(v.text) AS len FROM versions v JOIN documents d ON d.seq = v.document_seq
              WHERE d.id = ? ORDER BY v.captured_at, v.id`)
        .all(documentId) as Array<{ id: number; sha256: string; captured_at: number; len: number }>;
      return rows.map((r) => ({ id: r.id, sha256: r.sha256, capturedAt: r.captured_at, textLength: r.len }));
    });
  }

  getText(documentId: string, versionId?: number): Promise<string | undefined> {
    return this.run(() => {
      const sql = versionId === undefined
        ? 'SELECT v.text FROM documents d JOIN versions v ON v.id = d.current_version_id WHERE d.id = ?'
        : 'SELECT v.text FROM documents d JOIN versions v ON v.document_seq = d.seq WHERE d.id = ? AND v.id = ?';
      const args = versionId === undefined ? [documentId] : [documentId, versionId];
      return this.stmts.get(sql).pluck().get(...args) as string | undefined;
    });
  }

  getContent(documentId: string, versionId?: number): Promise<DocumentContent | undefined> {
    return this.run(() => this.views.content(documentId, versionId));
  }

  listIndexed(page: { limit: number; after?: IndexedKey | undefined; scope?: Scope | undefined }): Promise<IndexedEntry[]> {
    return this.run(() => this.views.indexed(page.limit, page.after, page.scope));
  }

  recordOpened(input: OpenedInput): Promise<number> {
    return this.run(() => this.views.recordOpened(input));
  }

  listOpened(page: { limit: number; beforeId?: number | undefined; scope?: Scope | undefined }): Promise<OpenedRecord[]> {
    return this.run(() => this.views.opened(page.limit, page.beforeId, page.scope));
  }

  deleteDocument(documentId: string): Promise<boolean> {
    return this.run(() =>
      this.db.transaction(() => {
        const seq = this.stmts.get('SELECT seq FROM documents WHERE id = ?').pluck().get(documentId) as number | undefined;
        if (seq === undefined) return false;
        this.writer.deleteChunks(seq);
        this.stmts.get('DELETE FROM documents WHERE seq = ?').run(seq);
        this.stmts.get('UPDATE instance SET revision = revision + 1 WHERE id = 1').run();
        return true;
      }).immediate(),
    );
  }

  listDocumentUrls(prefix: string, source?: string): Promise<DocumentRef[]> {
    return this.run(() => {
      // A url range (not LIKE) so the (owner, url) index serves it and `%`/`_` in paths need no escaping.
      const sql = `SELECT id, url, source FROM documents WHERE ifnull(owner_id, 0) = 0 AND url >= ? AND url < ?${source === undefined ? '' : ' AND source = ?'} ORDER BY url`;
      const args = [prefix, `${prefix}\u{10ffff}`, ...(source === undefined ? [] : [source])];
      return this.stmts.get(sql).all(...args) as DocumentRef[];
    });
  }

  search(request: SearchRequest): Promise<SearchOutcome> {
    return this.run(() => {
      const compiled = compileQuery(request.query, this.vocab, { dateFrom: request.dateFrom, dateTo: request.dateTo });
      return this.searcher.run(compiled, request);
    });
  }

  recordImport(batch: ImportBatch): Promise<ImportBatchResult> {
    return this.run(() => this.imports.record(batch));
  }

  getImportCheckpoint(source: string, profile: string): Promise<ImportCheckpoint | undefined> {
    return this.run(() => this.imports.checkpoint(source, profile));
  }

  listVisits(url: string): Promise<VisitRecord[]> {
    return this.run(() => this.imports.visits(url));
  }

  listFetchQueue(filter: FetchQueueFilter): Promise<FetchQueueItem[]> {
    return this.run(() => this.imports.queue(filter));
  }

  finishFetch(id: number, errorCode: string | null): Promise<boolean> {
    return this.run(() => this.imports.finishFetch(id, errorCode));
  }

  createUser(name: string, admin: boolean, tokenHash: string): Promise<UserRecord> {
    return this.run(() => this.users.create(name, admin, tokenHash));
  }

  deleteUser(name: string): Promise<boolean> {
    return this.run(() => this.users.delete(name));
  }

  getUser(name: string): Promise<UserRecord | undefined> {
    return this.run(() => this.users.get(name));
  }

  listUsers(): Promise<UserRecord[]> {
    return this.run(() => this.users.list());
  }

  replaceToken(userId: number, tokenHash: string): Promise<UserRecord | undefined> {
    return this.run(() => this.users.replaceToken(userId, tokenHash));
  }

  userByTokenHash(tokenHash: string, now = Date.now()): Promise<UserRecord | undefined> {
    return this.run(() => this.users.byTokenHash(tokenHash, now));
  }

  getBank(ownerId: number | null, name: string): Promise<BankRecord | undefined> {
    return this.run(() => this.memory.bank(ownerId, name));
  }

  listBanks(ownerId: number | null): Promise<BankRecord[]> {
    return this.run(() => this.memory.banks(ownerId));
  }

  deleteBank(ownerId: number | null, name: string): Promise<number | undefined> {
    return this.run(() => this.memory.deleteBank(ownerId, name));
  }

  retainMemory(write: MemoryWrite): Promise<MemoryWriteResult> {
    return this.run(() => this.memory.retain(write));
  }

  searchChunks(query: ChunkQuery): Promise<ChunkHit[]> {
    return this.run(() => this.chunks.search(query));
  }

  getChunk(chunkId: number, filter: ChunkFilter): Promise<ChunkHit | undefined> {
    return this.run(() => this.chunks.get(chunkId, filter));
  }

  chunkEntities(chunkIds: number[]): Promise<Map<number, EntityRef[]>> {
    return this.run(() => this.chunks.entitiesOf(chunkIds));
  }

  topEntities(filter: ChunkFilter, options: { kind?: string | undefined; limit: number }): Promise<EntityCount[]> {
    return this.run(() => this.chunks.topEntities(filter, options.kind, options.limit));
  }

  listSources(filter: ChunkFilter, options: { email?: string | undefined } = {}): Promise<SourceRecord[]> {
    return this.run(() => this.chunks.sources(filter, options.email));
  }

  openVectors(space: VectorSpace): Promise<{ reset: boolean }> {
    return this.run(() => this.vectors.open(space));
  }

  pendingEmbeddings(limit: number): Promise<EmbeddingTask[]> {
    return this.run(() => this.vectors.pending(limit));
  }

  storeEmbeddings(space: VectorSpace, results: EmbeddingResult[]): Promise<number> {
    return this.run(() => this.vectors.store(space, results));
  }

  failEmbeddings(tasks: Array<{ chunkId: number; ticket: number }>): Promise<void> {
    return this.run(() => this.vectors.fail(tasks));
  }

  searchVectors(q: VectorQuery): Promise<ChunkHit[] | undefined> {
    return this.run(() => {
      const nearest = this.vectors.nearest(q.space, q.vector, q.filter, q.limit);
      return nearest?.flatMap(([id, similarity]) => {
        const hit = this.chunks.get(id, q.filter);
        return hit ? [{ ...hit, score: similarity }] : [];
      });
    });
  }

  requeueEmbeddings(): Promise<number> {
    return this.run(() => this.vectors.requeueAll());
  }

  embeddingCounts(): Promise<EmbeddingCounts> {
    return this.run(() => this.vectors.counts());
  }

  instanceState(): Promise<InstanceState> {
    return this.run(() => this.catalog.instance());
  }

  listCatalog(filter: CatalogFilter): Promise<{ revision: number; entries: CatalogEntry[] }> {
    return this.run(() => this.catalog.list(filter));
  }

  catalogDocuments(ids: readonly string[], access: CatalogAccess): Promise<CatalogDocument[]> {
    return this.run(() => this.catalog.documents(ids, access));
  }

  findCatalogDocument(idOrUrl: string, access: CatalogAccess): Promise<CatalogDocument | undefined> {
    return this.run(() => this.catalog.find(idOrUrl, access));
  }

  countCatalog(access: CatalogAccess): Promise<CatalogCounts> {
    return this.run(() => this.catalog.counts(access));
  }

  rebuildKeywordIndex(): Promise<KeywordRebuild> {
    return this.run(() => rebuildKeywordIndex(this.db));
  }

  beginEpoch(): Promise<number> {
    return this.run(() =>
      this.db.transaction(() => {
        this.stmts.get('UPDATE instance SET epoch = epoch + 1 WHERE id = 1').run();
        return this.stmts.get('SELECT epoch FROM instance WHERE id = 1').pluck().get() as number;
      }).immediate(),
    );
  }

  close(): Promise<void> {
    return this.run(() => {
      if (this.db.open) this.db.close();
    });
  }
}

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}


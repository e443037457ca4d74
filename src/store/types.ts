import type { Query } from '../engine/query/ast.js';
import type { FetchQueueFilter, FetchQueueItem, ImportBatch, ImportBatchResult, ImportCheckpoint, VisitRecord } from './history.js';

// The storage contract every backend implements; the contract suite in test/store runs against each.

/** Passages kept per document (chunk ids reserve 12 bits for the ordinal). */
export const MAX_CHUNKS = 4096;

export type DocumentKind = 'web' | 'local' | 'memory';

/** Whose documents a call sees: every owner's, or the global ones plus one user's (`userId` null: global only). */
export type Scope = { all: true; userId?: undefined } | { all?: undefined; userId: number | null };
export const ALL_OWNERS: Scope = { all: true };

export interface DocumentRecord {
  id: string;
  kind: DocumentKind;
  url: string;
  title: string;
  domain: string;
  language: string;
  label: string | null;
  source: string;
  metadata: Record<string, unknown>;
  addedAt: number;
  updatedAt: number;
  versionCount: number;
  /** The user a personal document belongs to; null for a global document. */
  ownerId: number | null;
  /** The bank a memory belongs to; null (or absent) for a document in no bank. */
  bankId?: number | null | undefined;
}

/** Just enough of a document to find it again or decide about it in bulk. */
export interface DocumentRef {
  id: string;
  url: string;
  source: string;
}

export interface VersionRecord {
  id: number;
  sha256: string;
  capturedAt: number;
  textLength: number;
}

export interface ChunkInput {
  ordinal: number;
  /** Code-point offsets into the version text. */
  start: number;
  end: number;
  text: string;
}

export interface DocumentWrite {
  kind: DocumentKind;
  url: string;
  title: string;
  domain: string;
  language: string;
  label: string | null;
  source: string;
  metadata: Record<string, unknown>;
  text: string;
  html: string | null;
  rawHtml: string | null;
  sha256: string;
  capturedAt: number;
  chunks: ChunkInput[];
  /** The user the document belongs to; absent or null: global. */
  ownerId?: number | null | undefined;
}

export interface WriteResult {
  document: DocumentRecord;
  created: boolean;
  versionAdded: boolean;
  /** Anything about the document changed (content or attributes). */
  changed: boolean;
  revision: number;
}

export interface SearchWeights {
  title: number;
  domain: number;
  url: number;
  text: number;
}

export interface SearchRequest {
  query: Query;
  /** Results the caller wants. */
  limit: number;
  /** How many full matches to return for reranking (>= limit). */
  window: number;
  dateFrom?: number | undefined;
  dateTo?: number | undefined;
  weights: SearchWeights;
  /** Default: every owner's documents. */
  scope?: Scope | undefined;
  /** The one bank whose memories may match; absent or null: nothing that is in a bank. */
  bankId?: number | null | undefined;
}

export interface Candidate {
  document: DocumentRecord;
  /** Higher is better; BM25 of the document's best chunk, 0 when the query has no words. */
  score: number;
  match: 'full' | 'partial';
  chunkText: string;
}

export interface SearchOutcome {
  candidates: Candidate[];
  /** Documents that match the whole query, exact up to a cap. */
  total: number;
  /** False when `total` is a lower bound (the cap was reached). */
  totalExact: boolean;
  /** Words of a multi-word query, in order, for the exact-phrase boost; null otherwise. */
  phrase: string[] | null;
  /** Folded words of the positive bare terms (for the domain boost). */
  bareWords: string[];
  /** Stems to mark in snippets. */
  highlight: string[];
}

/** A version's stored content. */
export interface DocumentContent {
  text: string;
  /** Sanitized rendered preview HTML, or null when the extractor rendered none. */
  html: string | null;
  /** The captured HTML as it was stored (after redaction), decompressed; null for text, PDF and title-only inputs. */
  rawHtml: string | null;
}

/** Position in the indexed history: (updatedAt, seq) of the last item seen; the next page starts after it. */
export interface IndexedKey {
  at: number;
  seq: number;
}

export interface IndexedEntry {
  document: DocumentRecord;
  /** This entry's position, for the page after it. */
  key: IndexedKey;
}

export interface OpenedInput {
  /** Whose history it is; absent or null: the instance owner's. */
  ownerId?: number | null | undefined;
  url: string;
  title: string;
  query: string;
  openedAt: number;
}

export interface OpenedRecord {
  id: number;
  url: string;
  title: string;
  query: string;
  openedAt: number;
  /** Versions of the document at that url now; 0 when the url is not indexed (any more). */
  versionCount: number;
}

/** A user of multi-user mode. Token hashes never leave the store. */
export interface UserRecord {
  id: number;
  name: string;
  isAdmin: boolean;
  createdAt: number;
  /** When the current token was made; null when the user has none. */
  tokenCreatedAt: number | null;
  /** Latest use of the token, kept to within TOKEN_TOUCH_INTERVAL_MS; null when never used. */
  tokenLastUsedAt: number | null;
}

/** A token's last_used_at is written at most this often, so authenticating is not a write per request. */
export const TOKEN_TOUCH_INTERVAL_MS = 60_000;

/** A memory bank: belongs to a user (ownerId) or to the instance owner (null). */
export interface BankRecord {
  id: number;
  name: string;
  ownerId: number | null;
  createdAt: number;
  memoryCount: number;
  /** Latest updatedAt of its memories; null when it holds none. */
  lastActivity: number | null;
}

/** One memory to retain; the store makes its url (`memory:<bank>/<id>`) and merges an exact duplicate. */
export interface MemoryWrite {
  ownerId: number | null;
  bank: string;
  /** The normalized text; `document.sha256` is its hash, the key duplicates are found by. */
  document: Omit<DocumentWrite, 'url' | 'kind' | 'ownerId'>;
}

export interface MemoryWriteResult {
  document: DocumentRecord;
  /** True when the same text was in the bank already: nothing new was stored. */
  merged: boolean;
  /** How often this text was retained, this time included. */
  retainedCount: number;
  revision: number;
}

/** Which chunks a call may see: documents in `scope` that are in no bank, plus the memories of one bank. */
export interface ChunkFilter {
  scope: Scope;
  /** The bank whose memories are visible; null: no memories. */
  bankId: number | null;
  kinds?: DocumentKind[] | undefined;
  /** (kind, source label) pairs; see sourceLabel in the sqlite store. */
  sources?: Array<{ kind: DocumentKind; label: string }> | undefined;
  /** Chunks linked to any of these entities. */
  entityIds?: number[] | undefined;
  /** Inclusive bounds on the document's updatedAt, in ms. */
  since?: number | undefined;
  until?: number | undefined;
}

export interface ChunkQuery {
  filter: ChunkFilter;
  /** Folded words, any of which may match (BM25 ranks); null or empty: newest documents first. */
  words?: string[] | null | undefined;
  limit: number;
  offset?: number | undefined;
  weights: SearchWeights;
}

export interface ChunkHit {
  /** The chunk's row id. */
  chunkId: number;
  documentId: string;
  kind: DocumentKind;
  /** The document's source label: its `source`, or for a local document its label when it has one. */
  sourceLabel: string;
  title: string;
  url: string;
  metadata: Record<string, unknown>;
  ordinal: number;
  start: number;
  end: number;
  text: string;
  updatedAt: number;
  /** Higher is better; 0 when listed without words. */
  score: number;
}

export interface EntityRef {
  id: number;
  kind: string;
  name: string;
  /** Mentions in the chunk (or summed over the chunks asked about). */
  mentions: number;
}

export interface EntityCount {
  id: number;
  kind: string;
  name: string;
  mentions: number;
  chunkCount: number;
  /** Latest updatedAt of a visible document mentioning it. */
  lastSeen: number;
}

export interface SourceRecord {
  kind: DocumentKind;
  label: string;
  documentCount: number;
  chunkCount: number;
  lastActivity: number;
}

/** The model and vector length stored vectors were made with; vectors of two spaces never mix. */
export interface VectorSpace {
  model: string;
  dimensions: number;
}

/** A chunk waiting for its embedding. */
export interface EmbeddingTask {
  chunkId: number;
  /** Changes whenever the chunk is written again: an answer for an older ticket is not stored. */
  ticket: number;
  kind: DocumentKind;
  /** The document's title. */
  title: string;
  text: string;
}

export interface EmbeddingResult {
  chunkId: number;
  ticket: number;
  vector: Float32Array;
}

export interface VectorQuery {
  space: VectorSpace;
  vector: Float32Array;
  filter: ChunkFilter;
  limit: number;
}

export interface EmbeddingCounts {
  /** The space of the stored vectors; null before semantic search first ran on this store. */
  space: VectorSpace | null;
  /** Chunks with a vector. */
  embedded: number;
  /** Chunks waiting for one. */
  queued: number;
  /** Chunks the endpoint refused (they wait until they change or the model does). */
  failed: number;
}

/** What a catalog call sees: documents in `scope` (memories excepted) plus the memories of one bank. */
export interface CatalogAccess {
  scope: Scope;
  /** The bank whose memories are visible; null: no memories. */
  bankId: number | null;
}

/** Exact filters of a catalog listing. */
export interface CatalogFilter extends CatalogAccess {
  kind?: DocumentKind | undefined;
  label?: string | undefined;
  domain?: string | undefined;
}

/** What a listing is filtered and ordered by. */
export interface CatalogEntry {
  id: string;
  url: string;
  title: string;
  label: string | null;
}

export interface CatalogDocument extends DocumentRecord {
  /** The version read_text reads by default; null when the document has none. */
  currentVersionId: number | null;
}

/** The instance row: stable id, process lifetime, catalog revision. */
export interface InstanceState {
  instanceId: string;
  epoch: number;
  revision: number;
}

export interface CatalogCounts {
  web: number;
  local: number;
  memory: number;
  versions: number;
}

export interface StoreInfo {
  backend: string;
  location: string;
  sizeBytes: number;
  instanceId: string;
  epoch: number;
  revision: number;
  schemaVersion: number;
  counts: { documents: number; web: number; local: number; memory: number; versions: number; chunks: number };
}

export interface Store {
  info(): Promise<StoreInfo>;
  /** Adds or updates a document by (owner, url); unchanged content adds no version. */
  writeDocument(write: DocumentWrite): Promise<WriteResult>;
  /** The same for many documents in one transaction: all are stored or none. */
  writeDocuments(writes: DocumentWrite[]): Promise<WriteResult[]>;
  /** By ULID or exact url. */
  getDocument(idOrUrl: string, scope?: Scope): Promise<DocumentRecord | undefined>;
  listVersions(documentId: string): Promise<VersionRecord[]>;
  /** Text of the current version, or of `versionId`. */
  getText(documentId: string, versionId?: number): Promise<string | undefined>;
  /** Text, rendered and raw HTML of the current version, or of `versionId`. */
  getContent(documentId: string, versionId?: number): Promise<DocumentContent | undefined>;
  deleteDocument(documentId: string): Promise<boolean>;
  /** Global documents (memories excepted), newest capture first by (updatedAt, seq) descending, starting after `after`. */
  listIndexed(page: { limit: number; after?: IndexedKey | undefined; scope?: Scope | undefined }): Promise<IndexedEntry[]>;
  /** Records a search result the user opened, linked to the global document with exactly that url if any; the new id. */
  recordOpened(input: OpenedInput): Promise<number>;
  /** Opened results, newest first (id descending), with ids below `beforeId` when given. */
  listOpened(page: { limit: number; beforeId?: number | undefined; scope?: Scope | undefined }): Promise<OpenedRecord[]>;
  /** Global documents whose url starts with `prefix` (optionally only from `source`), ordered by url. */
  listDocumentUrls(prefix: string, source?: string): Promise<DocumentRef[]>;
  search(request: SearchRequest): Promise<SearchOutcome>;
  /** Stores one batch of imported history/bookmarks in one transaction (see ImportBatch); re-importing never double-counts. */
  recordImport(batch: ImportBatch): Promise<ImportBatchResult>;
  getImportCheckpoint(source: string, profile: string): Promise<ImportCheckpoint | undefined>;
  /** Imported visits of a global url, one record per source. */
  listVisits(url: string): Promise<VisitRecord[]>;
  /** Fetch-queue items in the given states, oldest first. */
  listFetchQueue(filter: FetchQueueFilter): Promise<FetchQueueItem[]>;
  /** Records an attempt: done when `errorCode` is null, else failed with that code. False for an unknown id. */
  finishFetch(id: number, errorCode: string | null): Promise<boolean>;
  /** A new user with one token (by its hash); CONFLICT when the name is taken. */
  createUser(name: string, admin: boolean, tokenHash: string): Promise<UserRecord>;
  /** Removes the user with their tokens, banks, personal documents and history; false for an unknown name. */
  deleteUser(name: string): Promise<boolean>;
  getUser(name: string): Promise<UserRecord | undefined>;
  /** All users, ordered by name. */
  listUsers(): Promise<UserRecord[]>;
  /** Makes `tokenHash` the user's only token in one transaction (the old ones stop working at once); undefined for an unknown id. */
  replaceToken(userId: number, tokenHash: string): Promise<UserRecord | undefined>;
  /** The user whose token has this hash; records the use at `now` when the last record is TOKEN_TOUCH_INTERVAL_MS old. */
  userByTokenHash(tokenHash: string, now?: number): Promise<UserRecord | undefined>;
  /** A bank by owner and name. */
  getBank(ownerId: number | null, name: string): Promise<BankRecord | undefined>;
  /** An owner's banks, by name. */
  listBanks(ownerId: number | null): Promise<BankRecord[]>;
  /** Removes a bank with its memories; the number of memories removed, undefined when there is no such bank. */
  deleteBank(ownerId: number | null, name: string): Promise<number | undefined>;
  /** Stores a memory (creating its bank on first use) or, for text the bank holds already, bumps that memory's retained_count and updatedAt. */
  retainMemory(write: MemoryWrite): Promise<MemoryWriteResult>;
  /** Visible chunks: ranked by BM25 over any of `words`, else newest document first. */
  searchChunks(query: ChunkQuery): Promise<ChunkHit[]>;
  /** One chunk, when the filter lets the caller see it. */
  getChunk(chunkId: number, filter: ChunkFilter): Promise<ChunkHit | undefined>;
  /** Entities linked to each chunk, most mentioned first. */
  chunkEntities(chunkIds: number[]): Promise<Map<number, EntityRef[]>>;
  /** Entities most mentioned in the visible chunks. */
  topEntities(filter: ChunkFilter, options: { kind?: string | undefined; limit: number }): Promise<EntityCount[]>;
  /** Distinct (kind, source label) pairs of visible documents, latest activity first; with `email`, only sources whose chunks mention that email entity. */
  listSources(filter: ChunkFilter, options?: { email?: string | undefined }): Promise<SourceRecord[]>;
  /** Makes the vector index match `space`; another model or length drops every vector and queues every chunk (reset true). */
  openVectors(space: VectorSpace): Promise<{ reset: boolean }>;
  /** Up to `limit` queued chunks, in queue order (after openVectors); chunks are queued by every write that adds, changes or removes them. */
  pendingEmbeddings(limit: number): Promise<EmbeddingTask[]>;
  /** Stores vectors of tasks whose ticket is still current and takes them off the queue; the number stored (0 when the space changed). */
  storeEmbeddings(space: VectorSpace, results: EmbeddingResult[]): Promise<number>;
  /** Takes chunks the endpoint refused off the queue until they change or the model does. */
  failEmbeddings(tasks: Array<{ chunkId: number; ticket: number }>): Promise<void>;
  /** Nearest visible chunks, best first, score = cosine similarity; undefined when no vectors of this space are stored. */
  searchVectors(query: VectorQuery): Promise<ChunkHit[] | undefined>;
  /** Queues every chunk for embedding again (reindex); 0 when no vector space exists yet. */
  requeueEmbeddings(): Promise<number>;
  embeddingCounts(): Promise<EmbeddingCounts>;
  /** The instance row alone (no counting): cheap enough for every catalog call. */
  instanceState(): Promise<InstanceState>;
  /** Visible documents matching the exact filters, ordered by url then id, with the revision they were read at (one read transaction). */
  listCatalog(filter: CatalogFilter): Promise<{ revision: number; entries: CatalogEntry[] }>;
  /** The visible documents among `ids`, in no particular order. */
  catalogDocuments(ids: readonly string[], access: CatalogAccess): Promise<CatalogDocument[]>;
  /** One visible document by ULID or exact url (the caller's own first, then the global one). */
  findCatalogDocument(idOrUrl: string, access: CatalogAccess): Promise<CatalogDocument | undefined>;
  /** Visible documents by kind and their versions. */
  countCatalog(access: CatalogAccess): Promise<CatalogCounts>;
  /** Empties the keyword index and fills it again from the stored chunks, in one transaction. */
  rebuildKeywordIndex(): Promise<{ documents: number; chunks: number }>;
  /** Starts a new process lifetime: bumps and returns the epoch. */
  beginEpoch(): Promise<number>;
  close(): Promise<void>;
}

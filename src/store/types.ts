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
  /** Starts a new process lifetime: bumps and returns the epoch. */
  beginEpoch(): Promise<number>;
  close(): Promise<void>;
}

import { CursorCodec, SNAPSHOT_LIMITS, SnapshotCache, type SnapshotLimits } from './catalog-cursor.js';
import type { CodePointIndex } from './paging.js';

// What the catalog keeps between calls, per app: the clock, cursor keys and snapshots, and small caches.

/** The whole-text facts read_text needs per version; versions never change, so they are cached. */
export interface TextFacts {
  sha256: string;
  index: CodePointIndex;
}

/** A bounded map that forgets its least recently used entries. */
export class LruMap<K, V> {
  private readonly map = new Map<K, V>();

  constructor(private readonly capacity: number) {}

  get(key: K): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }

  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value as K);
  }
}

export interface CatalogOptions {
  /** Time source for cursor expiry; default Date.now. */
  now?: (() => number) | undefined;
  snapshots?: Partial<SnapshotLimits> | undefined;
}

export class CatalogState {
  readonly now: () => number;
  readonly cursors = new CursorCodec();
  readonly snapshots: SnapshotCache;
  /** By `${documentId}:${versionId}`. */
  readonly texts = new LruMap<string, TextFacts>(128);
  /** Whether a file's content (by sha256) holds text the redactor would replace. */
  readonly redacted = new LruMap<string, boolean>(256);
  /** Computed on first use (service/build-id.ts). */
  buildId: string | undefined;

  constructor(options: CatalogOptions = {}) {
    this.now = options.now ?? Date.now;
    this.snapshots = new SnapshotCache(this.now, { ...SNAPSHOT_LIMITS, ...options.snapshots });
  }
}

import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { TroveError } from '../errors.js';

// list_documents cursors: signed (revision, filter fingerprint, position, issue time) tokens, and the
// revision-pinned snapshots (ordered ids) their pages are cut from.

/** What a cursor carries. */
export interface CursorState {
  /** Process lifetime it was issued in. */
  epoch: number;
  /** Catalog revision its pages are pinned to. */
  revision: number;
  /** Hash of the filters it was issued for. */
  fingerprint: string;
  /** Hash of the view (caller's scope and bank) it was issued for. */
  view: string;
  /** Index of the next document in the snapshot. */
  position: number;
  /** When it was issued (ms, the catalog clock). */
  issuedAt: number;
}

const MAX_CURSOR_CHARS = 1024;

function invalid(reason: string): TroveError {
  return new TroveError('INVALID_ARGUMENT', `cursor is not one this server issued (${reason}); start a new listing without it`, { field: 'cursor', reason: 'cursor_invalid' });
}

/** Cursors signed with a per-process key: a client can hand them back but not forge or edit them. */
export class CursorCodec {
  private readonly key = randomBytes(32);

  private sign(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url').slice(0, 22);
  }

  encode(state: CursorState): string {
    const body = Buffer.from(JSON.stringify([state.epoch, state.revision, state.fingerprint, state.view, state.position, state.issuedAt])).toString('base64url');
    return `${body}.${this.sign(body)}`;
  }

  /** The cursor's state; CURSOR_EXPIRED for one of another process lifetime, INVALID_ARGUMENT for anything not issued here. */
  decode(cursor: string, epoch: number): CursorState {
    if (cursor.length > MAX_CURSOR_CHARS) throw invalid('too long');
    const [body, signature, ...extra] = cursor.split('.');
    if (!body || !signature || extra.length) throw invalid('malformed');
    let fields: unknown;
    try {
      fields = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    } catch {
      throw invalid('malformed');
    }
    if (!Array.isArray(fields) || fields.length !== 6) throw invalid('malformed');
    const [e, revision, fingerprint, view, position, issuedAt] = fields as unknown[];
    if (![e, revision, position, issuedAt].every((n) => Number.isSafeInteger(n) && (n as number) >= 0) || typeof fingerprint !== 'string' || typeof view !== 'string') throw invalid('malformed');
    // Another lifetime signed it with another key: it expired with that process.
    if (e !== epoch) throw new TroveError('CURSOR_EXPIRED', 'the cursor is from before the server restarted; start a new listing', { field: 'cursor' });
    const want = Buffer.from(this.sign(body));
    const got = Buffer.from(signature);
    if (want.length !== got.length || !timingSafeEqual(want, got)) throw invalid('bad signature');
    return { epoch: e as number, revision: revision as number, fingerprint, view, position: position as number, issuedAt: issuedAt as number };
  }
}

/** The ordered ids of one listing at one revision, for one caller's view and filters. */
export interface Snapshot {
  key: string;
  revision: number;
  ids: readonly string[];
  bytes: number;
  expiresAt: number;
}

export interface SnapshotLimits {
  /** How long a snapshot is kept after its latest cursor was issued. */
  ttlMs: number;
  maxCount: number;
  maxBytes: number;
}

export const SNAPSHOT_LIMITS: SnapshotLimits = { ttlMs: 60_000, maxCount: 64, maxBytes: 32 * 1024 * 1024 };

// A JS string of a 26-character ULID plus its array slot and headers, generously.
const BYTES_PER_ID = 80;

/** Snapshots in memory, least recently used first, bounded in count and bytes; expired ones are dropped. */
export class SnapshotCache {
  private readonly byKey = new Map<string, Snapshot>();
  private bytes = 0;

  constructor(
    private readonly now: () => number,
    private readonly limits: SnapshotLimits = SNAPSHOT_LIMITS,
  ) {}

  get ttlMs(): number {
    return this.limits.ttlMs;
  }

  /** Keeps a new snapshot (replacing one under the same key); one that alone exceeds the byte bound is not kept. */
  put(key: string, revision: number, ids: readonly string[]): Snapshot {
    this.remove(key);
    const snapshot: Snapshot = { key, revision, ids, bytes: 256 + ids.length * BYTES_PER_ID, expiresAt: this.now() + this.limits.ttlMs };
    this.byKey.set(key, snapshot);
    this.bytes += snapshot.bytes;
    this.evict(snapshot);
    return snapshot;
  }

  /** A live snapshot, marked as just used. */
  get(key: string): Snapshot | undefined {
    this.expire();
    const s = this.byKey.get(key);
    if (!s) return undefined;
    this.byKey.delete(key);
    this.byKey.set(key, s);
    return s;
  }

  /** A new cursor into the snapshot was issued: it lives at least ttl from now. */
  extend(snapshot: Snapshot): void {
    snapshot.expiresAt = Math.max(snapshot.expiresAt, this.now() + this.limits.ttlMs);
  }

  /** Drops snapshots of revisions older than `revision` (their cursors can no longer be served). */
  dropBefore(revision: number): void {
    for (const s of [...this.byKey.values()]) if (s.revision < revision) this.remove(s.key);
  }

  get size(): number {
    return this.byKey.size;
  }

  private remove(key: string): void {
    const s = this.byKey.get(key);
    if (!s) return;
    this.byKey.delete(key);
    this.bytes -= s.bytes;
  }

  private expire(): void {
    const now = this.now();
    for (const s of [...this.byKey.values()]) if (s.expiresAt < now) this.remove(s.key);
  }

  /** Oldest first, never the one just added unless it alone is over the byte bound. */
  private evict(keep: Snapshot): void {
    this.expire();
    for (const s of [...this.byKey.values()]) {
      if (this.byKey.size <= this.limits.maxCount && this.bytes <= this.limits.maxBytes) return;
      if (s !== keep) this.remove(s.key);
    }
    if (this.bytes > this.limits.maxBytes) this.remove(keep.key);
  }
}

import { TroveError, toPublicError } from '../../errors.js';
import { ulid } from '../../util/ulid.js';
import { fingerprint } from './fingerprint.js';
import {
  type Artifact, DEFAULT_LIMITS, type OperationLimits, type OperationRecord, type OperationResult, type OperationRunner, type OperationState,
  type RunContext, type SubmitRequest, TERMINAL_STATES,
} from './types.js';

// The operation manager (seed 004): request keys, admission, one active job, cancellation, tombstones and the
// retention budget. Pure logic: the clock and the runner are injected; no timers, expiry is checked on each call.

export interface ManagerOptions {
  runner: OperationRunner;
  now?: (() => number) | undefined;
  limits?: Partial<OperationLimits> | undefined;
  /** Told about failures that are faults of ours (the caller only sees INTERNAL). */
  onInternalError?: (op: OperationRecord, err: unknown) => void;
}

export interface OperationStats {
  queued: number;
  active: number;
  terminal: number;
  retainedBytes: number;
}

export class OperationManager {
  private readonly runner: OperationRunner;
  private readonly now: () => number;
  readonly limits: OperationLimits;
  private readonly onInternalError: ((op: OperationRecord, err: unknown) => void) | undefined;
  private readonly byId = new Map<string, OperationRecord>();
  private readonly byKey = new Map<string, OperationRecord>();
  private readonly queue: OperationRecord[] = [];
  /** Terminal operations still holding a result or error, oldest first. */
  private readonly retained: OperationRecord[] = [];
  private readonly artifacts = new Map<string, Artifact>();
  private retainedBytes = 0;
  private active: OperationRecord | undefined;
  private activeDone: Promise<void> | undefined;
  private closed = false;

  constructor(opts: ManagerOptions) {
    this.runner = opts.runner;
    this.now = opts.now ?? Date.now;
    this.limits = { ...DEFAULT_LIMITS, ...opts.limits };
    this.onInternalError = opts.onInternalError;
  }

  /**
   * The operation this request key already names, if any: the same one for the same parameters,
   * REQUEST_KEY_CONFLICT for others, OPERATION_NOT_FOUND when its result was evicted (it never runs again).
   */
  replay(req: Pick<SubmitRequest, 'principal' | 'epoch' | 'requestKey' | 'kind' | 'params'>): OperationRecord | undefined {
    this.sweep();
    const found = this.byKey.get(keyOf(req));
    if (!found) return undefined;
    if (found.fingerprint !== fingerprint(req.kind, req.params)) {
      throw new TroveError('REQUEST_KEY_CONFLICT', 'this requestKey was used for another operation or other parameters; use a new key per intended execution', { requestKey: req.requestKey });
    }
    if (found.evicted) throw notFound();
    return found;
  }

  /** Admits a new operation (or returns the one its key names); QUEUE_FULL when the limits are reached. */
  submit(req: SubmitRequest): { operation: OperationRecord; replayed: boolean } {
    const existing = this.replay(req);
    if (existing) return { operation: existing, replayed: true };
    if (this.closed) throw new TroveError('CAPABILITY_UNAVAILABLE', 'the server is shutting down; operations are not accepted');
    this.admit(req.principal);
    const createdAt = this.now();
    const op: OperationRecord = {
      id: `op_${req.epoch}_${ulid(createdAt)}`,
      principal: req.principal,
      requestKey: req.requestKey,
      kind: req.kind,
      params: req.params,
      fingerprint: fingerprint(req.kind, req.params),
      epoch: req.epoch,
      revision: req.revision,
      state: 'queued',
      createdAt,
      evicted: false,
      retainedBytes: 0,
      artifacts: new Map(),
      controller: new AbortController(),
      context: req.context,
    };
    this.byId.set(op.id, op);
    this.byKey.set(keyOf(req), op);
    this.queue.push(op);
    this.pump();
    return { operation: op, replayed: false };
  }

  /** The caller's own operation; OPERATION_NOT_FOUND for unknown, expired, evicted and other callers' ids alike. */
  get(principal: string, id: string): OperationRecord {
    this.sweep();
    const op = this.byId.get(id);
    if (!op || op.principal !== principal || op.evicted) throw notFound();
    return op;
  }

  /** A queued operation is cancelled at once; a running one is asked to stop and is `cancelling` until it has. */
  cancel(principal: string, id: string): OperationRecord {
    const op = this.get(principal, id);
    if (op.state === 'queued') {
      this.queue.splice(this.queue.indexOf(op), 1);
      this.finish(op, 'cancelled');
    } else if (op.state === 'running') {
      op.state = 'cancelling';
      op.controller.abort();
    }
    return op;
  }

  artifact(principal: string, artifactId: string): Artifact {
    this.sweep();
    const found = this.artifacts.get(artifactId);
    const op = found ? this.byId.get(found.operationId) : undefined;
    if (!found || !op || op.principal !== principal || op.evicted) throw new TroveError('NOT_FOUND', 'no such artifact: it expired, was evicted or belongs to another lifetime or caller');
    return found;
  }

  stats(): OperationStats {
    this.sweep();
    const terminal = [...this.byId.values()].filter((op) => TERMINAL_STATES.has(op.state)).length;
    return { queued: this.queue.length, active: this.active ? 1 : 0, terminal, retainedBytes: this.retainedBytes };
  }

  /** Cancels what waits, aborts what runs and waits for its cleanup. */
  async close(): Promise<void> {
    this.closed = true;
    for (const op of this.queue.splice(0)) this.finish(op, 'cancelled');
    if (this.active) {
      this.active.state = 'cancelling';
      this.active.controller.abort();
    }
    await this.activeDone;
  }

  private admit(principal: string): void {
    if (this.byId.size >= this.limits.tombstones) {
      const oldest = Math.min(...[...this.byId.values()].map((op) => op.finishedAt ?? Infinity));
      const retryAfter = Number.isFinite(oldest) ? Math.max(1, Math.ceil((oldest + this.limits.tombstoneMs - this.now()) / 1000)) : 1;
      throw new TroveError('QUEUE_FULL', `${this.limits.tombstones} operations are retained; admission resumes as they expire`, { reason: 'tombstones', retryAfterSeconds: retryAfter });
    }
    if (this.queue.filter((op) => op.principal === principal).length >= this.limits.waitingPerPrincipal) {
      throw new TroveError('QUEUE_FULL', `${this.limits.waitingPerPrincipal} of your operations are already waiting; retry when one has started`, { reason: 'waiting_per_caller', limit: this.limits.waitingPerPrincipal });
    }
    if (this.queue.length >= this.limits.waitingTotal) {
      throw new TroveError('QUEUE_FULL', `${this.limits.waitingTotal} operations are already waiting; retry later`, { reason: 'waiting_total', limit: this.limits.waitingTotal });
    }
  }

  /** Forgets terminal operations whose ten minutes are over: their ids and keys are unknown from then on. */
  private sweep(): void {
    const now = this.now();
    for (const op of this.byId.values()) {
      if (op.finishedAt === undefined || op.finishedAt + this.limits.tombstoneMs > now) continue;
      this.drop(op);
      this.byId.delete(op.id);
      if (this.byKey.get(keyOf(op)) === op) this.byKey.delete(keyOf(op));
    }
  }

  private pump(): void {
    if (this.active || this.closed) return;
    const next = this.queue.shift();
    if (!next) return;
    this.active = next;
    next.state = 'running';
    next.startedAt = this.now();
    this.activeDone = this.execute(next).finally(() => {
      this.active = undefined;
      this.activeDone = undefined;
      this.pump();
    });
  }

  private async execute(op: OperationRecord): Promise<void> {
    const ctx: RunContext = {
      signal: op.controller.signal,
      progress: (p) => {
        op.progress = p;
      },
      addArtifact: (mimeType, bytes) => this.addArtifact(op, mimeType, bytes),
    };
    try {
      const result = await this.runner(op, ctx);
      this.finish(op, 'completed', result);
    } catch (err) {
      if (op.controller.signal.aborted) return this.finish(op, 'cancelled');
      const error = toPublicError(err);
      if (error.code === 'INTERNAL') this.onInternalError?.(op, err);
      this.finish(op, 'failed', undefined, error);
    }
  }

  private addArtifact(op: OperationRecord, mimeType: string, bytes: Buffer): string {
    const id = `art_${ulid(this.now())}`;
    const artifact: Artifact = { id, operationId: op.id, mimeType, bytes };
    op.artifacts.set(id, artifact);
    this.artifacts.set(id, artifact);
    op.retainedBytes += bytes.length;
    this.retainedBytes += bytes.length;
    this.enforceBudget();
    return id;
  }

  private finish(op: OperationRecord, state: OperationState, result?: OperationResult, error?: OperationRecord['error']): void {
    op.state = state;
    op.finishedAt = this.now();
    if (state === 'completed' && result) {
      const bytes = Buffer.byteLength(JSON.stringify(result), 'utf8');
      if (bytes > this.limits.resultBytes) {
        op.state = 'failed';
        op.error = toPublicError(new TroveError('RESULT_TOO_LARGE', `the result is ${bytes} bytes; at most ${this.limits.resultBytes} are kept`, { max_bytes: this.limits.resultBytes }));
      } else {
        op.result = result;
        op.retainedBytes += bytes;
        this.retainedBytes += bytes;
      }
    } else if (error) {
      op.error = error;
    }
    if (op.state !== 'completed') this.dropArtifacts(op);
    this.retained.push(op);
    this.enforceBudget();
  }

  /** Oldest results go first (their tombstones stay) until both the byte and the count budget hold. */
  private enforceBudget(): void {
    while (this.retained.length > 0 && (this.retained.length > this.limits.retainedOperations || this.retainedBytes > this.limits.retainedBytes)) {
      const oldest = this.retained[0]!;
      this.drop(oldest);
      oldest.evicted = true;
    }
  }

  /** Frees what an operation holds. */
  private drop(op: OperationRecord): void {
    const at = this.retained.indexOf(op);
    if (at >= 0) this.retained.splice(at, 1);
    this.dropArtifacts(op);
    this.retainedBytes -= op.retainedBytes;
    op.retainedBytes = 0;
    op.result = undefined;
    op.error = undefined;
  }

  private dropArtifacts(op: OperationRecord): void {
    for (const a of op.artifacts.values()) {
      this.artifacts.delete(a.id);
      this.retainedBytes -= a.bytes.length;
      op.retainedBytes -= a.bytes.length;
    }
    op.artifacts.clear();
  }
}

function keyOf(r: { principal: string; epoch: number; requestKey: string }): string {
  return `${r.principal}\u0000${r.epoch}\u0000${r.requestKey}`;
}

function notFound(): TroveError {
  return new TroveError('OPERATION_NOT_FOUND', 'no such operation: it expired, was evicted, or belongs to another server lifetime or caller; do not blindly rerun it');
}

import type { PublicError } from '../../errors.js';

// Operations (seed 004): request-keyed long work with states, tombstones and retained results.

export type OperationState = 'queued' | 'running' | 'cancelling' | 'completed' | 'failed' | 'cancelled';
export const TERMINAL_STATES: ReadonlySet<OperationState> = new Set(['completed', 'failed', 'cancelled']);

export type OperationKind = 'import_history' | 'refresh_document' | 'reindex' | 'capture_screenshot' | 'inspect_accessibility' | 'inspect_dom';

/** One record of values that came from a page, a file or a history entry (travels under untrusted_content). */
export interface UntrustedItem {
  source_type: string;
  fields: Record<string, unknown>;
}

/** What a finished operation keeps: facts of ours, and page-derived values kept apart. */
export interface OperationResult {
  trusted: Record<string, unknown>;
  untrusted: UntrustedItem[];
}

export interface Artifact {
  id: string;
  operationId: string;
  mimeType: string;
  bytes: Buffer;
}

export interface OperationLimits {
  /** Queued operations of one principal. */
  waitingPerPrincipal: number;
  /** Queued operations in all. */
  waitingTotal: number;
  /** Operations tracked at once (active and terminal); admission is refused at this count. */
  tombstones: number;
  /** How long a terminal operation answers its request key. */
  tombstoneMs: number;
  /** Bytes of results and artifacts kept, all operations together. */
  retainedBytes: number;
  /** Terminal operations whose results are kept. */
  retainedOperations: number;
  /** Largest serialized result one operation may keep. */
  resultBytes: number;
}

export const DEFAULT_LIMITS: OperationLimits = {
  waitingPerPrincipal: 4,
  waitingTotal: 8,
  tombstones: 100,
  tombstoneMs: 10 * 60_000,
  retainedBytes: 32 * 1024 * 1024,
  retainedOperations: 20,
  resultBytes: 4 * 1024 * 1024,
};

/** What the manager knows of one operation. `context` is the runner's own (who asked, from where). */
export interface OperationRecord {
  id: string;
  principal: string;
  requestKey: string;
  kind: OperationKind;
  /** Normalized parameters (defaults applied); the fingerprint covers them. */
  params: Record<string, unknown>;
  fingerprint: string;
  epoch: number;
  revision: number;
  state: OperationState;
  createdAt: number;
  startedAt?: number | undefined;
  finishedAt?: number | undefined;
  progress?: Record<string, unknown> | undefined;
  result?: OperationResult | undefined;
  error?: PublicError | undefined;
  /** The result was dropped to stay within the retention budget; the tombstone remains. */
  evicted: boolean;
  retainedBytes: number;
  artifacts: Map<string, Artifact>;
  controller: AbortController;
  context: unknown;
}

/** What a running operation may do besides returning its result. */
export interface RunContext {
  signal: AbortSignal;
  progress(p: Record<string, unknown>): void;
  /** Keeps bytes with the operation (under the retention budget); the artifact id. */
  addArtifact(mimeType: string, bytes: Buffer): string;
}

/** Executes an operation: the app dispatches by kind; tests inject their own. */
export type OperationRunner = (op: Readonly<OperationRecord>, ctx: RunContext) => Promise<OperationResult>;

export interface SubmitRequest {
  principal: string;
  requestKey: string;
  kind: OperationKind;
  params: Record<string, unknown>;
  epoch: number;
  revision: number;
  context?: unknown;
}

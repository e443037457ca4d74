import type { App } from '../../app.js';
import { TroveError } from '../../errors.js';
import type { Principal } from '../access.js';
import { troveUri } from '../catalog-uris.js';
import { iso } from '../views.js';
import { type Caller, loadJob } from './jobs.js';
import { normalizeParams } from './params.js';
import type { Artifact, OperationKind, OperationRecord, OperationResult } from './types.js';

// Starting, polling and cancelling operations: the one implementation behind the MCP tools and resources.

/** Operations belong to the principal that started them. */
export function principalKey(p: Principal): string {
  return p.kind === 'user' ? `user:${p.userId}` : p.kind;
}

export const operationUris = {
  operation: (instanceId: string, operationId: string, query: { offset?: number; limit?: number } = {}) => troveUri(instanceId, ['operations', operationId], query),
  artifact: (instanceId: string, artifactId: string) => troveUri(instanceId, ['artifacts', artifactId]),
};

/** What every answer about an operation says, all of it ours (trusted). */
export interface OperationView {
  operationId: string;
  kind: OperationKind;
  state: OperationRecord['state'];
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  epoch: number;
  revision: number;
  operationUri: string;
  progress?: Record<string, unknown>;
  error?: { code: string; message: string; retryable: boolean; details?: Record<string, unknown> };
}

export interface OperationDetail {
  view: OperationView;
  result: OperationResult | undefined;
  artifacts: Artifact[];
}

export function operationView(op: OperationRecord, instanceId: string): OperationView {
  const view: OperationView = {
    operationId: op.id,
    kind: op.kind,
    state: op.state,
    createdAt: iso(op.createdAt),
    startedAt: op.startedAt === undefined ? null : iso(op.startedAt),
    finishedAt: op.finishedAt === undefined ? null : iso(op.finishedAt),
    epoch: op.epoch,
    revision: op.revision,
    operationUri: operationUris.operation(instanceId, op.id),
  };
  if (op.progress) view.progress = { ...op.progress };
  if (op.error) view.error = { ...op.error };
  return view;
}

function detail(op: OperationRecord, instanceId: string): OperationDetail {
  return { view: operationView(op, instanceId), result: op.result, artifacts: [...op.artifacts.values()] };
}

export interface StartRequest {
  kind: OperationKind;
  requestKey: string;
  /** The tool's validated arguments without requestKey; defaults are applied here. */
  input: Record<string, unknown>;
}

/**
 * Starts an operation, or answers the one its request key already names (replayed: true). The kind's
 * checks run before admission (NOT_FOUND, STALE_REVISION, CAPABILITY_UNAVAILABLE...) and again at start.
 */
export async function startOperation(app: App, caller: Caller, req: StartRequest): Promise<{ view: OperationView; replayed: boolean }> {
  const params = normalizeParams(req.kind, req.input);
  const state = await app.store.instanceState();
  const key = { principal: principalKey(caller.grant.principal), epoch: state.epoch, requestKey: req.requestKey, kind: req.kind, params };
  const known = app.operations.replay(key);
  if (known) return { view: operationView(known, state.instanceId), replayed: true };
  await (await loadJob(req.kind)).check(app, caller, params, state);
  const { operation, replayed } = app.operations.submit({ ...key, revision: state.revision, context: caller });
  return { view: operationView(operation, state.instanceId), replayed };
}

export async function getOperation(app: App, principal: Principal, operationId: string): Promise<OperationDetail> {
  const { instanceId } = await app.store.instanceState();
  return detail(app.operations.get(principalKey(principal), operationId), instanceId);
}

export async function cancelOperation(app: App, principal: Principal, operationId: string): Promise<OperationView> {
  const { instanceId } = await app.store.instanceState();
  return operationView(app.operations.cancel(principalKey(principal), operationId), instanceId);
}

export function readArtifact(app: App, principal: Principal, artifactId: string): Artifact {
  return app.operations.artifact(principalKey(principal), artifactId);
}

export const OPERATION_PAGE = { default: 100, max: 500 } as const;

/** Page of an operation's untrusted records, for the operation resource's offset/limit. */
export function pageRecords(result: OperationResult | undefined, offset = 0, limit: number = OPERATION_PAGE.default) {
  if (!Number.isSafeInteger(offset) || offset < 0) throw new TroveError('INVALID_ARGUMENT', 'offset must be a whole number >= 0', { field: 'offset' });
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > OPERATION_PAGE.max) throw new TroveError('INVALID_ARGUMENT', `limit must be 1..${OPERATION_PAGE.max}`, { field: 'limit' });
  const all = result?.untrusted ?? [];
  const items = all.slice(offset, offset + limit);
  const next = offset + items.length;
  return { items, page: { offset, limit, total: all.length, ...(next < all.length ? { nextOffset: next } : {}) } };
}

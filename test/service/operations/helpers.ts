import assert from 'node:assert/strict';
import type { App } from '../../../src/app.js';
import { TroveError } from '../../../src/errors.js';
import { OWNER, type Principal, authorize } from '../../../src/service/access.js';
import type { Caller } from '../../../src/service/operations/jobs.js';
import { type OperationDetail, getOperation, startOperation } from '../../../src/service/operations/service.js';
import type { OperationKind } from '../../../src/service/operations/types.js';

// Starting operations as a tool would, and waiting for them to end (polling, as a client does).

export function callerFor(principal: Principal = OWNER, action: Parameters<typeof authorize>[1] = 'documents.read'): Caller {
  return { grant: authorize(principal, action), source: 'test' };
}

let keys = 0;
export const newKey = (): string => `key-${++keys}-${Math.random().toString(36).slice(2)}`;

export async function start(app: App, kind: OperationKind, input: Record<string, unknown>, caller: Caller = callerFor(OWNER, 'admin'), requestKey = newKey()) {
  return startOperation(app, caller, { kind, requestKey, input });
}

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

export async function settled(app: App, operationId: string, principal: Principal = OWNER): Promise<OperationDetail> {
  for (;;) {
    const d = await getOperation(app, principal, operationId);
    if (TERMINAL.has(d.view.state)) return d;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Starts an operation and waits for its end. */
export async function run(app: App, kind: OperationKind, input: Record<string, unknown>, caller?: Caller): Promise<OperationDetail> {
  const started = await start(app, kind, input, caller);
  return settled(app, started.view.operationId, caller?.grant.principal ?? OWNER);
}

export async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof TroveError, String(err));
    return err.code;
  }
  assert.fail('expected an error');
}

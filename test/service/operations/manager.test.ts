import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { TroveError } from '../../../src/errors.js';
import { OperationManager } from '../../../src/service/operations/manager.js';
import type { OperationRecord, OperationResult, RunContext, SubmitRequest } from '../../../src/service/operations/types.js';

// The operation manager on its own: an injected clock (no sleeping) and a runner the test controls.

const MINUTE = 60_000;

interface Job {
  op: OperationRecord;
  ctx: RunContext;
  resolve(r: OperationResult): void;
  reject(e: unknown): void;
}

function harness(opts: { limits?: ConstructorParameters<typeof OperationManager>[0]['limits']; auto?: boolean } = {}) {
  let clock = Date.UTC(2026, 0, 1);
  const jobs: Job[] = [];
  const internal: unknown[] = [];
  const manager = new OperationManager({
    now: () => clock,
    limits: opts.limits,
    onInternalError: (_op, err) => internal.push(err),
    runner: (op, ctx) => {
      if (opts.auto) return Promise.resolve({ trusted: { ran: op.params }, untrusted: [] });
      return new Promise((resolve, reject) => jobs.push({ op: op as OperationRecord, ctx, resolve, reject }));
    },
  });
  const req = (over: Partial<SubmitRequest> = {}): SubmitRequest => ({ principal: 'user:1', requestKey: 'k1', kind: 'reindex', params: { a: 1 }, epoch: 7, revision: 3, ...over });
  return { manager, jobs, internal, req, advance: (ms: number) => (clock += ms), now: () => clock };
}

const settle = () => new Promise((r) => setImmediate(r));

function code(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof TroveError, String(err));
    return err.code;
  }
  assert.fail('expected an error');
}

describe('request keys', () => {
  test('the same principal, epoch, key and parameters return the same operation, run once', async () => {
    const h = harness({ auto: true });
    let runs = 0;
    const m = new OperationManager({ now: h.now, runner: async () => ({ trusted: { n: ++runs }, untrusted: [] }) });
    const first = m.submit(h.req({ params: { b: 2, a: 1 } }));
    await settle();
    const again = m.submit(h.req({ params: { a: 1, b: 2 } }));
    assert.equal(again.replayed, true);
    assert.equal(again.operation.id, first.operation.id);
    assert.equal(again.operation.state, 'completed');
    assert.deepEqual(again.operation.result, { trusted: { n: 1 }, untrusted: [] });
    assert.equal(runs, 1);
  });

  test('different parameters or another kind under the same key are REQUEST_KEY_CONFLICT', async () => {
    const h = harness({ auto: true });
    h.manager.submit(h.req());
    await settle();
    assert.equal(code(() => h.manager.submit(h.req({ params: { a: 2 } }))), 'REQUEST_KEY_CONFLICT');
    assert.equal(code(() => h.manager.submit(h.req({ kind: 'inspect_dom' }))), 'REQUEST_KEY_CONFLICT');
  });

  test('another principal or another epoch is another operation', async () => {
    const h = harness({ auto: true });
    const a = h.manager.submit(h.req()).operation;
    const b = h.manager.submit(h.req({ principal: 'user:2' })).operation;
    const c = h.manager.submit(h.req({ epoch: 8 })).operation;
    assert.equal(new Set([a.id, b.id, c.id]).size, 3);
  });

  test('the tombstone answers for ten minutes after the terminal state; then the key may run again', async () => {
    const h = harness({ auto: true });
    const first = h.manager.submit(h.req()).operation;
    await settle();
    assert.equal(first.state, 'completed');
    h.advance(10 * MINUTE - 1);
    assert.equal(h.manager.submit(h.req()).operation.id, first.id);
    assert.equal(h.manager.get('user:1', first.id).state, 'completed');
    h.advance(1);
    assert.equal(code(() => h.manager.get('user:1', first.id)), 'OPERATION_NOT_FOUND');
    const rerun = h.manager.submit(h.req());
    assert.equal(rerun.replayed, false);
    assert.notEqual(rerun.operation.id, first.id);
  });

  test('the ten minutes count from the terminal state, not from submission', async () => {
    const h = harness();
    const op = h.manager.submit(h.req()).operation;
    h.advance(30 * MINUTE);
    h.jobs[0]!.resolve({ trusted: {}, untrusted: [] });
    await settle();
    h.advance(9 * MINUTE);
    assert.equal(h.manager.get('user:1', op.id).state, 'completed');
  });

  test('a retry after its result was evicted is OPERATION_NOT_FOUND and never runs again', async () => {
    let runs = 0;
    const clock = Date.UTC(2026, 0, 1);
    const m = new OperationManager({ now: () => clock, runner: async () => ({ trusted: { n: ++runs }, untrusted: [] }) });
    const base = { principal: 'owner', epoch: 1, revision: 1, kind: 'reindex' as const, params: {} };
    const first = m.submit({ ...base, requestKey: 'key-0' }).operation;
    await settle();
    for (let i = 1; i <= 20; i++) {
      m.submit({ ...base, requestKey: `key-${i}` });
      await settle();
    }
    assert.equal(runs, 21);
    assert.equal(code(() => m.get('owner', first.id)), 'OPERATION_NOT_FOUND');
    assert.equal(code(() => m.submit({ ...base, requestKey: 'key-0' })), 'OPERATION_NOT_FOUND');
    assert.equal(code(() => m.submit({ ...base, requestKey: 'key-0', params: { other: true } })), 'REQUEST_KEY_CONFLICT');
    assert.equal(runs, 21);
    assert.equal(m.submit({ ...base, requestKey: 'key-1' }).operation.state, 'completed');
  });
});

describe('retention', () => {
  test('artifacts and results stay within the byte budget, oldest evicted first', async () => {
    const m = new OperationManager({
      limits: { retainedBytes: 1000 },
      runner: async (_op, ctx) => {
        const id = ctx.addArtifact('image/png', Buffer.alloc(400));
        return { trusted: { id }, untrusted: [] };
      },
    });
    const ids: string[] = [];
    const artifacts: string[] = [];
    for (let i = 0; i < 3; i++) {
      const op = m.submit({ principal: 'owner', epoch: 1, revision: 1, kind: 'capture_screenshot', params: { i }, requestKey: `k${i}` }).operation;
      await settle();
      ids.push(op.id);
      artifacts.push(op.result!.trusted.id as string);
    }
    assert.equal(code(() => m.get('owner', ids[0]!)), 'OPERATION_NOT_FOUND');
    assert.equal(code(() => m.artifact('owner', artifacts[0]!)), 'NOT_FOUND');
    assert.equal(m.artifact('owner', artifacts[2]!).bytes.length, 400);
    assert.equal(m.get('owner', ids[2]!).state, 'completed');
    assert.ok(m.stats().retainedBytes <= 1000);
    assert.equal(code(() => m.artifact('user:9', artifacts[2]!)), 'NOT_FOUND');
  });

  test('a result over the per-result bound fails RESULT_TOO_LARGE', async () => {
    const m = new OperationManager({ limits: { resultBytes: 100 }, runner: async () => ({ trusted: { big: 'x'.repeat(200) }, untrusted: [] }) });
    const op = m.submit({ principal: 'owner', epoch: 1, revision: 1, kind: 'reindex', params: {}, requestKey: 'k' }).operation;
    await settle();
    assert.equal(op.state, 'failed');
    assert.equal(op.error?.code, 'RESULT_TOO_LARGE');
    assert.equal(op.result, undefined);
  });

  test('at most 100 tombstones: admission is refused (retryable) until old ones expire', async () => {
    const h = harness({ auto: true });
    for (let i = 0; i < 100; i++) {
      h.manager.submit(h.req({ requestKey: `k${i}` }));
      await settle();
    }
    let refused: TroveError | undefined;
    try {
      h.manager.submit(h.req({ requestKey: 'one-more' }));
    } catch (err) {
      refused = err as TroveError;
    }
    assert.equal(refused?.code, 'QUEUE_FULL');
    assert.equal(refused?.spec.retryable, true);
    assert.equal(refused?.details?.reason, 'tombstones');
    assert.equal(h.manager.submit(h.req({ requestKey: 'k99' })).replayed, true, 'a replay needs no admission');
    h.advance(10 * MINUTE);
    assert.equal(h.manager.submit(h.req({ requestKey: 'one-more' })).replayed, false);
  });
});

describe('admission and cancellation', () => {
  test('one runs; at most 4 wait per principal and 8 in all', () => {
    const h = harness();
    h.manager.submit(h.req({ requestKey: 'run' }));
    assert.equal(h.jobs.length, 1);
    for (let i = 0; i < 4; i++) assert.equal(h.manager.submit(h.req({ requestKey: `a${i}` })).operation.state, 'queued');
    const perCaller = (() => {
      try {
        h.manager.submit(h.req({ requestKey: 'a4' }));
      } catch (err) {
        return err as TroveError;
      }
    })();
    assert.equal(perCaller?.code, 'QUEUE_FULL');
    assert.equal(perCaller?.details?.reason, 'waiting_per_caller');
    for (let i = 0; i < 4; i++) h.manager.submit(h.req({ principal: 'user:2', requestKey: `b${i}` }));
    assert.equal(code(() => h.manager.submit(h.req({ principal: 'user:3', requestKey: 'c0' }))), 'QUEUE_FULL');
    assert.deepEqual(h.manager.stats(), { queued: 8, active: 1, terminal: 0, retainedBytes: 0 });
    assert.equal(h.jobs.length, 1);
  });

  test('the next queued operation starts when the active one finishes, in order', async () => {
    const h = harness();
    const a = h.manager.submit(h.req({ requestKey: 'a' })).operation;
    const b = h.manager.submit(h.req({ requestKey: 'b', principal: 'user:2' })).operation;
    assert.equal(a.state, 'running');
    assert.equal(b.state, 'queued');
    assert.equal(b.startedAt, undefined);
    h.advance(5000);
    h.jobs[0]!.resolve({ trusted: {}, untrusted: [] });
    await settle();
    assert.equal(a.state, 'completed');
    assert.equal(b.state, 'running');
    assert.equal(b.startedAt, h.now());
    assert.equal(h.jobs[1]!.op.id, b.id);
  });

  test('cancelling a queued operation removes it at once; it never runs', async () => {
    const h = harness();
    h.manager.submit(h.req({ requestKey: 'a' }));
    const b = h.manager.submit(h.req({ requestKey: 'b' })).operation;
    assert.equal(h.manager.cancel('user:1', b.id).state, 'cancelled');
    assert.ok(b.finishedAt !== undefined);
    h.jobs[0]!.resolve({ trusted: {}, untrusted: [] });
    await settle();
    assert.equal(h.jobs.length, 1);
    assert.equal(h.manager.get('user:1', b.id).state, 'cancelled');
  });

  test('cancelling a running operation aborts its signal; it is cancelling until its cleanup ends', async () => {
    const h = harness();
    const a = h.manager.submit(h.req({ requestKey: 'a' })).operation;
    const next = h.manager.submit(h.req({ requestKey: 'b' })).operation;
    const job = h.jobs[0]!;
    assert.equal(h.manager.cancel('user:1', a.id).state, 'cancelling');
    assert.equal(job.ctx.signal.aborted, true);
    await settle();
    assert.equal(a.state, 'cancelling');
    assert.equal(next.state, 'queued', 'the slot stays taken until cleanup ends');
    job.reject(new Error('aborted'));
    await settle();
    assert.equal(a.state, 'cancelled');
    assert.equal(a.error, undefined);
    assert.equal(next.state, 'running');
  });

  test('another principal cannot see or cancel an operation', () => {
    const h = harness();
    const a = h.manager.submit(h.req()).operation;
    assert.equal(code(() => h.manager.get('user:2', a.id)), 'OPERATION_NOT_FOUND');
    assert.equal(code(() => h.manager.cancel('user:2', a.id)), 'OPERATION_NOT_FOUND');
    assert.equal(a.state, 'running');
  });

  test('a new manager (a restart) knows no old operation id', async () => {
    const h = harness({ auto: true });
    const a = h.manager.submit(h.req()).operation;
    await settle();
    const restarted = harness({ auto: true });
    assert.equal(code(() => restarted.manager.get('user:1', a.id)), 'OPERATION_NOT_FOUND');
    assert.match(a.id, /^op_7_/);
  });

  test('failures keep their code; faults of ours become INTERNAL and are reported', async () => {
    const h = harness();
    const a = h.manager.submit(h.req({ requestKey: 'a' })).operation;
    const b = h.manager.submit(h.req({ requestKey: 'b' })).operation;
    h.jobs[0]!.reject(new TroveError('STALE_REVISION', 'stale'));
    await settle();
    h.jobs[1]!.reject(new Error('boom at /secret/path'));
    await settle();
    assert.deepEqual([a.state, a.error?.code, a.error?.retryable], ['failed', 'STALE_REVISION', false]);
    assert.deepEqual([b.state, b.error?.code], ['failed', 'INTERNAL']);
    assert.doesNotMatch(b.error!.message, /secret/);
    assert.equal(h.internal.length, 1);
  });

  test('close cancels what waits and aborts what runs', async () => {
    const h = harness();
    const a = h.manager.submit(h.req({ requestKey: 'a' })).operation;
    const b = h.manager.submit(h.req({ requestKey: 'b' })).operation;
    const closing = h.manager.close();
    assert.equal(b.state, 'cancelled');
    assert.equal(h.jobs[0]!.ctx.signal.aborted, true);
    h.jobs[0]!.reject(new Error('aborted'));
    await closing;
    assert.equal(a.state, 'cancelled');
    assert.equal(code(() => h.manager.submit(h.req({ requestKey: 'c' }))), 'CAPABILITY_UNAVAILABLE');
  });
});

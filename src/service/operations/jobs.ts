import type { App } from '../../app.js';
import type { InstanceState } from '../../store/types.js';
import type { Grant } from '../access.js';
import type { OperationKind, OperationResult, OperationRunner, RunContext } from './types.js';

// What each operation kind does. Each is loaded on first use: rendering and importing pull in a lot.

/** Who asked for an operation and over which connection. */
export interface Caller {
  grant: Grant;
  /** Provenance label of writes (`mcp:<client>`). */
  source: string;
  /** The connection's memory bank, which decides the memories it may see. */
  bank?: string | undefined;
}

export interface JobSpec {
  /** Checks a call before admission, and again when its turn comes (the target may be gone, the revision moved). */
  check(app: App, caller: Caller, params: Record<string, unknown>, state: InstanceState): Promise<void>;
  run(app: App, caller: Caller, params: Record<string, unknown>, ctx: RunContext, state: InstanceState): Promise<OperationResult>;
}

const LOADERS: Record<OperationKind, () => Promise<JobSpec>> = {
  import_history: async () => (await import('./import-job.js')).IMPORT_HISTORY_JOB,
  refresh_document: async () => (await import('./refresh-job.js')).REFRESH_JOB,
  reindex: async () => (await import('./reindex-job.js')).REINDEX_JOB,
  capture_screenshot: async () => (await import('../render/screenshot.js')).SCREENSHOT_JOB,
  inspect_accessibility: async () => (await import('../render/aria.js')).ARIA_JOB,
  inspect_dom: async () => (await import('../render/dom.js')).DOM_JOB,
};

export function loadJob(kind: OperationKind): Promise<JobSpec> {
  return LOADERS[kind]();
}

/** The app's runner: the kind's checks once more at start, then its work. */
export function createOperationRunner(app: () => App): OperationRunner {
  return async (op, ctx) => {
    const job = await loadJob(op.kind);
    const caller = op.context as Caller;
    const state = await app().store.instanceState();
    await job.check(app(), caller, op.params, state);
    ctx.signal.throwIfAborted();
    return job.run(app(), caller, op.params, ctx, state);
  };
}

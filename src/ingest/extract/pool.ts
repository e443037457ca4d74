import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { TroveError } from '../../errors.js';
import type { Logger } from '../../log.js';
import type { ExtractInput, ExtractionResult, Extractor } from './types.js';
import { type WorkerMessage, errorFromWire, startWorker, toWire } from './wire.js';

// HTML extraction (parse, metadata, site extractors, readability: pure CPU work) on worker threads, so that
// the main thread stores one batch while the workers extract the next, and several cores extract at once.
//
// - Lazy: no thread starts until HTML extractions wait in parallel (a batch); a lone one with no worker
//   running, and every non-HTML input, is extracted in-process, as is everything when the pool has size 1.
//   A search or a single added page never pays for starting a thread.
// - Same answers: a worker runs the default extractors, and a refusal arrives as the same TroveError
//   (code, message, details) that extracting in-process throws.
// - A worker that dies takes only its page with it (INTERNAL; TOO_LARGE when it ran out of memory) and is
//   replaced; when workers cannot start at all, extraction goes on in-process.
// - Owned by the app: close() stops the threads. Idle threads are unref'd (they never keep a process
//   alive) and stop after idleMs.

export interface ExtractionPoolOptions {
  /** Worker threads at most; 0 or 1 extracts in-process. Default: the available cores, at most 4. */
  size?: number | undefined;
  /** Workers idle this long (ms) stop; default 30 s. */
  idleMs?: number | undefined;
  log?: Logger | undefined;
  /** Starts one worker thread; the default runs worker.ts / worker.js (tests start failing ones). */
  spawn?: (() => Worker) | undefined;
}

export interface ExtractionPool {
  readonly size: number;
  /** Worker threads running now. */
  readonly workers: number;
  /** What extract(input, createExtractors()) gives, resolved or rejected alike. */
  extract(input: ExtractInput): Promise<ExtractionResult>;
  /** Stops the threads; extractions still waiting fail with INTERNAL. Later ones run in-process. */
  close(): Promise<void>;
}

export const MAX_DEFAULT_WORKERS = 4;
const DEFAULT_IDLE_MS = 30_000;

export function defaultPoolSize(): number {
  return Math.min(availableParallelism(), MAX_DEFAULT_WORKERS);
}

interface Task {
  id: number;
  input: ExtractInput;
  resolve(result: ExtractionResult): void;
  reject(err: unknown): void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  task: Task | undefined;
}

function crashError(err: unknown, input: ExtractInput): TroveError {
  const url = input.url.href;
  if ((err as { code?: string } | undefined)?.code === 'ERR_WORKER_OUT_OF_MEMORY') return new TroveError('TOO_LARGE', `${url} needs more memory to extract than a worker has`, { url });
  return new TroveError('INTERNAL', `the extraction worker failed on ${url}: ${(err as Error | undefined)?.message ?? String(err)}`, { url });
}

export function createExtractionPool(options: ExtractionPoolOptions = {}): ExtractionPool {
  const size = Math.max(1, Math.floor(options.size ?? defaultPoolSize()));
  const idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
  let local: readonly Extractor[] | undefined;
  // Imported on first use: the extractors load linkedom and readability, which a search never needs.
  const extractHere = async (input: ExtractInput) => {
    const registry = await import('./registry.js');
    return registry.extract(input, (local ??= registry.createExtractors()));
  };
  // One in-process extraction at a time, in order: a batch started at once would hold all its parsed pages.
  let localTurn: Promise<unknown> = Promise.resolve();
  const inProcess = (input: ExtractInput): Promise<ExtractionResult> => {
    const result = localTurn.then(() => extractHere(input));
    localTurn = result.catch(() => undefined);
    return result;
  };
  const slots: Slot[] = [];
  const queue: Task[] = [];
  let nextId = 1;
  let scheduled = false;
  let closed = false;
  /** Workers failed to start: everything runs in-process from then on. */
  let broken = false;
  let idleTimer: NodeJS.Timeout | undefined;

  const runLocally = (task: Task) => void inProcess(task.input).then(task.resolve, task.reject);

  function assign(slot: Slot, task: Task): void {
    slot.task = task;
    slot.worker.ref();
    slot.worker.postMessage({ id: task.id, input: toWire(task.input) });
  }

  function finish(slot: Slot): void {
    slot.task = undefined;
    slot.worker.unref();
    const next = queue.shift();
    if (next) assign(slot, next);
    else armIdleTimer();
  }

  function drop(slot: Slot, err: unknown): void {
    const at = slots.indexOf(slot);
    if (at < 0) return;
    slots.splice(at, 1);
    const task = slot.task;
    slot.task = undefined;
    if (!slot.ready && !closed) {
      if (task) queue.unshift(task);
      return giveUp(err);
    }
    void slot.worker.terminate();
    if (task) task.reject(closed ? stopped() : crashError(err, task.input));
    if (!closed) schedule();
  }

  /** Workers cannot start here: what waits, and everything later, is extracted in-process. */
  function giveUp(err: unknown): void {
    if (!broken) options.log?.warn('extraction workers cannot start; extracting in-process', { error: (err as Error | undefined)?.message ?? String(err) });
    broken = true;
    for (const t of queue.splice(0)) runLocally(t);
  }

  function spawn(): Slot {
    const slot: Slot = { worker: (options.spawn ?? startWorker)(), ready: false, task: undefined };
    slot.worker.on('message', (message: WorkerMessage) => {
      if ('ready' in message) {
        slot.ready = true;
        return;
      }
      const task = slot.task;
      if (!task || task.id !== message.id) return;
      if ('result' in message) task.resolve(message.result);
      else task.reject(errorFromWire(message.error));
      finish(slot);
    });
    slot.worker.on('error', (err) => drop(slot, err));
    slot.worker.on('exit', (code) => drop(slot, new Error(`worker exited with code ${code}`)));
    slots.push(slot);
    return slot;
  }

  function dispatch(): void {
    scheduled = false;
    if (closed || broken) {
      for (const t of queue.splice(0)) runLocally(t);
      return;
    }
    // A lone extraction with no worker running is not worth starting a thread for.
    if (slots.length === 0 && queue.length === 1) return runLocally(queue.shift()!);
    clearTimeout(idleTimer);
    for (const slot of slots) if (!slot.task && queue.length) assign(slot, queue.shift()!);
    while (queue.length && slots.length < size) {
      let slot: Slot;
      try {
        slot = spawn();
      } catch (err) {
        return giveUp(err);
      }
      assign(slot, queue.shift()!);
    }
  }

  function schedule(): void {
    if (scheduled) return;
    scheduled = true;
    queueMicrotask(dispatch);
  }

  function armIdleTimer(): void {
    if (slots.some((s) => s.task) || queue.length) return;
    clearTimeout(idleTimer);
    idleTimer = setTimeout(() => void stopWorkers(), idleMs);
    idleTimer.unref();
  }

  async function stopWorkers(): Promise<void> {
    const stopping = slots.splice(0);
    await Promise.all(stopping.map((s) => s.worker.terminate()));
  }

  const stopped = () => new TroveError('INTERNAL', 'extraction stopped: the app is closing');

  return {
    size,
    get workers() {
      return slots.length;
    },
    extract(input) {
      if (size <= 1 || input.html === undefined || closed) return inProcess(input);
      return new Promise<ExtractionResult>((resolve, reject) => {
        queue.push({ id: nextId++, input, resolve, reject });
        schedule();
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      clearTimeout(idleTimer);
      for (const t of queue.splice(0)) t.reject(stopped());
      const running = slots.splice(0);
      for (const s of running) s.task?.reject(stopped());
      await Promise.all(running.map((s) => s.worker.terminate()));
    },
  };
}

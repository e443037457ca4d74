import { type PublicError, TroveError, isTroveError, toPublicError } from '../errors.js';
import type { Logger } from '../log.js';
import type { EmbeddingsProvider } from '../providers/types.js';
import type { EmbeddingTask, Store, VectorSpace } from '../store/types.js';

// The background embedder: takes queued chunks from the store (queued by the writes themselves, so a
// restart resumes where the last process stopped), embeds them in batches and stores the vectors.
// An endpoint that is down or failing is retried with growing pauses; it never stops the process.

/** Longest text sent for one passage; embedding models' contexts are a few thousand tokens at most. */
export const MAX_INPUT_CHARS = 8192;

export interface EmbeddingWorkerOptions {
  batchSize: number;
  /** Pause between queue checks when nothing is waiting; default 2 s. */
  idleMs?: number | undefined;
  /** First pause after a failure, doubled per failure up to maxBackoffMs; default 1 s. */
  backoffMs?: number | undefined;
  maxBackoffMs?: number | undefined;
}

export interface EmbeddingWorkerState {
  running: boolean;
  /** Vectors stored by this process. */
  embedded: number;
  /** The latest failure while it lasts; cleared by the next stored batch. */
  lastError: (PublicError & { at: string }) | null;
}

/** What one passage is embedded as: its document's title first, except for memories (their title is their text). */
export function embeddingInput(task: Pick<EmbeddingTask, 'kind' | 'title' | 'text'>): string {
  const text = task.kind !== 'memory' && task.title.trim() && !task.text.startsWith(task.title) ? `${task.title}\n\n${task.text}` : task.text;
  return text.length > MAX_INPUT_CHARS ? text.slice(0, MAX_INPUT_CHARS) : text;
}

/** A 4xx about the input itself (too long, malformed): the passage is skipped, not retried forever. */
function inputRefused(err: unknown): boolean {
  return isTroveError(err) && err.code === 'UPSTREAM_REJECTED' && [400, 413, 422].includes(err.details?.status as number);
}

export class EmbeddingWorker {
  private stopped = false;
  private loop: Promise<void> | undefined;
  private readonly abort = new AbortController();
  private wake: (() => void) | undefined;
  private failures = 0;
  private space: VectorSpace | undefined;
  readonly state: EmbeddingWorkerState = { running: false, embedded: 0, lastError: null };

  constructor(
    private readonly store: Store,
    private readonly provider: EmbeddingsProvider,
    private readonly log: Logger,
    private readonly opts: EmbeddingWorkerOptions,
  ) {}

  /** Starts the background loop (idempotent). */
  start(): void {
    if (this.loop || this.stopped) return;
    this.state.running = true;
    this.loop = this.run();
  }

  /** Checks the queue now instead of at the next poll. */
  kick(): void {
    this.wake?.();
  }

  /** Embeds until nothing is queued; the number stored. Rejects with the first failure (for tests and one-shot commands). */
  async drain(): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await this.step();
      if (n === undefined) return total;
      total += n;
    }
  }

  /** Stops the loop, abandoning an unanswered request (its chunks stay queued). */
  async close(): Promise<void> {
    this.stopped = true;
    this.abort.abort();
    this.wake?.();
    await this.loop;
    this.state.running = false;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      let pause: number;
      try {
        const n = await this.step();
        pause = n === undefined ? (this.opts.idleMs ?? 2000) : 0;
      } catch (err) {
        if (this.stopped) break;
        pause = this.failed(err);
      }
      if (pause > 0) await this.sleep(pause);
    }
  }

  /** One batch: undefined when the queue is empty, else the number of vectors stored. */
  private async step(): Promise<number | undefined> {
    const space = await this.openSpace();
    const tasks = await this.store.pendingEmbeddings(this.opts.batchSize);
    if (tasks.length === 0) return undefined;
    let stored: number;
    let refused = 0;
    try {
      const vectors = await this.provider.embed(tasks.map(embeddingInput), this.abort.signal);
      stored = await this.store.storeEmbeddings(space, tasks.map((t, i) => ({ chunkId: t.chunkId, ticket: t.ticket, vector: vectors[i]! })));
    } catch (err) {
      if (!inputRefused(err)) throw err;
      ({ stored, refused } = await this.oneByOne(space, tasks));
    }
    if (stored === 0 && refused === 0) {
      // Nothing kept: the batch was rewritten meanwhile, or another process moved the store to another model.
      this.space = undefined;
      throw new TroveError('CONFLICT', 'no vector of the batch was kept; the vector index changed under this process (another trove with another [semantic] model?)');
    }
    this.state.embedded += stored;
    if (this.failures > 0) this.log.info('embeddings endpoint answers again', { model: this.provider.model });
    this.failures = 0;
    this.state.lastError = null;
    return stored;
  }

  /** After a refused batch: each passage alone, so one bad passage does not hold back the others. */
  private async oneByOne(space: VectorSpace, tasks: EmbeddingTask[]): Promise<{ stored: number; refused: number }> {
    let stored = 0;
    let refused = 0;
    for (const t of tasks) {
      try {
        const [vector] = await this.provider.embed([embeddingInput(t)], this.abort.signal);
        stored += await this.store.storeEmbeddings(space, [{ chunkId: t.chunkId, ticket: t.ticket, vector: vector! }]);
      } catch (err) {
        if (!inputRefused(err)) throw err;
        this.log.warn('the embeddings endpoint refused a passage; it is skipped until it changes', { chunk: t.chunkId, status: (err as { details?: { status?: unknown } }).details?.status });
        await this.store.failEmbeddings([t]);
        refused++;
      }
    }
    return { stored, refused };
  }

  /** The vector space of this model: its length from the config or, when left to the model, one probe. */
  private async openSpace(): Promise<VectorSpace> {
    if (this.space) return this.space;
    if (this.provider.dimensions === 0) await this.provider.embed(['trove'], this.abort.signal);
    const space = { model: this.provider.model, dimensions: this.provider.dimensions };
    const { reset } = await this.store.openVectors(space);
    if (reset) this.log.info('embedding every passage for a new model', { model: space.model, dimensions: space.dimensions });
    this.space = space;
    return space;
  }

  /** Logs the failure (once per streak at warn) and answers the pause before the next try. */
  private failed(err: unknown): number {
    const pub = toPublicError(err);
    this.state.lastError = { ...pub, at: new Date().toISOString() };
    const fields: Record<string, unknown> = { code: pub.code, message: pub.message, retry: this.failures + 1 };
    if (pub.code === 'INTERNAL') fields.error = String((err as Error)?.stack ?? err);
    if (this.failures === 0) this.log.warn('embedding paused: the embeddings endpoint failed', fields);
    else this.log.debug('embedding still failing', fields);
    const pause = Math.min((this.opts.backoffMs ?? 1000) * 2 ** this.failures, this.opts.maxBackoffMs ?? 300_000);
    this.failures++;
    return pause;
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms).unref();
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }
}

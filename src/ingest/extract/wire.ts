import { Worker } from 'node:worker_threads';
import { ERROR_CODES, type ErrorCode, TroveError } from '../../errors.js';
import type { ExtractInput, ExtractionResult } from './types.js';

// What crosses between the main thread and an extraction worker, and how a worker is started from the
// compiled dist/ (worker.js next to this file) as well as from the TypeScript sources under tsx.

/** An ExtractInput as structured clone carries it (a URL object does not survive the copy). */
export type WireInput = Omit<ExtractInput, 'url'> & { url: string };

export interface WireError {
  name: string;
  message: string;
  code?: string;
  details?: Record<string, unknown>;
}

/** Main thread to worker. */
export interface TaskMessage {
  id: number;
  input: WireInput;
}

/** Worker to main thread: ready once at start, then one answer per task. */
export type WorkerMessage = { ready: true } | { id: number; result: ExtractionResult } | { id: number; error: WireError };

export function toWire(input: ExtractInput): WireInput {
  return { ...input, url: input.url.href };
}

export function fromWire(input: WireInput): ExtractInput {
  return { ...input, url: new URL(input.url) };
}

export function errorToWire(err: unknown): WireError {
  if (err instanceof TroveError) return { name: err.name, message: err.message, code: err.code, ...(err.details ? { details: err.details } : {}) };
  if (err instanceof Error) return { name: err.name, message: err.message };
  return { name: 'Error', message: String(err) };
}

/** The error the in-process path would have thrown: a TroveError with its code and details, else an Error. */
export function errorFromWire(wire: WireError): Error {
  if (wire.code && wire.code in ERROR_CODES) return new TroveError(wire.code as ErrorCode, wire.message, wire.details);
  const err = new Error(wire.message);
  err.name = wire.name;
  return err;
}

/**
 * Starts the worker that sits next to this module: worker.js in dist/, or worker.ts under tsx, which a
 * worker thread does not load by itself (its --import runs too late for the entry module), so a small
 * bootstrap registers tsx in the thread first.
 */
export function startWorker(): Worker {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return new Worker(new URL('./worker.js', here));
  const tsx = import.meta.resolve('tsx/esm/api');
  const entry = new URL('./worker.ts', here).href;
  const bootstrap = `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(bootstrap, { eval: true });
}

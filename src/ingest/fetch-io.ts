import { TroveError } from '../errors.js';

export type TimeoutKind = 'connect' | 'read' | 'total';

const TIMEOUT_TEXT: Record<TimeoutKind, string> = {
  connect: 'no response headers within indexer.fetch_connect_timeout_ms',
  read: 'the body stalled longer than indexer.fetch_read_timeout_ms',
  total: 'the fetch took longer than indexer.fetch_timeout_ms',
};

/** One abort signal for a whole fetch, fired by a total deadline or by the current phase's own timer. */
export class Watchdog {
  readonly controller = new AbortController();
  fired: TimeoutKind | undefined;
  private phase: NodeJS.Timeout | undefined;
  private readonly total: NodeJS.Timeout;

  constructor(totalMs: number) {
    this.total = setTimeout(() => this.fire('total'), totalMs);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** (Re)starts the phase timer: connect while waiting for headers, read between body chunks. */
  arm(kind: TimeoutKind, ms: number): void {
    clearTimeout(this.phase);
    this.phase = setTimeout(() => this.fire(kind), ms);
  }

  stop(): void {
    clearTimeout(this.phase);
    clearTimeout(this.total);
  }

  private fire(kind: TimeoutKind): void {
    this.fired ??= kind;
    this.controller.abort();
  }
}

/** FETCH_FAILED for a failure below HTTP: a timeout, a refused or broken connection, a TLS or DNS error. */
export function transportError(err: unknown, href: string, dog: Watchdog, during: 'request' | 'body'): TroveError {
  if (err instanceof TroveError) return err;
  if (dog.fired) return new TroveError('FETCH_FAILED', `fetching ${href} failed: ${TIMEOUT_TEXT[dog.fired]}`, { url: href, reason: `${dog.fired}_timeout` });
  const cause = (err as { cause?: { code?: unknown } }).cause;
  const code = typeof cause?.code === 'string' ? cause.code : undefined;
  const what = during === 'body' ? 'the connection broke while reading the body' : 'could not connect';
  return new TroveError('FETCH_FAILED', `fetching ${href} failed: ${what}${code ? ` (${code})` : ''}`, { url: href, reason: code ?? (during === 'body' ? 'body_interrupted' : 'connect_failed') });
}

/**
 * The body up to `maxBytes`, counted as delivered (fetch has already undone any Content-Encoding),
 * so a small compressed body that inflates past the cap stops at the cap instead of filling memory.
 */
export async function readCapped(res: Response, href: string, maxBytes: number, dog: Watchdog, readTimeoutMs: number): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    dog.arm('read', readTimeoutMs);
    for await (const chunk of (res.body ?? []) as AsyncIterable<Uint8Array>) {
      size += chunk.byteLength;
      if (size > maxBytes) throw tooLarge(href, maxBytes);
      chunks.push(chunk);
      dog.arm('read', readTimeoutMs);
    }
  } catch (err) {
    throw transportError(err, href, dog, 'body');
  }
  return Buffer.concat(chunks);
}

export function tooLarge(href: string, maxBytes: number, declared?: number): TroveError {
  const details: Record<string, unknown> = { url: href, limit: maxBytes };
  if (declared !== undefined) details.size = declared;
  return new TroveError('TOO_LARGE', `${href} is larger than ${maxBytes} bytes (indexer.fetch_max_bytes)`, details);
}

import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { TroveConfig } from '../config/schema.js';
import { TroveError } from '../errors.js';

// Bounds on what one client can hold: requests in flight, time per request, time between body chunks.

/** Seconds a client is told to wait (Retry-After) when every slot is taken. */
export const RETRY_AFTER_SECONDS = 1;

/** At most `max` requests in flight; a request holds its slot until its response closes. */
export class ConcurrencyGate {
  private active = 0;

  constructor(private readonly max: number) {}

  /** Takes a slot for this response, or RATE_LIMITED when all are taken. */
  enter(res: ServerResponse): void {
    if (this.active >= this.max) throw new TroveError('RATE_LIMITED', 'too many requests in flight; retry after the Retry-After delay');
    this.active += 1;
    res.once('close', () => {
      this.active -= 1;
    });
  }

  get inFlight(): number {
    return this.active;
  }
}

export interface RequestTimeouts {
  /** Deadline of the whole request (server.request_timeout_ms). */
  deadlineMs: number;
  /** Longest silence between body chunks (server.body_timeout_ms). */
  bodyIdleMs: number;
}

export function requestTimeouts(config: TroveConfig): RequestTimeouts {
  return { deadlineMs: config.server.request_timeout_ms, bodyIdleMs: config.server.body_timeout_ms };
}

/**
 * Arms one request's timers. At the deadline `controller` aborts
 * and `onTimeout` gets DEADLINE_EXCEEDED (REQUEST_TIMEOUT when the body has not fully arrived); while the
 * body arrives, a silence longer than bodyIdleMs does the same with REQUEST_TIMEOUT. Both stop with the response.
 */
export function armTimeouts(req: IncomingMessage, res: ServerResponse, t: RequestTimeouts, controller: AbortController, onTimeout: (err: TroveError) => void): void {
  const fire = (err: TroveError) => {
    if (!controller.signal.aborted) controller.abort(err);
    onTimeout(err);
  };
  const deadline = setTimeout(() => {
    fire(req.complete ? new TroveError('DEADLINE_EXCEEDED', 'the request took too long') : new TroveError('REQUEST_TIMEOUT', 'the request body did not arrive in time'));
  }, t.deadlineMs);
  res.once('close', () => clearTimeout(deadline));
  if (!req.complete) {
    // Socket inactivity, refreshed by every byte the parser receives; node hands it to the request while its body is incomplete.
    req.setTimeout(t.bodyIdleMs, () => fire(new TroveError('REQUEST_TIMEOUT', 'the request body stalled')));
    req.once('end', () => {
      // Once the response is finished the socket's timer is node's keep-alive timer: leave it.
      if (!res.writableFinished) req.socket?.setTimeout(0);
    });
  }
}

/** Node's own guards against slow clients: header arrival, keep-alive idling, and a backstop for whole requests. */
export function applyServerTimeouts(server: Server, config: TroveConfig): void {
  const s = config.server;
  server.headersTimeout = s.headers_timeout_ms;
  // Our deadline answers first; node's request timeout only catches what no handler is watching.
  server.requestTimeout = s.headers_timeout_ms + s.request_timeout_ms;
  server.keepAliveTimeout = s.keep_alive_timeout_ms;
}

/** How often node checks header and request timeouts: often enough for the configured header timeout. */
export function connectionsCheckingInterval(config: TroveConfig): number {
  return Math.max(50, Math.min(1000, Math.floor(config.server.headers_timeout_ms / 4)));
}

import type { ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { type ErrorCode, isTroveError, toPublicError } from '../errors.js';
import { RETRY_AFTER_SECONDS } from './limits.js';

// Writing answers: JSON bodies, and each error code's status and headers.

/** Headers an error answer carries besides its JSON body. */
function errorHeaders(code: ErrorCode, details: Record<string, unknown> | undefined): Record<string, string> {
  switch (code) {
    case 'UNAUTHORIZED':
      return { 'www-authenticate': 'Bearer realm="trove"' };
    case 'METHOD_NOT_ALLOWED':
      return { allow: (details?.allow as string[]).join(', ') };
    case 'RATE_LIMITED':
      return { 'retry-after': String(RETRY_AFTER_SECONDS) };
    // The rest of the body may still be on its way (or never come): do not read it, close instead.
    case 'PAYLOAD_TOO_LARGE':
    case 'REQUEST_TIMEOUT':
      return { connection: 'close' };
    default:
      return {};
  }
}

export function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', ...headers });
  res.end(text);
}

/** The JSON error answer: code, message and details only, never internals. */
export function sendError(res: ServerResponse, err: unknown): void {
  const pub = toPublicError(err);
  const status = isTroveError(err) ? err.spec.status : 500;
  send(res, status, { error: { code: pub.code, message: pub.message, ...(pub.details ? { details: pub.details } : {}) } }, errorHeaders(pub.code, pub.details));
}

/** Stack and cause chain for the log: a mapped store failure keeps the SQLite error only as its cause. */
export function failureText(err: unknown): string {
  const e = err as Error | undefined;
  const text = String(e?.stack ?? err);
  return e?.cause === undefined ? text : `${text}\ncaused by: ${failureText(e.cause)}`;
}

/**
 * A request node could not parse or that timed out before reaching a handler (a header trickle, a
 * request never finished): a JSON error like every other, then the connection closes.
 */
export function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  // A handler owns the response already (its own timers answer for it): just close.
  const owned = (socket as Duplex & { _httpMessage?: unknown })._httpMessage != null;
  if (!socket.writable || owned || err.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const [status, reason, code, message] =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'Request Timeout', 'REQUEST_TIMEOUT', 'the request did not arrive in time']
      : err.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request Header Fields Too Large', 'INVALID_ARGUMENT', 'request headers are too large']
        : [400, 'Bad Request', 'INVALID_ARGUMENT', 'malformed HTTP request'];
  const body = JSON.stringify({ error: { code, message } });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json; charset=utf-8\r\ncache-control: no-store\r\nx-content-type-options: nosniff\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    () => socket.destroy(),
  );
}

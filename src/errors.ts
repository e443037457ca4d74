// The one table of error codes. Transports map a code to an HTTP status / JSON-RPC / exit code at the edge.

export interface ErrorSpec {
  /** HTTP status used by the HTTP API. */
  status: number;
  /** True when the caller caused it (bad input, missing thing); false for faults of ours or the host. */
  user: boolean;
  /** True when retrying the same call later may succeed. */
  retryable: boolean;
}

export const ERROR_CODES = {
  INVALID_ARGUMENT: { status: 400, user: true, retryable: false },
  INVALID_QUERY: { status: 400, user: true, retryable: false },
  INVALID_CONFIG: { status: 500, user: true, retryable: false },
  NOT_FOUND: { status: 404, user: true, retryable: false },
  /** The thing to create exists already (a user name that is taken). */
  CONFLICT: { status: 409, user: true, retryable: false },
  METHOD_NOT_ALLOWED: { status: 405, user: true, retryable: false },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, user: true, retryable: false },
  PAYLOAD_TOO_LARGE: { status: 413, user: true, retryable: false },
  UNSUPPORTED_TYPE: { status: 415, user: true, retryable: false },
  FILE_NOT_FOUND: { status: 404, user: true, retryable: false },
  /** An input file that is corrupt or not in the format its command reads (a browser database, a bookmarks file). */
  MALFORMED_INPUT: { status: 422, user: true, retryable: false },
  /** Content over a size cap: a file, a fetched page (after decompression), a document's passages. */
  TOO_LARGE: { status: 413, user: true, retryable: false },
  FETCH_FAILED: { status: 502, user: false, retryable: true },
  /** More redirects than indexer.fetch_max_redirects, or a redirect back to a URL already visited. */
  REDIRECT_LOOP: { status: 502, user: false, retryable: false },
  /** A URL scheme trove neither fetches nor stores (file: given as a URL, javascript:, data:, ...). */
  UNSUPPORTED_SCHEME: { status: 400, user: true, retryable: false },
  /** The URL matches indexer.skip_domains or indexer.skip_patterns: it is never indexed. */
  SKIPPED: { status: 422, user: true, retryable: false },
  /** A preview cannot be rendered as asked: no captured HTML is stored, or the chosen extractor declines the page. */
  PREVIEW_UNAVAILABLE: { status: 422, user: true, retryable: false },
  /** A tool result over mcp.max_result_bytes that the tool cannot shorten. */
  RESULT_TOO_LARGE: { status: 413, user: true, retryable: false },
  /** A feature that is not configured or not available on this server. */
  CAPABILITY_UNAVAILABLE: { status: 501, user: true, retryable: false },
  /** An operation request key reused within its retention with different parameters. */
  REQUEST_KEY_CONFLICT: { status: 409, user: true, retryable: false },
  /** expectedRevision differs from the catalog revision (checked again when queued work starts). */
  STALE_REVISION: { status: 409, user: true, retryable: false },
  /** An operation id that is unknown, expired, evicted, of another process lifetime or of another caller. */
  OPERATION_NOT_FOUND: { status: 404, user: true, retryable: false },
  /** Operation admission refused: too many waiting (4 per caller, 8 in all) or 100 retained tombstones; retry later. */
  QUEUE_FULL: { status: 429, user: false, retryable: true },
  /** A CSS selector the browser cannot parse. */
  INVALID_SELECTOR: { status: 400, user: true, retryable: false },
  UNAUTHORIZED: { status: 401, user: true, retryable: false },
  FORBIDDEN: { status: 403, user: true, retryable: false },
  STORE_BUSY: { status: 503, user: false, retryable: true },
  /** More requests in flight than server.max_concurrent; answered with Retry-After. */
  RATE_LIMITED: { status: 429, user: false, retryable: true },
  /** A request still running after server.request_timeout_ms. */
  DEADLINE_EXCEEDED: { status: 503, user: false, retryable: true },
  /** A request body that stalled longer than server.body_timeout_ms, or was still arriving at the deadline. */
  REQUEST_TIMEOUT: { status: 408, user: true, retryable: true },
  /** A remote service trove was configured to call (embeddings, chat, SearXNG) could not be reached: connection refused, reset, DNS. */
  UPSTREAM_UNAVAILABLE: { status: 503, user: false, retryable: true },
  /** A remote service did not answer within its configured timeout. */
  UPSTREAM_TIMEOUT: { status: 504, user: false, retryable: true },
  /** A remote service answered 5xx or 429. */
  UPSTREAM_FAILED: { status: 502, user: false, retryable: true },
  /** A remote service refused the request with a 4xx (wrong API key, unknown model, input too long). */
  UPSTREAM_REJECTED: { status: 502, user: false, retryable: false },
  /** A remote service answered something unusable: not JSON, the wrong shape, vectors of the wrong length or count. */
  UPSTREAM_INVALID: { status: 502, user: false, retryable: false },
  STORE_CORRUPT: { status: 500, user: false, retryable: false },
  STORE_UNAVAILABLE: { status: 503, user: false, retryable: false },
  STORE_TOO_NEW: { status: 500, user: false, retryable: false },
  LISTEN_FAILED: { status: 500, user: false, retryable: false },
  /** A list_documents cursor whose catalog revision is gone (more than one change since), older than 60 s, or from another process lifetime. */
  CURSOR_EXPIRED: { status: 410, user: true, retryable: false },
  /** The document has no stored text for that version. */
  TEXT_NOT_FOUND: { status: 404, user: true, retryable: false },
  /** read_source cannot read the document's file: not a local document, outside the configured roots, gone, or indexed without its identity. */
  SOURCE_UNAVAILABLE: { status: 422, user: true, retryable: false },
  /** The file's identity (device, inode, size, mtime) or content changed since it was indexed. */
  SOURCE_CHANGED: { status: 409, user: true, retryable: false },
  /** The file is not valid UTF-8. */
  INVALID_UTF8: { status: 422, user: true, retryable: false },
  /** The file contains NUL bytes. */
  BINARY_CONTENT: { status: 422, user: true, retryable: false },
  /** The file holds text trove redacts (redact.*): its exact lines are not served. */
  SOURCE_REDACTED: { status: 422, user: true, retryable: false },
  INTERNAL: { status: 500, user: false, retryable: false },
} as const satisfies Record<string, ErrorSpec>;

export type ErrorCode = keyof typeof ERROR_CODES;

export class TroveError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, details?: Record<string, unknown>, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TroveError';
    this.code = code;
    this.details = details;
  }

  get spec(): ErrorSpec {
    return ERROR_CODES[this.code];
  }
}

export function isTroveError(err: unknown): err is TroveError {
  return err instanceof TroveError;
}

/** What a client may see of any error: internal failures lose their message and stack. */
export interface PublicError {
  code: ErrorCode;
  message: string;
  retryable: boolean;
  details?: Record<string, unknown>;
}

export function toPublicError(err: unknown): PublicError {
  if (isTroveError(err)) {
    const out: PublicError = { code: err.code, message: err.message, retryable: err.spec.retryable };
    if (err.details !== undefined) out.details = err.details;
    return out;
  }
  return { code: 'INTERNAL', message: 'internal error; see the server log', retryable: false };
}

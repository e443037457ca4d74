import { TroveError } from '../errors.js';

// The one HTTP exchange of every provider: JSON in, JSON out, each failure a coded error that names
// the service and its address but never the API key, the upstream body or a stack.

export type ServiceName = 'embeddings' | 'chat' | 'searxng';

export interface HttpTarget {
  service: ServiceName;
  /** Full URL of the endpoint. */
  url: string;
  apiKey?: string | undefined;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
}

/** `{base}/v1/{path}`; a base already ending in /v1 (the OpenAI client convention) is not doubled. */
export function openAiUrl(baseUrl: string, path: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  return /\/v1$/i.test(base) ? `${base}/${path}` : `${base}/v1/${path}`;
}

/** The address as errors and logs show it: without credentials, query or fragment. */
export function displayUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '(invalid url)';
  }
}

function upstreamError(code: 'UPSTREAM_UNAVAILABLE' | 'UPSTREAM_TIMEOUT' | 'UPSTREAM_FAILED' | 'UPSTREAM_REJECTED' | 'UPSTREAM_INVALID', t: HttpTarget, what: string, extra: Record<string, unknown> = {}): TroveError {
  return new TroveError(code, `the ${t.service} endpoint ${displayUrl(t.url)} ${what}`, { service: t.service, ...extra });
}

/** The invalid-answer error of a service, for checks made after parsing (shape, vector length). */
export function invalidAnswer(t: Pick<HttpTarget, 'service' | 'url'>, what: string, extra: Record<string, unknown> = {}): TroveError {
  return upstreamError('UPSTREAM_INVALID', { ...t, timeoutMs: 0 }, what, extra);
}

/** A short machine code from an OpenAI-style error body ("model_not_found"), never its free text. */
function upstreamCode(body: string): string | undefined {
  try {
    const err = (JSON.parse(body) as { error?: { code?: unknown; type?: unknown } }).error;
    const code = typeof err?.code === 'string' ? err.code : err?.type;
    return typeof code === 'string' && /^[a-z0-9_.-]{1,64}$/i.test(code) ? code : undefined;
  } catch {
    return undefined;
  }
}

/** fetch refuses URLs with credentials: user:password@ in a base_url becomes Basic authentication (a proxy in front). */
function splitCredentials(raw: string): { url: string; basic?: string } {
  const u = URL.canParse(raw) ? new URL(raw) : undefined;
  if (!u || (!u.username && !u.password)) return { url: raw };
  const basic = Buffer.from(`${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`).toString('base64');
  u.username = '';
  u.password = '';
  return { url: u.toString(), basic };
}

function networkCause(err: unknown): string {
  const cause = (err as { cause?: { code?: unknown } })?.cause;
  return typeof cause?.code === 'string' ? cause.code : 'network error';
}

/** Sends one request and returns the parsed JSON answer; every failure is a TroveError. */
export async function exchangeJson(t: HttpTarget, init: { method: 'GET' | 'POST'; body?: unknown }): Promise<unknown> {
  const timeout = AbortSignal.timeout(t.timeoutMs);
  const signal = t.signal ? AbortSignal.any([timeout, t.signal]) : timeout;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const { url, basic } = splitCredentials(t.url);
  if (t.apiKey) headers.authorization = `Bearer ${t.apiKey}`;
  else if (basic) headers.authorization = `Basic ${basic}`;
  let text: string;
  let status: number;
  try {
    const res = await fetch(url, { method: init.method, headers, body: init.body === undefined ? undefined : JSON.stringify(init.body), signal });
    status = res.status;
    text = await res.text();
  } catch (err) {
    if (t.signal?.aborted && !timeout.aborted) throw t.signal.reason ?? err;
    if (timeout.aborted) throw upstreamError('UPSTREAM_TIMEOUT', t, `did not answer within ${t.timeoutMs} ms`, { timeout_ms: t.timeoutMs });
    throw upstreamError('UPSTREAM_UNAVAILABLE', t, `cannot be reached (${networkCause(err)})`);
  }
  if (status === 429 || status >= 500) throw upstreamError('UPSTREAM_FAILED', t, `answered ${status}`, { status, upstream_code: upstreamCode(text) });
  if (status >= 400) throw upstreamError('UPSTREAM_REJECTED', t, `refused the request with ${status}`, { status, upstream_code: upstreamCode(text) });
  if (status < 200 || status >= 300) throw upstreamError('UPSTREAM_INVALID', t, `answered ${status}`, { status });
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw upstreamError('UPSTREAM_INVALID', t, 'answered something that is not JSON', { status });
  }
}

import type { TroveConfig } from '../config/schema.js';
import { TroveError } from '../errors.js';
import { chooseEncoding, decodeBody } from './charset.js';
import { Watchdog, readCapped, tooLarge, transportError } from './fetch-io.js';
import { fetchableUrl, requestTarget } from './urls.js';

export interface FetchOptions {
  /** The whole fetch: every redirect and the body. */
  timeoutMs: number;
  maxBytes: number;
  userAgent: string;
  /** Until the response headers arrive, per request; default `timeoutMs`. */
  connectTimeoutMs?: number;
  /** Longest silence between body chunks; default `timeoutMs`. */
  readTimeoutMs?: number;
  /** Default 5. */
  maxRedirects?: number;
}

export interface FetchedResource {
  /** The final URL, after redirects, without its fragment. */
  url: string;
  /** Lower-case media type without parameters, e.g. text/html. */
  mediaType: string;
  contentType: string;
  bytes: Buffer;
}

export interface FetchedPage {
  url: string;
  contentType: 'html' | 'text';
  mediaType: string;
  /** The encoding the body was decoded with. */
  charset: string;
  body: string;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);
const TEXT_TYPES = new Set(['text/plain', 'text/markdown', 'text/x-markdown']);

/** Fetch options from the [indexer] settings. */
export function fetchOptions(config: TroveConfig): Required<FetchOptions> {
  const c = config.indexer;
  return {
    timeoutMs: c.fetch_timeout_ms,
    connectTimeoutMs: c.fetch_connect_timeout_ms,
    readTimeoutMs: c.fetch_read_timeout_ms,
    maxBytes: c.fetch_max_bytes,
    maxRedirects: c.fetch_max_redirects,
    userAgent: c.user_agent,
  };
}

function withDefaults(opts: FetchOptions): Required<FetchOptions> {
  return { ...opts, connectTimeoutMs: opts.connectTimeoutMs ?? opts.timeoutMs, readTimeoutMs: opts.readTimeoutMs ?? opts.timeoutMs, maxRedirects: opts.maxRedirects ?? 5 };
}

/** Fetches an http(s) page as HTML or plain text (the only kinds trove keeps from the web). */
export async function fetchPage(rawUrl: string, options: FetchOptions): Promise<FetchedPage> {
  const res = await fetchResource(rawUrl, options, (type) => HTML_TYPES.has(type) || TEXT_TYPES.has(type));
  const html = HTML_TYPES.has(res.mediaType);
  const charset = chooseEncoding(res.bytes, res.contentType, html);
  const body = decodeBody(res.bytes, charset);
  if (body.includes('\0')) throw new TroveError('UNSUPPORTED_TYPE', `${res.url} claims to be ${res.mediaType} but looks binary (it contains NUL characters)`, { url: res.url, media_type: res.mediaType });
  return { url: res.url, contentType: html ? 'html' : 'text', mediaType: res.mediaType, charset, body };
}

/**
 * GETs an http(s) URL, following at most `maxRedirects` redirects by hand so that every hop is
 * checked (scheme, loops), with connect/read/total timeouts and a size cap on the decoded body.
 * `accepts` sees the media type before the body is read; a refusal is UNSUPPORTED_TYPE.
 */
export async function fetchResource(rawUrl: string, options: FetchOptions, accepts: (mediaType: string) => boolean): Promise<FetchedResource> {
  const opts = withDefaults(options);
  const first = fetchableUrl(rawUrl);
  const dog = new Watchdog(opts.timeoutMs);
  try {
    const { res, url } = await followRedirects(first, opts, dog);
    const href = requestTarget(url).href;
    const contentType = res.headers.get('content-type') ?? '';
    const mediaType = contentType.split(';')[0]!.trim().toLowerCase();
    if (!accepts(mediaType)) {
      await res.body?.cancel().catch(() => undefined);
      throw new TroveError('UNSUPPORTED_TYPE', `${href} is ${mediaType || 'of unknown type'}; only HTML and plain text are kept`, { url: href, media_type: mediaType || null });
    }
    const declared = Number(res.headers.get('content-length') ?? NaN);
    const encoded = (res.headers.get('content-encoding') ?? 'identity').toLowerCase() !== 'identity';
    if (!encoded && declared > opts.maxBytes) {
      await res.body?.cancel().catch(() => undefined);
      throw tooLarge(href, opts.maxBytes, declared);
    }
    const bytes = await readCapped(res, href, opts.maxBytes, dog, opts.readTimeoutMs);
    return { url: stripHash(url), mediaType, contentType, bytes };
  } finally {
    dog.stop();
  }
}

function stripHash(url: URL): string {
  const u = new URL(url.href);
  u.hash = '';
  return u.href;
}

async function followRedirects(first: URL, opts: Required<FetchOptions>, dog: Watchdog): Promise<{ res: Response; url: URL }> {
  const chain = [requestTarget(first).href];
  let url = first;
  for (;;) {
    const res = await request(url, first, opts, dog);
    if (REDIRECTS.has(res.status)) {
      await res.body?.cancel().catch(() => undefined);
      url = nextHop(res, chain, opts.maxRedirects);
      continue;
    }
    if (res.status < 200 || res.status > 299) {
      await res.body?.cancel().catch(() => undefined);
      const href = chain[chain.length - 1]!;
      throw new TroveError('FETCH_FAILED', `fetching ${href} failed: HTTP ${res.status}`, { url: href, status: res.status });
    }
    return { res, url };
  }
}

/** The checked target of a redirect; REDIRECT_LOOP on a URL already visited or one hop too many. */
function nextHop(res: Response, chain: string[], maxRedirects: number): URL {
  const from = chain[chain.length - 1]!;
  const location = res.headers.get('location');
  if (!location) throw new TroveError('FETCH_FAILED', `fetching ${from} failed: HTTP ${res.status} without a Location`, { url: from, status: res.status });
  const next = fetchableUrl(location, from);
  const href = requestTarget(next).href;
  if (chain.includes(href)) throw new TroveError('REDIRECT_LOOP', `${chain[0]} redirects in a loop back to ${href}`, { url: chain[0], chain: [...chain, href] });
  if (chain.length > maxRedirects) throw new TroveError('REDIRECT_LOOP', `${chain[0]} redirects more than ${maxRedirects} times (indexer.fetch_max_redirects)`, { url: chain[0], limit: maxRedirects, chain: [...chain, href] });
  chain.push(href);
  return next;
}

async function request(url: URL, first: URL, opts: Required<FetchOptions>, dog: Watchdog): Promise<Response> {
  const target = requestTarget(url);
  // Credentials in the URL the user gave go to that origin only, never to where it redirects.
  const authorization = target.authorization ?? (url.origin === first.origin ? requestTarget(first).authorization : undefined);
  const headers: Record<string, string> = { 'user-agent': opts.userAgent, accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.1' };
  if (authorization) headers.authorization = authorization;
  dog.arm('connect', opts.connectTimeoutMs);
  try {
    return await fetch(target.href, { headers, redirect: 'manual', signal: dog.signal });
  } catch (err) {
    throw transportError(err, target.href, dog, 'request');
  }
}

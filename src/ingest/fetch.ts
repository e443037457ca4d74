import { TroveError } from '../errors.js';

export interface FetchOptions {
  timeoutMs: number;
  maxBytes: number;
  userAgent: string;
}

export interface FetchedPage {
  url: string;
  contentType: 'html' | 'text';
  body: string;
}

function decode(bytes: Uint8Array, charset: string | undefined): string {
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}

/** Fetches an http(s) page as HTML or plain text, with a time limit and a size cap. */
export async function fetchPage(rawUrl: string, opts: FetchOptions): Promise<FetchedPage> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new TroveError('INVALID_ARGUMENT', `not a URL: ${rawUrl}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TroveError('INVALID_ARGUMENT', `only http and https URLs can be fetched, not ${url.protocol}`);
  let res: Response;
  try {
    res = await fetch(url, { headers: { 'user-agent': opts.userAgent, accept: 'text/html,text/plain;q=0.9,*/*;q=0.1' }, signal: AbortSignal.timeout(opts.timeoutMs), redirect: 'follow' });
  } catch (err) {
    const reason = (err as Error).name === 'TimeoutError' ? `timed out after ${opts.timeoutMs} ms` : 'could not connect';
    throw new TroveError('FETCH_FAILED', `fetching ${url.href} failed: ${reason}`, { url: url.href });
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new TroveError('FETCH_FAILED', `fetching ${url.href} failed: HTTP ${res.status}`, { url: url.href, status: res.status });
  }
  const type = (res.headers.get('content-type') ?? '').toLowerCase();
  const kind = /html|xhtml/.test(type) ? 'html' : /^text\/(plain|markdown)/.test(type) ? 'text' : undefined;
  if (!kind) {
    await res.body?.cancel();
    throw new TroveError('UNSUPPORTED_TYPE', `${url.href} is ${type || 'of unknown type'}; only HTML and plain text are kept`, { url: url.href });
  }
  const bytes = await readBody(res, url.href, opts);
  const charset = /charset=([^;\s]+)/.exec(type)?.[1]?.replace(/"/g, '');
  return { url: res.url || url.href, contentType: kind, body: decode(bytes, charset) };
}

/** The response body up to `maxBytes`; a timeout or a dropped connection mid-body is FETCH_FAILED too. */
async function readBody(res: Response, href: string, opts: FetchOptions): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const chunk of res.body ?? []) {
      size += chunk.byteLength;
      if (size > opts.maxBytes) throw new TroveError('FILE_TOO_LARGE', `${href} is larger than ${opts.maxBytes} bytes`, { url: href });
      chunks.push(chunk);
    }
  } catch (err) {
    if (err instanceof TroveError) throw err;
    const reason = (err as Error).name === 'TimeoutError' ? `timed out after ${opts.timeoutMs} ms` : 'the connection broke while reading the body';
    throw new TroveError('FETCH_FAILED', `fetching ${href} failed: ${reason}`, { url: href });
  }
  return Buffer.concat(chunks);
}

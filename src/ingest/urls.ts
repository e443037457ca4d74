import { existsSync } from 'node:fs';
import { TroveError } from '../errors.js';

const FETCHABLE = new Set(['http:', 'https:']);

/** A command-line target that names a URL rather than a path: a scheme of two or more letters, and no such file. */
export function isUrlTarget(target: string): boolean {
  return /^[a-z][a-z0-9+.-]+:/i.test(target) && !existsSync(target);
}

/** Parses a URL trove may fetch: http or https only; anything else is UNSUPPORTED_SCHEME. */
export function fetchableUrl(raw: string, redirectedFrom?: string): URL {
  let url: URL;
  try {
    url = redirectedFrom === undefined ? new URL(raw) : new URL(raw, redirectedFrom);
  } catch {
    if (redirectedFrom !== undefined) throw new TroveError('FETCH_FAILED', `${redirectedFrom} redirected to an invalid URL`, { url: redirectedFrom, reason: 'bad_location' });
    throw new TroveError('INVALID_ARGUMENT', `not a URL: ${JSON.stringify(raw.slice(0, 200))}`, { field: 'url' });
  }
  if (!FETCHABLE.has(url.protocol)) throw unsupportedScheme(url, redirectedFrom);
  return url;
}

function unsupportedScheme(url: URL, redirectedFrom: string | undefined): TroveError {
  const scheme = url.protocol.slice(0, -1);
  const details: Record<string, unknown> = { scheme, field: 'url' };
  if (redirectedFrom !== undefined) {
    details.redirected_from = redirectedFrom;
    return new TroveError('UNSUPPORTED_SCHEME', `${redirectedFrom} redirected to a ${scheme}: URL; only http and https are followed`, details);
  }
  const hint = scheme === 'file' ? '; give the path itself to add a local file' : '';
  return new TroveError('UNSUPPORTED_SCHEME', `only http and https URLs can be fetched, not ${scheme}:${hint}`, details);
}

/** The URL to request (no credentials, no fragment) and the Basic credentials its user info carried. */
export function requestTarget(url: URL): { href: string; authorization?: string } {
  const bare = new URL(url.href);
  bare.hash = '';
  if (!url.username && !url.password) return { href: bare.href };
  bare.username = '';
  bare.password = '';
  const pair = `${percentDecoded(url.username)}:${percentDecoded(url.password)}`;
  return { href: bare.href, authorization: `Basic ${Buffer.from(pair).toString('base64')}` };
}

function percentDecoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

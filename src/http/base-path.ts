// server.base_url: the sub-path every route lives under, and the public origin it may name.

/** The path part of server.base_url, percent-encoded like request paths, without a trailing slash; '' for the root. */
export function basePath(baseUrl: string): string {
  if (!baseUrl) return '';
  const url = /^https?:\/\//i.test(baseUrl) ? new URL(baseUrl) : new URL(baseUrl, 'http://localhost');
  return url.pathname.replace(/\/+$/, '');
}

/** The origin part of server.base_url (`https://example.com`), when it has one. */
export function baseOrigin(baseUrl: string): string | undefined {
  return /^https?:\/\//i.test(baseUrl) ? new URL(baseUrl).origin : undefined;
}

/**
 * The path a request names inside the base path (`/trove/api/status` -> `/api/status`);
 * undefined when it lies outside (`/api/status`, `/trovex`).
 */
export function stripBase(pathname: string, base: string): string | undefined {
  if (!base) return pathname;
  if (pathname === base) return '/';
  return pathname.startsWith(`${base}/`) ? pathname.slice(base.length) : undefined;
}

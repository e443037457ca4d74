import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const digest = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();

/** The token a request carries: Authorization: Bearer <t> or X-Access-Token: <t>. */
export function requestToken(req: IncomingMessage): string | undefined {
  const auth = req.headers.authorization;
  if (auth) {
    const m = /^Bearer\s+(.+)$/i.exec(auth.trim());
    if (m) return m[1]!.trim();
  }
  const header = req.headers['x-access-token'];
  return typeof header === 'string' && header ? header.trim() : undefined;
}

/** Constant-time comparison of two tokens (hashing first equalizes lengths). */
export function tokensEqual(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
}

import type { IncomingMessage } from 'node:http';

export { tokensEqual } from '../util/tokens.js';

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

export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
}

import type { App } from '../app.js';
import { TroveError } from '../errors.js';
import { tokensEqual } from '../util/tokens.js';
import { ANONYMOUS, OWNER, type Principal, authMode } from './access.js';
import { resolveToken } from './users.js';

/**
 * Who a request speaks for, from the token it carries (or none): the static token is the owner, a personal
 * token its user; open mode trusts every (loopback) caller; public mode lets anonymous callers in. Any
 * token that is given and unknown is UNAUTHORIZED, so a typo is never mistaken for anonymous access.
 */
export async function resolvePrincipal(app: App, token: string | undefined): Promise<Principal> {
  const { app: cfg } = app.config;
  if (authMode(app.config) === 'open') return OWNER;
  if (token !== undefined) {
    if (cfg.access_token && tokensEqual(token, cfg.access_token)) return OWNER;
    const user = cfg.user_handling ? await resolveToken(app, token) : undefined;
    if (user) return user;
    throw new TroveError('UNAUTHORIZED', 'invalid access token');
  }
  if (cfg.public) return ANONYMOUS;
  throw new TroveError('UNAUTHORIZED', 'missing access token');
}

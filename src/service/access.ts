import type { TroveConfig } from '../config/schema.js';
import { TroveError } from '../errors.js';
import type { Scope } from '../store/types.js';

// The one authorization function: every HTTP route, MCP tool, resource read and remote CLI call asks it.

/** Who is calling: nobody (public mode), the owner of the instance (open mode, the static token, stdio, the local CLI) or a user. */
export type Principal =
  | { kind: 'anonymous' }
  | { kind: 'owner' }
  | { kind: 'user'; userId: number; name: string; admin: boolean };

export const OWNER: Principal = { kind: 'owner' };
export const ANONYMOUS: Principal = { kind: 'anonymous' };

/**
 * What a call does. `documents.read`: search, previews, documents; `history.read`: the history views;
 * `documents.write`: add, delete, batch, import, opened results; `memory.*`: banks and memories;
 * `profile.token`: a user's own token; `admin`: users and instance-wide settings; `meta.read`: status,
 * tool registry, health (no user data); `web.search`: searching the web through the configured SearXNG on
 * the caller's behalf (known callers only: it spends the server's network).
 */
export type Action = 'meta.read' | 'documents.read' | 'history.read' | 'documents.write' | 'memory.read' | 'memory.write' | 'web.search' | 'profile.token' | 'admin';

export type AuthMode = 'open' | 'token' | 'users';

/** What an allowed call may touch. */
export interface Grant {
  principal: Principal;
  /** Documents (and history) visible to the call. */
  scope: Scope;
  /** Owner of what the call writes: null for global documents. */
  writeOwner: number | null;
}

export function authMode(config: TroveConfig): AuthMode {
  if (config.app.user_handling) return 'users';
  return config.app.access_token ? 'token' : 'open';
}

const PUBLIC_ACTIONS: ReadonlySet<Action> = new Set(['meta.read', 'documents.read']);

function isAdmin(p: Principal): boolean {
  return p.kind === 'owner' || (p.kind === 'user' && p.admin);
}

/**
 * Allows or refuses `action` for `principal`: UNAUTHORIZED when a credential would help, FORBIDDEN when
 * the caller is known and may not. Admins and the owner see every document; a user sees the global
 * ones and their own; an anonymous caller (public mode only) the global ones.
 */
export function authorize(principal: Principal, action: Action): Grant {
  if (principal.kind === 'anonymous') {
    if (!PUBLIC_ACTIONS.has(action)) throw new TroveError('UNAUTHORIZED', 'this needs an access token');
    return { principal, scope: { userId: null }, writeOwner: null };
  }
  if (action === 'admin' && !isAdmin(principal)) throw new TroveError('FORBIDDEN', 'this needs an admin');
  if (action === 'profile.token' && principal.kind !== 'user') throw new TroveError('FORBIDDEN', 'only a user has a personal token');
  if (principal.kind === 'owner') return { principal, scope: { all: true }, writeOwner: null };
  const scope: Scope = principal.admin ? { all: true } : { userId: principal.userId };
  return { principal, scope, writeOwner: principal.userId };
}

/** A label for logs and audit lines; never a token. */
export function principalLabel(p: Principal): string {
  if (p.kind === 'user') return `user:${p.name}`;
  return p.kind;
}

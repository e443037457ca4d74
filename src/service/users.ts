import { createHash, randomBytes } from 'node:crypto';
import type { App } from '../app.js';
import { TroveError } from '../errors.js';
import type { UserRecord } from '../store/types.js';
import { iso } from './views.js';

// Users of multi-user mode (app.user_handling) and their personal tokens: create, delete, show, list,
// regenerate, and resolving a presented token to its user. Every user change is audit-logged; no log line,
// view or error ever carries a token or its hash.

/** Recognisable prefix, so secret scanners (and people) can tell a trove token when one leaks. */
export const TOKEN_PREFIX = 'trove_';
/** 32 random bytes, base64url without padding: 43 characters. */
const TOKEN_SHAPE = /^trove_[A-Za-z0-9_-]{43}$/;
const NAME = /^[A-Za-z0-9._-]{1,64}$/;

/** Who a personal token speaks for (the `user` case of the authorization layer's principal). */
export interface UserPrincipal {
  kind: 'user';
  userId: number;
  name: string;
  admin: boolean;
}

/** A user as every transport shows them: ISO times, never a token or a hash. */
export interface UserView {
  name: string;
  admin: boolean;
  created: string;
  /** When the current token was made; null when the user has none. */
  token_created: string | null;
  /** Last use of the token, to within a minute; null when never used. */
  token_last_used: string | null;
}

/** A new or regenerated token, returned once: only its hash is stored. */
export interface UserWithToken {
  user: UserView;
  token: string;
}

export interface CreateUserInput {
  name: string;
  admin?: boolean | undefined;
}

export function toUserView(u: UserRecord): UserView {
  return {
    name: u.name,
    admin: u.isAdmin,
    created: iso(u.createdAt),
    token_created: u.tokenCreatedAt === null ? null : iso(u.tokenCreatedAt),
    token_last_used: u.tokenLastUsedAt === null ? null : iso(u.tokenLastUsedAt),
  };
}

export function checkUserName(name: unknown): string {
  if (typeof name !== 'string' || !NAME.test(name)) {
    throw new TroveError('INVALID_ARGUMENT', 'a user name is 1 to 64 characters of A-Z, a-z, 0-9, ".", "_" and "-"', { field: 'name' });
  }
  return name;
}

/** A fresh personal token: `trove_` and 32 random bytes in base64url (256 bits of entropy). */
export function newToken(): string {
  return `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/**
 * The stored form of a token: SHA-256 in hex. Tokens are 256 random bits, so a fast unsalted hash is
 * appropriate (nothing to guess, no dictionary to precompute); a slow password hash would only cost
 * every request time. A leaked store therefore yields no usable token.
 */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

function audit(app: App, action: 'user.create' | 'user.delete' | 'token.regenerate', principal: string, target: string): void {
  app.log.info('audit', { action, principal, target });
}

async function existing(app: App, name: string): Promise<UserRecord> {
  const user = await app.store.getUser(checkUserName(name));
  if (!user) throw new TroveError('NOT_FOUND', `no user named ${name}`, { field: 'name' });
  return user;
}

/** Creates a user with a personal token; CONFLICT when the name is taken. `principal` is who asked, for the audit log. */
export async function createUser(app: App, input: CreateUserInput, principal = 'cli'): Promise<UserWithToken> {
  const name = checkUserName(input.name);
  const token = newToken();
  const user = await app.store.createUser(name, input.admin === true, hashToken(token));
  audit(app, 'user.create', principal, name);
  return { user: toUserView(user), token };
}

/** Deletes a user with their tokens, banks and personal documents; NOT_FOUND for an unknown name. */
export async function deleteUser(app: App, name: string, principal = 'cli'): Promise<{ name: string; deleted: true }> {
  if (!(await app.store.deleteUser(checkUserName(name)))) throw new TroveError('NOT_FOUND', `no user named ${name}`, { field: 'name' });
  audit(app, 'user.delete', principal, name);
  return { name, deleted: true };
}

export async function showUser(app: App, name: string): Promise<UserView> {
  return toUserView(await existing(app, name));
}

export async function listUsers(app: App): Promise<{ users: UserView[] }> {
  return { users: (await app.store.listUsers()).map(toUserView) };
}

/** Replaces the user's token with a new one, returned once; the old one stops working at once. */
export async function regenerateToken(app: App, name: string, principal = 'cli'): Promise<UserWithToken> {
  const user = await existing(app, name);
  const token = newToken();
  const updated = await app.store.replaceToken(user.id, hashToken(token));
  if (!updated) throw new TroveError('NOT_FOUND', `no user named ${name}`, { field: 'name' });
  audit(app, 'token.regenerate', principal, name);
  return { user: toUserView(updated), token };
}

/**
 * The user a presented personal token belongs to, or undefined. The token is never compared itself: the
 * store is searched by its SHA-256, so the time taken does not depend on how much of a stored token a guess
 * shares (constant-time by construction). Malformed tokens are turned away before any lookup; their shape
 * is public, so that reveals nothing. This does not look at app.user_handling: the caller decides the mode.
 */
export async function resolveToken(app: App, token: string): Promise<UserPrincipal | undefined> {
  if (!TOKEN_SHAPE.test(token)) return undefined;
  const user = await app.store.userByTokenHash(hashToken(token));
  return user ? { kind: 'user', userId: user.id, name: user.name, admin: user.isAdmin } : undefined;
}

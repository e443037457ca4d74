import type { App } from '../app.js';
import { TroveError } from '../errors.js';
import type { BankRecord, ChunkFilter } from '../store/types.js';
import type { Grant } from './access.js';
import { iso } from './views.js';

// Memory banks (seed 003): a bank is named by the caller and belongs to the principal that first retains
// into it, so bank "alice" of one user and "alice" of another are two banks. The instance owner's banks
// (open mode, the static token, stdio, the local CLI) have no owner user.

const BANK_NAME = /^[A-Za-z0-9._-]{1,64}$/;

export interface BankView {
  name: string;
  memories: number;
  created: string;
  /** Latest change to one of its memories; null when it holds none. */
  last_activity: string | null;
}

export function isBankName(name: unknown): name is string {
  return typeof name === 'string' && BANK_NAME.test(name) && name !== '.' && name !== '..';
}

/** The name, or INVALID_ARGUMENT naming `field`. */
export function checkBankName(name: unknown, field = 'bank'): string {
  if (!isBankName(name)) {
    throw new TroveError('INVALID_ARGUMENT', 'a bank name is 1 to 64 characters of A-Z, a-z, 0-9, ".", "_" and "-", and not "." or ".."', { field });
  }
  return name;
}

/** Whose banks a call works on: a user's own (admins too: no reading across users), else the owner's (null). */
export function bankOwner(grant: Grant): number | null {
  return grant.principal.kind === 'user' ? grant.principal.userId : null;
}

export function toBankView(b: BankRecord): BankView {
  return { name: b.name, memories: b.memoryCount, created: iso(b.createdAt), last_activity: b.lastActivity === null ? null : iso(b.lastActivity) };
}

/** The caller's bank of that name; undefined when it has not been created (by a first retain) yet. */
export async function findBank(app: App, grant: Grant, name: string): Promise<BankRecord | undefined> {
  checkBankName(name);
  // Anonymous callers (public mode) have no banks, and must never reach the owner's.
  if (grant.principal.kind === 'anonymous') return undefined;
  return app.store.getBank(bankOwner(grant), name);
}

/** What a call may see among chunks: its scope's documents (memories excepted) and the memories of `bank`. */
export async function visibleChunks(app: App, grant: Grant, bank: string | undefined): Promise<ChunkFilter> {
  const found = bank === undefined ? undefined : await findBank(app, grant, bank);
  return { scope: grant.scope, bankId: found?.id ?? null };
}

/** The id of the user an admin names (CLI --user), as a bank owner. */
export async function userAsOwner(app: App, userName: string): Promise<number> {
  const user = await app.store.getUser(userName);
  if (!user) throw new TroveError('NOT_FOUND', `no user named ${userName}`, { field: 'user' });
  return user.id;
}

export async function listBanks(app: App, owner: number | null): Promise<{ banks: BankView[] }> {
  return { banks: (await app.store.listBanks(owner)).map(toBankView) };
}

/** Deletes a bank with every memory in it; NOT_FOUND when the owner has no such bank. */
export async function deleteBank(app: App, owner: number | null, name: string): Promise<{ bank: string; deleted: true; memories: number }> {
  const removed = await app.store.deleteBank(owner, checkBankName(name));
  if (removed === undefined) throw new TroveError('NOT_FOUND', `no bank named ${name}`, { field: 'bank' });
  app.log.info('bank deleted', { bank: name, memories: removed });
  return { bank: name, deleted: true, memories: removed };
}

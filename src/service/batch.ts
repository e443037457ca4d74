import type { App } from '../app.js';
import { type PublicError, TroveError, toPublicError } from '../errors.js';
import { ALL_OWNERS, type Scope } from '../store/types.js';
import { type AddResult, type ContentInput, addContent, addContents, deleteDocument } from './documents.js';

export type BatchOperation = { op: 'add'; input: ContentInput } | { op: 'delete'; id: string };

/** An operation refused before it ran (e.g. it did not validate) is passed in as its error. */
export type BatchItem = BatchOperation | TroveError;

export type BatchResult =
  | ({ ok: true; op: 'add' } & AddResult)
  | { ok: true; op: 'delete'; id: string; url: string; deleted: true }
  | { ok: false; error: PublicError };

export const MAX_BATCH_OPERATIONS = 100;

/**
 * Runs operations in order and answers one result per operation; a failing operation never spoils
 * the others. Consecutive adds share one transaction; if it fails, they are retried one by one.
 */
export async function runBatch(app: App, items: BatchItem[], grant: { scope: Scope; writeOwner: number | null } = { scope: ALL_OWNERS, writeOwner: null }): Promise<BatchResult[]> {
  const results = new Array<BatchResult>(items.length);
  let adds: Array<{ slot: number; input: ContentInput }> = [];
  const flush = async () => {
    await storeAdds(app, adds, results);
    adds = [];
  };
  for (const [slot, item] of items.entries()) {
    if (item instanceof TroveError) results[slot] = failed(app, item);
    else if (item.op === 'add') adds.push({ slot, input: { ...item.input, ownerId: grant.writeOwner } });
    else {
      await flush();
      results[slot] = await attempt(app, async () => ({ ok: true as const, op: 'delete' as const, ...(await deleteDocument(app, item.id, grant.scope)) }));
    }
  }
  await flush();
  return results;
}

async function storeAdds(app: App, adds: Array<{ slot: number; input: ContentInput }>, results: BatchResult[]): Promise<void> {
  if (adds.length === 0) return;
  try {
    const stored = await addContents(app, adds.map((a) => a.input));
    adds.forEach((a, i) => (results[a.slot] = { ok: true, op: 'add', ...stored[i]! }));
  } catch {
    for (const a of adds) results[a.slot] = await attempt(app, async () => ({ ok: true as const, op: 'add' as const, ...(await addContent(app, a.input)) }));
  }
}

async function attempt(app: App, run: () => Promise<BatchResult>): Promise<BatchResult> {
  try {
    return await run();
  } catch (err) {
    return failed(app, err);
  }
}

function failed(app: App, err: unknown): BatchResult {
  const error = toPublicError(err);
  if (error.code === 'INTERNAL') app.log.error('batch operation failed', { error: String((err as Error | undefined)?.stack ?? err) });
  return { ok: false, error };
}

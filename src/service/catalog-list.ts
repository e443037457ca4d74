import { createHash } from 'node:crypto';
import type { App } from '../app.js';
import { TroveError } from '../errors.js';
import type { CatalogAccess, CatalogDocument, CatalogEntry, DocumentKind } from '../store/types.js';
import type { Snapshot } from './catalog-cursor.js';

// list_documents: revision-pinned pages of the catalog. Page 1 takes a snapshot of the matching ids at
// the current revision; its cursors cut the next pages from that snapshot, so pages never shift when the
// catalog changes in between. A cursor is served while its revision is one of the latest two (the
// catalog changed at most once since) and for 60 s after it was issued; then CURSOR_EXPIRED.

export const LIST_PAGE = { default: 50, max: 100 } as const;
export const MAX_QUERY_CHARS = 256;

export interface ListInput {
  /** Case-insensitive substring of the title, url or label. */
  query?: string | undefined;
  kind?: DocumentKind | undefined;
  label?: string | undefined;
  domain?: string | undefined;
  pageSize?: number | undefined;
  cursor?: string | undefined;
}

export interface ListPage {
  instanceId: string;
  /** The revision the pages are pinned to. */
  revision: number;
  /** Documents in the whole listing. */
  total: number;
  /** Index of the first document of this page in the listing. */
  position: number;
  /** In listing order: by url, then id. */
  documents: CatalogDocument[];
  /** Documents of this page removed (or hidden) since the revision: left out, so the page is shorter. */
  removed: number;
  nextCursor?: string;
}

type Filters = Pick<ListInput, 'query' | 'kind' | 'label' | 'domain'>;

function fingerprint(f: Filters): string {
  return createHash('sha256').update(JSON.stringify([f.query ?? null, f.kind ?? null, f.label ?? null, f.domain ?? null])).digest('hex').slice(0, 16);
}

/** Who sees what: the caller's scope and bank. */
function viewOf(access: CatalogAccess): string {
  const who = access.scope.all ? 'all' : access.scope.userId === null ? 'global' : `user:${access.scope.userId}`;
  return createHash('sha256').update(`${who}|${access.bankId ?? ''}`).digest('hex').slice(0, 16);
}

function snapshotKey(revision: number, access: CatalogAccess, print: string): string {
  return `${revision}|${viewOf(access)}|${print}`;
}

function matching(entries: CatalogEntry[], query: string | undefined): string[] {
  if (!query) return entries.map((e) => e.id);
  const needle = query.toLowerCase();
  const has = (s: string | null) => s !== null && s.toLowerCase().includes(needle);
  return entries.filter((e) => has(e.title) || has(e.url) || has(e.label)).map((e) => e.id);
}

async function takeSnapshot(app: App, access: CatalogAccess, filters: Filters, print: string): Promise<Snapshot> {
  const { revision, entries } = await app.store.listCatalog({ ...access, kind: filters.kind, label: filters.label, domain: filters.domain });
  app.catalog.snapshots.dropBefore(revision - 1);
  return app.catalog.snapshots.put(snapshotKey(revision, access, print), revision, matching(entries, filters.query));
}

function expired(why: string): TroveError {
  return new TroveError('CURSOR_EXPIRED', `the cursor has expired (${why}); list again without it`, { field: 'cursor' });
}

/** The snapshot and position a cursor continues at; CURSOR_EXPIRED or INVALID_ARGUMENT when it cannot. */
async function resume(app: App, access: CatalogAccess, filters: Filters, print: string, cursor: string): Promise<{ snapshot: Snapshot; position: number }> {
  const { catalog } = app;
  const state = await app.store.instanceState();
  const c = catalog.cursors.decode(cursor, state.epoch);
  // Another caller's cursor (or another bank's): not one issued to this view.
  if (c.view !== viewOf(access)) throw new TroveError('INVALID_ARGUMENT', 'cursor is not one this server issued to you; start a new listing without it', { field: 'cursor', reason: 'cursor_invalid' });
  if (c.fingerprint !== print) throw new TroveError('INVALID_ARGUMENT', 'the filters differ from those the cursor was issued for; keep them, or list again without the cursor', { field: 'cursor', reason: 'cursor_filters_changed' });
  if (catalog.now() - c.issuedAt > catalog.snapshots.ttlMs) throw expired('issued more than 60 s ago');
  if (c.revision < state.revision - 1 || c.revision > state.revision) throw expired(`the catalog is at revision ${state.revision}, the cursor at ${c.revision}`);
  catalog.snapshots.dropBefore(state.revision - 1);
  let snapshot = catalog.snapshots.get(snapshotKey(c.revision, access, print));
  // Evicted, but the catalog is still at that revision: the same listing again.
  if (!snapshot && c.revision === state.revision) {
    const again = await takeSnapshot(app, access, filters, print);
    if (again.revision === c.revision) snapshot = again;
  }
  if (!snapshot || c.position > snapshot.ids.length) throw expired('its snapshot is gone');
  return { snapshot, position: c.position };
}

function checkFilters(input: ListInput): void {
  if (input.query !== undefined && [...input.query].length > MAX_QUERY_CHARS) throw new TroveError('INVALID_ARGUMENT', `query is longer than ${MAX_QUERY_CHARS} characters`, { field: 'query' });
  const size = input.pageSize;
  if (size !== undefined && !(Number.isInteger(size) && size >= 1 && size <= LIST_PAGE.max)) throw new TroveError('INVALID_ARGUMENT', `pageSize must be 1..${LIST_PAGE.max}`, { field: 'pageSize' });
}

export async function listDocuments(app: App, access: CatalogAccess, input: ListInput): Promise<ListPage> {
  checkFilters(input);
  const filters: Filters = { query: input.query, kind: input.kind, label: input.label, domain: input.domain };
  const print = fingerprint(filters);
  const { snapshot, position } = input.cursor === undefined
    ? { snapshot: await takeSnapshot(app, access, filters, print), position: 0 }
    : await resume(app, access, filters, print, input.cursor);
  const ids = snapshot.ids.slice(position, position + (input.pageSize ?? LIST_PAGE.default));
  const found = new Map((await app.store.catalogDocuments(ids, access)).map((d) => [d.id, d]));
  const documents = ids.flatMap((id) => found.get(id) ?? []);
  const state = await app.store.instanceState();
  const page: ListPage = { instanceId: state.instanceId, revision: snapshot.revision, total: snapshot.ids.length, position, documents, removed: ids.length - documents.length };
  const next = position + ids.length;
  if (next < snapshot.ids.length) {
    app.catalog.snapshots.extend(snapshot);
    page.nextCursor = app.catalog.cursors.encode({ epoch: state.epoch, revision: snapshot.revision, fingerprint: print, view: viewOf(access), position: next, issuedAt: app.catalog.now() });
  }
  return page;
}

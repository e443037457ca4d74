import type { App } from '../../app.js';
import { TroveError } from '../../errors.js';
import type { CatalogDocument, InstanceState } from '../../store/types.js';
import { principalLabel } from '../access.js';
import { catalogAccess, checkRevision, requireDocument } from '../catalog.js';
import { addContents, urlInput } from '../documents.js';
import type { Caller, JobSpec } from './jobs.js';
import type { RefreshParams } from './params.js';

// refresh_document: fetch a web document's url again; changed content becomes a new version.

/** The document, when the caller may rewrite it: web kind, and its own unless the caller sees everything. */
async function refreshable(app: App, caller: Caller, p: RefreshParams, state: InstanceState): Promise<CatalogDocument> {
  checkRevision(p.expectedRevision ?? undefined, state.revision);
  const doc = await requireDocument(app, await catalogAccess(app, caller.grant, caller.bank), p.documentId);
  if (doc.kind !== 'web') throw new TroveError('INVALID_ARGUMENT', `only web documents can be refreshed; this one is ${doc.kind}`, { field: 'documentId' });
  const scope = caller.grant.scope;
  if (!scope.all && doc.ownerId !== scope.userId) throw new TroveError('FORBIDDEN', 'only an admin can refresh a global document');
  return doc;
}

export const REFRESH_JOB: JobSpec = {
  async check(app, caller, params, state) {
    await refreshable(app, caller, params as unknown as RefreshParams, state);
  },

  async run(app, caller, params, ctx, state) {
    const doc = await refreshable(app, caller, params as unknown as RefreshParams, state);
    ctx.progress({ phase: 'fetch' });
    const input = await urlInput(app, doc.url, { label: doc.label, source: doc.source, storeUnder: doc.url });
    // Cancelled while fetching: nothing is written.
    ctx.signal.throwIfAborted();
    ctx.progress({ phase: 'store' });
    const [stored] = await addContents(app, [{ ...input, ownerId: doc.ownerId }]);
    const after = await app.store.findCatalogDocument(doc.id, { scope: caller.grant.scope, bankId: null });
    app.log.info('audit', { action: 'operation refresh_document', principal: principalLabel(caller.grant.principal), source: caller.source });
    const revision = (await app.store.instanceState()).revision;
    return {
      trusted: { documentId: doc.id, status: stored!.status, versionId: after?.currentVersionId ?? null, versionCount: after?.versionCount ?? doc.versionCount, revision },
      untrusted: [],
    };
  },
};

import type { App } from '../../app.js';
import { TroveError } from '../../errors.js';
import type { CatalogDocument, InstanceState } from '../../store/types.js';
import { catalogAccess, checkRevision, requireDocument } from '../catalog.js';
import type { Caller } from '../operations/jobs.js';
import type { RenderParams } from '../operations/params.js';

// The stored page a render works on: a visible document's version and its captured HTML.

export interface RenderTarget {
  document: CatalogDocument;
  versionId: number;
  /** The captured HTML of that version (redacted as stored), else its sanitized preview HTML. */
  html: string;
}

/** NOT_FOUND, STALE_REVISION or PREVIEW_UNAVAILABLE when the target cannot be rendered now. */
export async function resolveRenderTarget(app: App, caller: Caller, p: RenderParams, state: InstanceState): Promise<RenderTarget> {
  checkRevision(p.expectedRevision ?? undefined, state.revision);
  const access = await catalogAccess(app, caller.grant, caller.bank);
  const document = await requireDocument(app, access, p.documentId);
  const versionId = p.versionId ?? document.currentVersionId;
  const content = versionId === null ? undefined : await app.store.getContent(document.id, versionId);
  if (versionId === null || !content) throw new TroveError('NOT_FOUND', 'the document has no such version', { field: 'versionId' });
  const html = content.rawHtml ?? content.html;
  if (html === null || html.trim() === '') {
    throw new TroveError('PREVIEW_UNAVAILABLE', 'this version has no stored page to render (a text, PDF or title-only capture)', { documentId: document.id, versionId });
  }
  return { document, versionId, html };
}

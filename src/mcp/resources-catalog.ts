import { type DocumentDetail, catalogAccess, getCatalogDocument, pageBudget, readDocumentText } from '../service/catalog.js';
import { getCatalogStatus } from '../service/catalog-status.js';
import { catalogUri } from '../service/catalog-uris.js';
import { SOURCE_PAGE, readDocumentSource } from '../service/source-read.js';
import { TEXT_PAGE } from '../service/catalog.js';
import { documentOutput, statusOutput } from './catalog-output.js';
import { fitEnvelope, successEnvelope } from './envelope.js';
import { type ResourceBody, type ResourceContext, type ResourceSpec, defineResource, queryInteger } from './resource.js';
import type { ToolOutput } from './tool.js';

// The catalog's resources: status and document as JSON (the same envelope as get_status and
// get_document), text and source pages as raw text with their revision, hash and page in _meta.

const REVISION = { min: 0, max: Number.MAX_SAFE_INTEGER };
const TEXT_MIME = 'text/plain; charset=utf-8';

/** A JSON resource: the envelope its tool returns, bounded like a tool result. */
function jsonBody(ctx: ResourceContext, name: string, out: ToolOutput, meta: Record<string, unknown>): ResourceBody {
  const envelope = successEnvelope(name, out, ctx.source);
  return { mimeType: 'application/json', text: fitEnvelope(envelope, ctx.app.config.mcp.max_result_bytes), _meta: meta };
}

const status = defineResource({
  name: 'status',
  title: 'Catalog status',
  uriTemplate: 'trove://{instanceId}/status',
  mimeType: 'application/json',
  description: 'The get_status result: lifecycle, instanceId, epoch, revision, buildId, counts, diagnostics, capabilities.',
  access: 'meta.read',
  listed: true,
  async read(ctx) {
    const s = await getCatalogStatus(ctx.app, await catalogAccess(ctx.app, ctx.grant, ctx.bank));
    return jsonBody(ctx, 'status', statusOutput(s, {}), { revision: s.revision });
  },
});

const document = defineResource({
  name: 'document',
  title: 'Document',
  uriTemplate: 'trove://{instanceId}/documents/{documentId}{?revision}',
  mimeType: 'application/json',
  description: 'The get_document result for one document: versions, resource URIs, and under untrusted_content its title, url and metadata. revision: the one the catalog must be at (else STALE_REVISION).',
  access: 'documents.read',
  async read(ctx, match) {
    const access = await catalogAccess(ctx.app, ctx.grant, ctx.bank);
    const input = { documentId: match.params.documentId!, expectedRevision: queryInteger(match.query, 'revision', REVISION) };
    const detail: DocumentDetail = await getCatalogDocument(ctx.app, access, input);
    return jsonBody(ctx, 'document', documentOutput(detail, {}), { revision: detail.revision });
  },
});

const documentText = defineResource({
  name: 'document_text',
  title: 'Document text',
  uriTemplate: 'trove://{instanceId}/documents/{documentId}/text{?offset,limit,versionId,revision}',
  mimeType: TEXT_MIME,
  description: `A page of the stored text, exactly as stored (read_text): offset and limit in code points (default ${TEXT_PAGE.default}, at most ${TEXT_PAGE.max}); _meta has revision, sha256 of the whole text, length and nextOffset/nextUri while more follows.`,
  access: 'documents.read',
  async read(ctx, match) {
    const access = await catalogAccess(ctx.app, ctx.grant, ctx.bank);
    const q = match.query;
    const input = {
      documentId: match.params.documentId!,
      offset: queryInteger(q, 'offset', { min: 0, max: Number.MAX_SAFE_INTEGER }),
      limit: queryInteger(q, 'limit', { min: 1, max: TEXT_PAGE.max }),
      versionId: queryInteger(q, 'versionId', { min: 1, max: Number.MAX_SAFE_INTEGER }),
      expectedRevision: queryInteger(q, 'revision', REVISION),
    };
    const r = await readDocumentText(ctx.app, access, input, Math.min(ctx.maxBytes, pageBudget(ctx.app)));
    const meta: Record<string, unknown> = { revision: r.revision, documentId: r.documentId, versionId: r.versionId, offset: r.offset, returned: r.count, length: r.length, sha256: r.sha256, shortened: r.shortened };
    if (r.nextOffset !== undefined) {
      meta.nextOffset = r.nextOffset;
      meta.nextUri = catalogUri.text(ctx.instanceId, r.documentId, { offset: r.nextOffset, limit: input.limit, versionId: input.versionId, revision: input.expectedRevision });
    }
    return { mimeType: TEXT_MIME, text: r.text, _meta: meta };
  },
});

const documentSource = defineResource({
  name: 'document_source',
  title: 'Local file lines',
  uriTemplate: 'trove://{instanceId}/documents/{documentId}/source{?startLine,lineCount,revision}',
  mimeType: TEXT_MIME,
  description: `Exact lines of a local document's file (read_source): startLine 1-based, lineCount default ${SOURCE_PAGE.default}, at most ${SOURCE_PAGE.max}; _meta has revision, sha256 of the file, totalLines and nextLine/nextUri while more follows.`,
  access: 'documents.read',
  async read(ctx, match) {
    const access = await catalogAccess(ctx.app, ctx.grant, ctx.bank);
    const q = match.query;
    const input = {
      documentId: match.params.documentId!,
      startLine: queryInteger(q, 'startLine', { min: 1, max: Number.MAX_SAFE_INTEGER }),
      lineCount: queryInteger(q, 'lineCount', { min: 1, max: SOURCE_PAGE.max }),
      expectedRevision: queryInteger(q, 'revision', REVISION),
    };
    const r = await readDocumentSource(ctx.app, access, input, Math.min(ctx.maxBytes, pageBudget(ctx.app)));
    const meta: Record<string, unknown> = { revision: r.revision, documentId: r.documentId, startLine: r.startLine, returned: r.count, totalLines: r.totalLines, sha256: r.sha256, bytes: r.bytes, shortened: r.shortened };
    if (r.nextLine !== undefined) {
      meta.nextLine = r.nextLine;
      meta.nextUri = catalogUri.source(ctx.instanceId, r.documentId, { startLine: r.nextLine, lineCount: input.lineCount, revision: input.expectedRevision });
    }
    return { mimeType: TEXT_MIME, text: r.text, _meta: meta };
  },
});

export const CATALOG_RESOURCES: readonly ResourceSpec[] = [status, document, documentText, documentSource];

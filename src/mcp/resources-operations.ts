import { createHash } from 'node:crypto';
import { OPERATION_PAGE, getOperation, operationUris, pageRecords, readArtifact } from '../service/operations/service.js';
import { fitEnvelope, successEnvelope } from './envelope.js';
import { operationOutput } from './operation-output.js';
import { defineResource, queryInteger } from './resource.js';

// Operation and artifact resources: URIs that the operation tools hand out, readable by the same caller
// in the same server lifetime only.

const operation = defineResource({
  name: 'operation',
  title: 'Operation',
  uriTemplate: 'trove://{instanceId}/operations/{operationId}{?offset,limit}',
  mimeType: 'application/json',
  description: `The get_operation result of an operation you started, its untrusted records paged by offset and limit (default ${OPERATION_PAGE.default}, at most ${OPERATION_PAGE.max}); _meta.page has total and nextOffset/nextUri while more follow.`,
  access: 'documents.read',
  async read(ctx, match) {
    const offset = queryInteger(match.query, 'offset', { min: 0, max: Number.MAX_SAFE_INTEGER }) ?? 0;
    const limit = queryInteger(match.query, 'limit', { min: 1, max: OPERATION_PAGE.max }) ?? OPERATION_PAGE.default;
    const detail = await getOperation(ctx.app, ctx.grant.principal, match.params.operationId!);
    const { items, page } = pageRecords(detail.result, offset, limit);
    const out = operationOutput(detail, {});
    const meta: Record<string, unknown> = { state: detail.view.state, page };
    if (page.nextOffset !== undefined) meta.nextUri = operationUris.operation(ctx.instanceId, detail.view.operationId, { offset: page.nextOffset, limit });
    const envelope = successEnvelope('get_operation', { ...out, untrusted: items }, ctx.source);
    return { mimeType: 'application/json', text: fitEnvelope(envelope, ctx.maxBytes), _meta: meta };
  },
});

const artifact = defineResource({
  name: 'artifact',
  title: 'Operation artifact',
  uriTemplate: 'trove://{instanceId}/artifacts/{artifactId}',
  mimeType: 'image/png',
  description: 'Bytes an operation produced (a capture_screenshot PNG), base64 in blob; kept in memory for this server lifetime within the retention budget.',
  access: 'documents.read',
  async read(ctx, match) {
    const a = readArtifact(ctx.app, ctx.grant.principal, match.params.artifactId!);
    return { mimeType: a.mimeType, blob: a.bytes.toString('base64'), _meta: { operationId: a.operationId, bytes: a.bytes.length, sha256: createHash('sha256').update(a.bytes).digest('hex') } };
  },
});

export const OPERATION_RESOURCES = [operation, artifact];

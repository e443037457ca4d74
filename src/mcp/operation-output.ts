import type { OperationDetail, OperationView } from '../service/operations/service.js';
import type { ExtraContent, JsonSchema, ToolOutput } from './tool.js';

// Envelopes of the operation tools: the handle and state are ours (trusted); page-derived results are not.

/** A PNG up to this size comes inline in get_operation; a larger one as a resource link. */
export const INLINE_IMAGE_BYTES = 1024 * 1024;

const str = { type: 'string' };
const nullableStr = { anyOf: [str, { type: 'null' }] };
const STATES = { enum: ['queued', 'running', 'cancelling', 'completed', 'failed', 'cancelled'] };
const ERROR = {
  type: 'object',
  properties: { code: str, message: str, retryable: { type: 'boolean' }, details: { type: 'object' } },
  required: ['code', 'message', 'retryable'],
};

const VIEW_PROPERTIES = {
  operationId: str, kind: str, state: STATES, createdAt: str, startedAt: nullableStr, finishedAt: nullableStr,
  epoch: { type: 'integer' }, revision: { type: 'integer' }, operationUri: str, progress: { type: 'object' }, error: ERROR,
};
const VIEW_REQUIRED = ['operationId', 'kind', 'state', 'createdAt', 'startedAt', 'finishedAt', 'epoch', 'revision', 'operationUri'];

export const HANDLE_SCHEMA: JsonSchema = {
  type: 'object',
  properties: { ...VIEW_PROPERTIES, replayed: { type: 'boolean' } },
  required: [...VIEW_REQUIRED, 'replayed'],
};

export const OPERATION_SCHEMA: JsonSchema = {
  type: 'object',
  properties: { ...VIEW_PROPERTIES, result: { type: 'object' } },
  required: VIEW_REQUIRED,
};

/** Fields of the untrusted records an operation result may carry. */
export const OPERATION_FIELDS: JsonSchema = {
  type: 'object',
  properties: { snapshot: str, nodes: { type: 'array', items: { type: 'object' } }, url: str, code: str, message: str },
};

export function handleOutput(view: OperationView, replayed: boolean, request: Record<string, unknown>): ToolOutput {
  return { trusted: { ...view, replayed }, request, untrusted: [] };
}

function imageContent(d: OperationDetail): ExtraContent[] {
  const png = d.artifacts.find((a) => a.mimeType === 'image/png');
  if (!png) return [];
  if (png.bytes.length <= INLINE_IMAGE_BYTES) return [{ type: 'image', data: png.bytes.toString('base64'), mimeType: png.mimeType }];
  const uri = String(d.result?.trusted.artifactUri ?? '');
  return [{ type: 'resource_link', uri, name: `${png.id}.png`, mimeType: png.mimeType, size: png.bytes.length, description: 'Screenshot PNG over 1 MiB: read this resource.' }];
}

export function operationOutput(d: OperationDetail, request: Record<string, unknown>): ToolOutput {
  const trusted: Record<string, unknown> = { ...d.view };
  if (d.result) trusted.result = d.result.trusted;
  return { trusted, request, untrusted: d.result?.untrusted ?? [], content: imageContent(d) };
}

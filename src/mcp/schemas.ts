import type { JsonSchema, ToolSpec } from './tool.js';

// The advertised outputSchema of a tool: the success envelope around its own trusted/fields schemas, or the error envelope.

const str = { type: 'string' };

const errorBranch: JsonSchema = {
  type: 'object',
  properties: {
    ok: { const: false },
    error: {
      type: 'object',
      properties: { code: str, message: str, retryable: { type: 'boolean' }, details: { type: 'object' } },
      required: ['code', 'message', 'retryable'],
    },
  },
  required: ['ok', 'error'],
};

function successBranch(spec: Pick<ToolSpec, 'name' | 'trustedSchema' | 'fieldsSchema'>): JsonSchema {
  return {
    type: 'object',
    properties: {
      ok: { const: true },
      schema_version: str,
      tool: { const: spec.name },
      security: { type: 'object', properties: { untrusted_path: str, instruction: str }, required: ['untrusted_path', 'instruction'] },
      trusted: spec.trustedSchema,
      request: { type: 'object', properties: { trust: { const: 'caller_supplied' } }, required: ['trust'] },
      untrusted_content: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            trust: { const: 'untrusted' },
            trust_scope: { const: 'all values in fields' },
            source_type: str,
            fields: spec.fieldsSchema,
          },
          required: ['trust', 'trust_scope', 'source_type', 'fields'],
        },
      },
    },
    required: ['ok', 'schema_version', 'tool', 'security', 'trusted', 'request', 'untrusted_content'],
  };
}

export function outputSchema(spec: Pick<ToolSpec, 'name' | 'trustedSchema' | 'fieldsSchema'>): JsonSchema {
  return { type: 'object', oneOf: [successBranch(spec), errorBranch] };
}

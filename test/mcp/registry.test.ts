import assert from 'node:assert/strict';
import { test } from 'node:test';
import { z } from 'zod';
import { ToolRegistry } from '../../src/mcp/registry.js';
import { TOOLSETS, type ToolSpec, defineTool } from '../../src/mcp/tool.js';
import { allToolSpecs } from '../../src/mcp/tools.js';

const tool = (name: string, toolset: ToolSpec['toolset'] = 'history'): ToolSpec =>
  defineTool({
    name, toolset, title: name, description: name, version: '1', tags: [], access: 'documents.read', annotations: {},
    input: z.strictObject({ a: z.string().optional() }),
    trustedSchema: { type: 'object' }, fieldsSchema: { type: 'object' },
    run: async () => ({ trusted: {}, request: {}, untrusted: [] }),
  });

test('a second tool with a taken name is refused', () => {
  assert.throws(() => new ToolRegistry([tool('x'), tool('x', 'memory')], ['history', 'memory']), /duplicate MCP tool name: x/);
});

test('only enabled toolsets are listed and callable', () => {
  const r = new ToolRegistry([tool('a'), tool('b', 'memory')], ['memory']);
  assert.deepEqual(r.listings.map((t) => t.name), ['b']);
  assert.equal(r.get('a'), undefined);
  assert.equal(r.get('b')?.spec.name, 'b');
  assert.equal(r.all().length, 2);
});

test('input schemas reject unknown properties; output schemas describe both envelopes', () => {
  const r = new ToolRegistry(allToolSpecs(), ['history']);
  assert.deepEqual(r.listings.map((t) => t.name), ['search', 'get_preview', 'get_history']);
  for (const t of r.enabledTools()) assert.equal((t.listing.annotations as any).readOnlyHint, true, t.spec.name);
  for (const t of new ToolRegistry(allToolSpecs(), [...TOOLSETS]).all()) {
    assert.equal(t.inputSchema.type, 'object');
    assert.equal(t.inputSchema.additionalProperties, false, t.spec.name);
    assert.equal(t.outputSchema.type, 'object');
    assert.equal((t.outputSchema.oneOf as unknown[]).length, 2);
    // A tool that writes never claims to be read-only.
    if (t.spec.access.endsWith('.write') || t.spec.access === 'admin') assert.equal((t.listing.annotations as any).readOnlyHint, false, t.spec.name);
  }
  assert.deepEqual((r.get('search')!.inputSchema as any).required, ['query']);
  assert.deepEqual((r.get('get_preview')!.inputSchema as any).required, ['url']);
});

test('integer arguments carry no meaningless safe-integer bounds', () => {
  const r = new ToolRegistry(allToolSpecs(), ['history']);
  const limit = (r.get('search')!.inputSchema as any).properties.limit;
  assert.equal(limit.type, 'integer');
  assert.equal(limit.minimum, undefined);
  assert.equal(limit.maximum, undefined);
});

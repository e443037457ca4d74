import assert from 'node:assert/strict';
import { test } from 'node:test';
import { z } from 'zod';
import { loadConfig } from '../../src/config/load.js';
import { ToolRegistry } from '../../src/mcp/registry.js';
import { type ToolSpec, defineTool } from '../../src/mcp/tool.js';
import { getToolEntry, listToolEntries } from '../../src/mcp/tool-entries.js';
import { createToolRegistry } from '../../src/mcp/tools.js';

const ENTRY_KEYS = ['tool_id', 'route', 'version', 'input_schema', 'output_schema', 'tags', 'enabled', 'health', 'title', 'description', 'toolset', 'annotations', 'access'];

const config = (overrides: Record<string, string> = {}) => loadConfig({ dataDir: '/nonexistent', env: { XDG_CONFIG_HOME: '/nonexistent' }, overrides });

const tool = (name: string, toolset: ToolSpec['toolset']): ToolSpec =>
  defineTool({
    name, toolset, title: `T ${name}`, description: name, version: '2.0.0', tags: ['x'], access: 'history.read', annotations: { readOnlyHint: true },
    input: z.strictObject({ q: z.string() }),
    trustedSchema: { type: 'object' }, fieldsSchema: { type: 'object' },
    run: async () => ({ trusted: {}, request: {}, untrusted: [] }),
  });

function code(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    return (err as { code: string }).code;
  }
  return 'none';
}

test('every tool has one entry with the registry fields, schemas precomputed by the registry', () => {
  const c = config();
  const registry = createToolRegistry(c);
  const entries = listToolEntries(registry, c);
  assert.deepEqual(entries.map((e) => e.tool_id), registry.all().map((t) => t.spec.name));
  for (const [i, e] of entries.entries()) {
    assert.deepEqual(Object.keys(e), ENTRY_KEYS);
    assert.equal(e.route, `mcp:tools/call ${e.tool_id}`);
    assert.equal(e.input_schema, registry.all()[i]!.inputSchema);
    assert.equal(e.output_schema, registry.all()[i]!.outputSchema);
    assert.equal(e.enabled, true);
    assert.deepEqual(e.health, { status: 'ok' });
  }
  assert.deepEqual(getToolEntry(registry, c, 'search'), entries.find((e) => e.tool_id === 'search'));
});

test('ids are exact strings and may contain dots; unknown ids are NOT_FOUND', () => {
  const c = config();
  const registry = new ToolRegistry([tool('memory.search', 'memory'), tool('tree.read_chunk', 'tree')], ['memory', 'tree']);
  const e = getToolEntry(registry, c, 'memory.search');
  assert.equal(e.tool_id, 'memory.search');
  assert.equal(e.route, 'mcp:tools/call memory.search');
  assert.equal(e.version, '2.0.0');
  assert.equal(e.access, 'history.read');
  assert.deepEqual(e.annotations, { title: 'T memory.search', readOnlyHint: true });
  assert.deepEqual(e.input_schema.required, ['q']);
  for (const id of ['memory', 'memory.', 'Memory.search', 'memory_search', ' memory.search', '']) assert.equal(code(() => getToolEntry(registry, c, id)), 'NOT_FOUND', id);
});

test('a toolset left out of mcp.toolsets is listed disabled and unavailable', () => {
  const c = config({ 'mcp.toolsets': 'memory' });
  const registry = new ToolRegistry([tool('a', 'history'), tool('b', 'memory')], ['memory']);
  const [a, b] = listToolEntries(registry, c);
  assert.equal(a!.enabled, false);
  assert.equal(a!.health.status, 'unavailable');
  assert.equal(b!.enabled, true);
  assert.deepEqual(b!.health, { status: 'ok' });
});

test('mcp.enabled = false: every tool is disabled and unavailable', () => {
  const c = config({ 'mcp.enabled': 'false' });
  const entries = listToolEntries(createToolRegistry(c), c);
  assert.ok(entries.length > 0);
  for (const e of entries) {
    assert.equal(e.enabled, false);
    assert.equal(e.health.status, 'unavailable');
    assert.equal(typeof (e.health as { reason: string }).reason, 'string');
  }
});

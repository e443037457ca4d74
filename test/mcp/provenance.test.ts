import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clientSource, normalizeClientName } from '../../src/mcp/provenance.js';

test('client names normalize as seed 001 describes', () => {
  const cases: Array<[unknown, string]> = [
    ['Claude Desktop', 'claude-desktop'],
    ['Cursor', 'cursor'],
    ['Windsurf', 'windsurf'],
    ['  VS Code / Copilot  ', 'vs-code-copilot'],
    ['--Zed__Editor--', 'zed-editor'],
    ['Zéd', 'z-d'],
    ['claude-ai', 'claude-ai'],
    ['', ''],
    ['   ', ''],
    ['!!!', ''],
    [undefined, ''],
    [42, ''],
  ];
  for (const [input, expected] of cases) assert.equal(normalizeClientName(input), expected, String(input));
});

test('the source label is mcp:<client>, or the bare mcp', () => {
  assert.equal(clientSource('Claude Desktop'), 'mcp:claude-desktop');
  assert.equal(clientSource('***'), 'mcp');
  assert.equal(clientSource(undefined), 'mcp');
});

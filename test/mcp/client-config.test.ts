import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  MCP_CLIENTS, SERVER_NAME, TOKEN_PLACEHOLDER, checkUrl, clientSnippet, defaultMcpUrl, parseClient, shellQuote, snippetToken,
} from '../../src/mcp/client-config.js';

const URL_ = 'http://127.0.0.1:4433/mcp';
const http = (token?: string) => ({ transport: 'http' as const, url: URL_, token });
const stdio = (args: string[] = ['mcp']) => ({ transport: 'stdio' as const, command: 'trove', args });

function code(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    return (err as { code: string }).code;
  }
  return 'none';
}

describe('client snippets', () => {
  test('Claude Desktop and Cursor: mcpServers with url and an optional bearer header', () => {
    for (const client of ['claude-desktop', 'cursor'] as const) {
      assert.deepEqual(JSON.parse(clientSnippet(client, http())), { mcpServers: { [SERVER_NAME]: { url: URL_ } } });
      assert.deepEqual(JSON.parse(clientSnippet(client, http('t0k'))), { mcpServers: { trove: { url: URL_, headers: { Authorization: 'Bearer t0k' } } } });
      assert.deepEqual(JSON.parse(clientSnippet(client, stdio(['--data-dir', '/d', 'mcp']))), { mcpServers: { trove: { command: 'trove', args: ['--data-dir', '/d', 'mcp'] } } });
    }
  });

  test('VS Code: servers with an explicit type', () => {
    assert.deepEqual(JSON.parse(clientSnippet('vscode', http())), { servers: { trove: { type: 'http', url: URL_ } } });
    assert.deepEqual(JSON.parse(clientSnippet('vscode', http('t0k'))), { servers: { trove: { type: 'http', url: URL_, headers: { Authorization: 'Bearer t0k' } } } });
    assert.deepEqual(JSON.parse(clientSnippet('vscode', stdio())), { servers: { trove: { type: 'stdio', command: 'trove', args: ['mcp'] } } });
  });

  test('Claude Code: the claude mcp add command line', () => {
    assert.equal(clientSnippet('claude-code', http()), `claude mcp add --transport http trove ${URL_}`);
    assert.equal(clientSnippet('claude-code', http('t0k')), `claude mcp add --transport http trove ${URL_} --header "Authorization: Bearer t0k"`);
    assert.equal(clientSnippet('claude-code', http(TOKEN_PLACEHOLDER)), `claude mcp add --transport http trove ${URL_} --header "Authorization: Bearer <your-access-token>"`);
    assert.equal(clientSnippet('claude-code', stdio(['--data-dir', '/my data', 'mcp'])), 'claude mcp add --transport stdio trove -- trove --data-dir "/my data" mcp');
  });

  test('a memory bank travels as the X-Bank-Id header (seed 003), after the token', () => {
    const target = { transport: 'http' as const, url: URL_, token: 't0k', bank: 'work' };
    assert.deepEqual(JSON.parse(clientSnippet('cursor', target)), { mcpServers: { trove: { url: URL_, headers: { Authorization: 'Bearer t0k', 'X-Bank-Id': 'work' } } } });
    assert.deepEqual(JSON.parse(clientSnippet('vscode', { ...target, token: undefined })), { servers: { trove: { type: 'http', url: URL_, headers: { 'X-Bank-Id': 'work' } } } });
    assert.equal(clientSnippet('claude-code', target), `claude mcp add --transport http trove ${URL_} --header "Authorization: Bearer t0k" --header "X-Bank-Id: work"`);
  });

  test('a token with shell metacharacters stays one literal word', () => {
    assert.equal(shellQuote(`a"b$c'd`), `'a"b$c'\\''d'`);
    assert.equal(shellQuote('plain-word_1.2'), 'plain-word_1.2');
    assert.equal(shellQuote('two words'), '"two words"');
    assert.ok(clientSnippet('claude-code', http('x$(rm)')).endsWith(`--header 'Authorization: Bearer x$(rm)'`));
  });

  test('JSON snippets escape what they carry', () => {
    const s = clientSnippet('cursor', http('q"uote\\'));
    assert.equal(JSON.parse(s).mcpServers.trove.headers.Authorization, 'Bearer q"uote\\');
  });
});

describe('snippet inputs', () => {
  test('clients: the four known names; anything else is INVALID_ARGUMENT', () => {
    for (const c of MCP_CLIENTS) assert.equal(parseClient(c), c);
    assert.equal(code(() => parseClient('zed')), 'INVALID_ARGUMENT');
    assert.equal(code(() => parseClient('Cursor')), 'INVALID_ARGUMENT');
  });

  test('default url from server.address; wildcard binds are reached on loopback', () => {
    assert.equal(defaultMcpUrl('127.0.0.1:4433'), 'http://127.0.0.1:4433/mcp');
    assert.equal(defaultMcpUrl('[::1]:8080'), 'http://[::1]:8080/mcp');
    assert.equal(defaultMcpUrl('0.0.0.0:4433'), 'http://127.0.0.1:4433/mcp');
    assert.equal(defaultMcpUrl('[::]:4433'), 'http://[::1]:4433/mcp');
    assert.equal(defaultMcpUrl('trove.lan:80'), 'http://trove.lan:80/mcp');
  });

  test('--url must be http(s)', () => {
    assert.equal(checkUrl('https://example.com/trove/mcp'), 'https://example.com/trove/mcp');
    assert.equal(code(() => checkUrl('ftp://example.com/mcp')), 'INVALID_ARGUMENT');
    assert.equal(code(() => checkUrl('not a url')), 'INVALID_ARGUMENT');
  });

  test('a configured token is never printed unless asked for', () => {
    assert.equal(snippetToken({ configured: '', include: false }), undefined);
    assert.equal(snippetToken({ configured: '', include: true }), undefined);
    assert.equal(snippetToken({ configured: 'secret', include: false }), TOKEN_PLACEHOLDER);
    assert.equal(snippetToken({ configured: 'secret', include: true }), 'secret');
    assert.equal(snippetToken({ given: 'mine', configured: 'secret', include: false }), 'mine');
    assert.equal(snippetToken({ given: 'mine', configured: '', include: false }), 'mine');
  });
});

import { TroveError } from '../errors.js';

// The configuration snippet each MCP client needs to reach trove: pure text builders behind `trove mcp-config`.

export const MCP_CLIENTS = ['claude-desktop', 'cursor', 'claude-code', 'vscode'] as const;
export type McpClient = (typeof MCP_CLIENTS)[number];

/** Printed instead of a configured token unless the user asks for the real one. */
export const TOKEN_PLACEHOLDER = '<your-access-token>';
/** The server's name in every client's configuration. */
export const SERVER_NAME = 'trove';

export type ClientTarget =
  /** Streamable HTTP: `POST <url>`, with `Authorization: Bearer <token>` when a token is given and `X-Bank-Id` for a bank. */
  | { transport: 'http'; url: string; token?: string | undefined; bank?: string | undefined }
  /** stdio: the client spawns `<command> ...args` (e.g. `trove --data-dir D mcp`). */
  | { transport: 'stdio'; command: string; args: readonly string[] };

export function parseClient(name: string): McpClient {
  if ((MCP_CLIENTS as readonly string[]).includes(name)) return name as McpClient;
  throw new TroveError('INVALID_ARGUMENT', `unknown MCP client ${JSON.stringify(name)}; one of ${MCP_CLIENTS.join(', ')}`, { field: 'client', allowed: [...MCP_CLIENTS] });
}

/** `http://<server.address><base path>/mcp`; a wildcard bind address is reached on loopback. */
export function defaultMcpUrl(address: string, basePath = ''): string {
  const host = address.replace(/^0\.0\.0\.0:/, '127.0.0.1:').replace(/^\[::\]:/, '[::1]:');
  return `http://${host}${basePath}/mcp`;
}

/** Checks a --url: an absolute http(s) URL. */
export function checkUrl(url: string): string {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    throw new TroveError('INVALID_ARGUMENT', `--url must be an http(s) URL, got ${JSON.stringify(url)}`, { field: 'url' });
  }
  return url;
}

/**
 * The token the snippet carries: the one given explicitly; the configured one only when it may be included;
 * a placeholder when one is configured but not included; none when the server needs none.
 */
export function snippetToken(opts: { given?: string | undefined; configured: string; include: boolean }): string | undefined {
  if (opts.given) return opts.given;
  if (!opts.configured) return undefined;
  return opts.include ? opts.configured : TOKEN_PLACEHOLDER;
}

/** The HTTP headers a snippet carries: the token, the memory bank (seed 003's X-Bank-Id). */
function headerPairs(target: { token?: string | undefined; bank?: string | undefined }): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  if (target.token) pairs.push(['Authorization', `Bearer ${target.token}`]);
  if (target.bank) pairs.push(['X-Bank-Id', target.bank]);
  return pairs;
}

const headersOf = (target: { token?: string | undefined; bank?: string | undefined }) => {
  const pairs = headerPairs(target);
  return pairs.length ? { headers: Object.fromEntries(pairs) } : {};
};

/** POSIX shell quoting: bare when safe, double quotes when nothing in it expands, else single quotes. */
export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  if (!/["\\$`!]/.test(word)) return `"${word}"`;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

function jsonSnippet(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

/** `mcpServers` JSON as Claude Desktop and Cursor read it. */
function mcpServersJson(target: ClientTarget): string {
  const server = target.transport === 'http' ? { url: target.url, ...headersOf(target) } : { command: target.command, args: [...target.args] };
  return jsonSnippet({ mcpServers: { [SERVER_NAME]: server } });
}

/** `.vscode/mcp.json`: `servers` with an explicit type. */
function vscodeJson(target: ClientTarget): string {
  const server =
    target.transport === 'http'
      ? { type: 'http', url: target.url, ...headersOf(target) }
      : { type: 'stdio', command: target.command, args: [...target.args] };
  return jsonSnippet({ servers: { [SERVER_NAME]: server } });
}

/** The `claude mcp add` command line. */
function claudeCodeCommand(target: ClientTarget): string {
  const words =
    target.transport === 'http'
      ? ['claude', 'mcp', 'add', '--transport', 'http', SERVER_NAME, target.url, ...headerPairs(target).flatMap(([k, v]) => ['--header', `${k}: ${v}`])]
      : ['claude', 'mcp', 'add', '--transport', 'stdio', SERVER_NAME, '--', target.command, ...target.args];
  return words.map(shellQuote).join(' ');
}

/** The exact snippet for a client: JSON for the config-file clients, a command line for Claude Code. */
export function clientSnippet(client: McpClient, target: ClientTarget): string {
  switch (client) {
    case 'claude-desktop':
    case 'cursor':
      return mcpServersJson(target);
    case 'vscode':
      return vscodeJson(target);
    case 'claude-code':
      return claudeCodeCommand(target);
  }
}

/** Where the snippet goes, for a hint next to it. */
export function snippetPlace(client: McpClient): string {
  switch (client) {
    case 'claude-desktop':
      return 'merge into claude_desktop_config.json (macOS: ~/Library/Application Support/Claude/, Windows: %APPDATA%\\Claude\\, Linux: ~/.config/Claude/), then restart Claude Desktop';
    case 'cursor':
      return 'merge into ~/.cursor/mcp.json (all projects) or .cursor/mcp.json (this project)';
    case 'vscode':
      return 'merge into .vscode/mcp.json in your workspace';
    case 'claude-code':
      return 'run in a shell; add --scope user to use it in every project';
  }
}

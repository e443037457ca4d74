import { resolve } from 'node:path';
import type { Command } from 'commander';
import { TroveError } from '../errors.js';
import { basePath } from '../http/base-path.js';
import { type ClientTarget, checkUrl, clientSnippet, defaultMcpUrl, parseClient, snippetPlace, snippetToken } from '../mcp/client-config.js';
import { type ToolEntry, listToolEntries } from '../mcp/tool-entries.js';
import { isBankName } from '../service/banks.js';
import { createToolRegistry } from '../mcp/tools.js';
import { type GlobalOptions, configFrom, printJson, reportError } from './context.js';

// `trove tools` (the tool registry) and `trove mcp-config <client>` (a client's configuration snippet).

interface McpConfigFlags extends GlobalOptions {
  url?: string;
  token?: string;
  includeToken?: boolean;
  stdio?: boolean;
  bank?: string;
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ')).join('\n');
}

/** One row per tool, then the reasons of unavailable tools and the counts. */
export function formatTools(entries: ToolEntry[]): string {
  const rows = [['TOOL_ID', 'TOOLSET', 'ENABLED', 'HEALTH', 'TITLE']];
  for (const e of entries) rows.push([e.tool_id, e.toolset, e.enabled ? 'yes' : 'no', e.health.status, e.title]);
  const reasons = [...new Set(entries.flatMap((e) => (e.health.status === 'ok' ? [] : [e.health.reason])))];
  const enabled = entries.filter((e) => e.enabled).length;
  return [table(rows), ...reasons.map((r) => `unavailable: ${r}`), `${entries.length} tools, ${enabled} enabled`].join('\n');
}

/** `trove mcp` with the same store and config as this invocation. */
function stdioArgs(opts: GlobalOptions, bank: string | undefined): string[] {
  const args: string[] = [];
  if (opts.dataDir) args.push('--data-dir', resolve(opts.dataDir));
  if (opts.config) args.push('--config', resolve(opts.config));
  return [...args, 'mcp', ...(bank ? ['--bank', bank] : [])];
}

/** --bank checked as the server checks a bank name. */
function checkBank(bank: string | undefined): string | undefined {
  if (bank !== undefined && !isBankName(bank)) throw new TroveError('INVALID_ARGUMENT', `--bank must be 1 to 64 characters of A-Z, a-z, 0-9, ".", "_" and "-" (not "." or ".."), got ${JSON.stringify(bank)}`, { field: 'bank' });
  return bank;
}

export function registerTools(program: Command): void {
  program
    .command('tools')
    .description('the MCP tool registry: every tool with its toolset, enabled state and health')
    .option('--json', 'the entries of GET /api/tools: {tools: [{tool_id, route, version, input_schema, output_schema, ...}]}')
    .action((_o, cmd: Command) => {
      const opts = cmd.optsWithGlobals() as GlobalOptions;
      try {
        const config = configFrom(opts);
        const entries = listToolEntries(createToolRegistry(config), config);
        if (opts.json) printJson({ tools: entries });
        else process.stdout.write(`${formatTools(entries)}\n`);
      } catch (err) {
        reportError(err, opts.json);
      }
    });

  program
    .command('mcp-config')
    .description('print the configuration snippet that connects an MCP client to trove')
    .argument('<client>', 'claude-desktop, cursor, claude-code or vscode')
    .option('--url <url>', 'MCP endpoint (default http://<server.address>/mcp; under server.base_url it moves with its path)')
    .option('--token <token>', 'access token to put in the Authorization header')
    .option('--include-token', 'include the configured app.access_token (otherwise a placeholder is printed)')
    .option('--stdio', 'let the client start `trove mcp` over stdio instead of calling the HTTP endpoint')
    .option('--bank <name>', 'memory bank of the connection: an X-Bank-Id header over HTTP, `trove mcp --bank` over stdio')
    .action((client: string, _o, cmd: Command) => {
      const opts = cmd.optsWithGlobals() as McpConfigFlags;
      try {
        const which = parseClient(client);
        if (opts.stdio && (opts.url !== undefined || opts.token !== undefined)) {
          throw new TroveError('INVALID_ARGUMENT', '--url and --token are for the HTTP endpoint; --stdio needs neither', { field: opts.url !== undefined ? 'url' : 'token' });
        }
        const bank = checkBank(opts.bank);
        const config = configFrom(opts);
        const target: ClientTarget = opts.stdio
          ? { transport: 'stdio', command: 'trove', args: stdioArgs(opts, bank) }
          : {
              transport: 'http',
              url: opts.url === undefined ? defaultMcpUrl(config.server.address, basePath(config.server.base_url)) : checkUrl(opts.url),
              token: snippetToken({ given: opts.token, configured: config.app.access_token, include: Boolean(opts.includeToken) }),
              bank,
            };
        process.stdout.write(`${clientSnippet(which, target)}\n`);
        process.stderr.write(`# ${snippetPlace(which)}\n`);
        if (!config.mcp.enabled) process.stderr.write('# note: MCP is turned off in this configuration (mcp.enabled = false)\n');
      } catch (err) {
        reportError(err, false);
      }
    });
}

import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { Command, Option } from 'commander';
import { stringify } from 'smol-toml';
import { VERSION } from '../app.js';
import { defaultConfigPath, describeConfig } from '../config/load.js';
import { defaultConfigText } from '../config/template.js';
import { TroveError } from '../errors.js';
import type { FolderSpec } from '../ingest/folders.js';
import { type TargetOutcome, addTargets, showDocument } from '../service/documents.js';
import { checkBankName } from '../service/banks.js';
import { searchDocuments } from '../service/search.js';
import { watchDirectories } from '../service/folder-watch.js';
import { configuredFolders, syncDirectories } from '../service/folders.js';
import { getStatus } from '../service/status.js';
import { registerBanks } from './bank.js';
import { registerHistory } from './history.js';
import { registerImport } from './import.js';
import { registerTools } from './tools.js';
import { registerUsers } from './users.js';
import { type GlobalOptions, appFrom, configFrom, printJson, reportError, withApp } from './context.js';
import { addJson, formatAdd, formatDocument, formatSearch, formatStatus, formatSync, isSkipped } from './format.js';

const collect = (value: string, previous: string[] = []) => [...previous, value];
const tty = Boolean(process.stdout.isTTY);

function globals(cmd: Command): GlobalOptions {
  return cmd.optsWithGlobals() as GlobalOptions;
}

function printAdded(outcomes: TargetOutcome[], json: boolean | undefined): void {
  if (json) {
    printJson(addJson(outcomes));
    return;
  }
  const stored = formatAdd(outcomes);
  if (stored) process.stdout.write(`${stored}\n`);
  for (const o of outcomes) if (o.error && !isSkipped(o)) process.stderr.write(`trove: ${o.error.code}: ${o.error.message}\n`);
}

export function buildProgram(): Command {
  const program = new Command('trove')
    .description('A self-hosted memory for you and your AI assistants.')
    .version(VERSION)
    .option('--data-dir <dir>', 'where the store lives (env TROVE_DATA_DIR; default $XDG_DATA_HOME/trove)')
    .option('--config <file>', 'config file (env TROVE_CONFIG; default $XDG_CONFIG_HOME/trove/config.toml)')
    .option('--set <section.key=value>', 'override one config key (repeatable)', collect)
    .option('--verbose', 'debug logs on stderr')
    .showHelpAfterError();

  program
    .command('add')
    .description('add files (HTML, Markdown, text, source code, PDF), directories or http(s) URLs; unchanged content adds no version')
    .argument('<targets...>', 'file, directory or URL')
    .option('--label <label>', 'label the added documents')
    .option('--json', 'machine-readable output')
    .action(async (targets: string[], _o, cmd: Command) => {
      const opts = globals(cmd) as GlobalOptions & { label?: string };
      await withApp(opts, async (app) => {
        const outcomes = await addTargets(app, targets, { label: opts.label ?? null, source: 'cli' });
        app.log.info('audit', { action: 'add', principal: 'cli', source: 'cli', targets: outcomes.length });
        if (outcomes.length === 0) throw new TroveError('FILE_NOT_FOUND', 'nothing to add: no supported files found');
        printAdded(outcomes, opts.json);
        if (outcomes.some((o) => o.error && !isSkipped(o))) process.exitCode = 1;
      });
    });

  program
    .command('search')
    .description('search with the query language (see docs/query-language.md)')
    .argument('<query...>', 'query; several words are joined with spaces')
    .option('--limit <n>', 'results 1..50 (default 10)')
    .option('--date-from <YYYY-MM-DD>', 'updated on or after')
    .option('--date-to <YYYY-MM-DD>', 'updated on or before')
    .option('--semantic', 'rank by meaning too (needs [semantic]; else keyword search with a notice)')
    .option('--json', 'machine-readable output')
    .action(async (words: string[], _o, cmd: Command) => {
      const opts = globals(cmd) as GlobalOptions & { limit?: string; dateFrom?: string; dateTo?: string; semantic?: boolean };
      await withApp(opts, async (app) => {
        if (opts.limit !== undefined && !/^-?\d+$/.test(opts.limit)) throw new TroveError('INVALID_ARGUMENT', `--limit must be a whole number, got ${JSON.stringify(opts.limit)}`, { field: 'limit' });
        const r = await searchDocuments(app, { query: words.join(' '), limit: opts.limit === undefined ? undefined : Number(opts.limit), dateFrom: opts.dateFrom, dateTo: opts.dateTo, semantic: opts.semantic });
        if (r.notice && !opts.json) process.stderr.write(`trove: ${r.notice}\n`);
        if (opts.json) printJson(r);
        else process.stdout.write(`${formatSearch(r, tty)}\n`);
      });
    });

  program
    .command('show')
    .description('show one document: metadata, versions and full text')
    .argument('<id|url>')
    .option('--json', 'machine-readable output')
    .action(async (idOrUrl: string, _o, cmd: Command) => {
      const opts = globals(cmd);
      await withApp(opts, async (app) => {
        const d = await showDocument(app, idOrUrl);
        if (opts.json) printJson(d);
        else process.stdout.write(`${formatDocument(d)}\n`);
      });
    });

  program
    .command('status')
    .description('counts, revision, store path and size')
    .option('--json', 'machine-readable output')
    .action(async (_o, cmd: Command) => {
      const opts = globals(cmd);
      await withApp(opts, async (app) => {
        const s = await getStatus(app);
        if (opts.json) printJson(s);
        else process.stdout.write(`${formatStatus(s)}\n`);
      });
    });

  program
    .command('sync')
    .description('index the configured folders ([[indexer.directories]]) once: new files added, changed ones versioned, vanished ones removed')
    .option('--json', 'machine-readable output')
    .action(async (_o, cmd: Command) => {
      const opts = globals(cmd);
      await withApp(opts, async (app) => {
        const report = await syncDirectories(app);
        if (opts.json) return printJson(report);
        process.stdout.write(`${formatSync(report)}\n`);
        for (const e of report.errors) process.stderr.write(`trove: ${e.code}: ${e.message}\n`);
      });
    });

  program
    .command('mcp')
    .description('serve MCP over stdio (newline-delimited JSON-RPC; stdout carries protocol only, logs go to stderr)')
    .option('--bank <name>', 'memory bank of the memory tools (default mcp.default_bank)')
    .action(async (_o, cmd: Command) => {
      const opts = globals(cmd) as GlobalOptions & { bank?: string };
      await withApp(opts, async (app) => {
        if (!app.config.mcp.enabled) throw new TroveError('CAPABILITY_UNAVAILABLE', 'MCP is turned off (mcp.enabled = false)', { key: 'mcp.enabled' });
        const bank = checkBankName(opts.bank ?? app.config.mcp.default_bank);
        await app.store.beginEpoch();
        app.embedder?.start();
        const { runStdio } = await import('../mcp/stdio.js');
        await runStdio(app, bank);
      });
    });

  program
    .command('serve')
    .description('serve the HTTP API (default 127.0.0.1:4433)')
    .addOption(new Option('--address <host:port>', 'listen address (config server.address)'))
    .action(async (_o, cmd: Command) => {
      const opts = globals(cmd) as GlobalOptions & { address?: string };
      try {
        const app = appFrom(opts, opts.address ? { 'server.address': opts.address } : {}, true);
        let folders: FolderSpec[];
        try {
          folders = configuredFolders(app);
        } catch (err) {
          await app.close();
          throw err;
        }
        await app.store.beginEpoch();
        // Loaded here: the HTTP stack is not needed by any other command (keeps `trove mcp` start fast).
        const { parseAddress, startServer } = await import('../http/server.js');
        const running = await startServer(app, parseAddress(app.config.server.address)).catch(async (err) => {
          await app.close();
          throw err;
        });
        app.log.info('trove serving', { url: running.url, store: app.config.dataDir });
        process.stdout.write(`trove listening on ${running.url}\n`);
        app.embedder?.start();
        const watching = watchDirectories(app, { initialSync: true }, folders);
        const stop = async () => {
          await running.close();
          await watching.close();
          await app.close();
          process.exit(0);
        };
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      } catch (err) {
        reportError(err, false);
      }
    });

  const config = program.command('config').description('show or create the configuration');
  config
    .command('show')
    .description('the effective configuration, secrets masked')
    .option('--json', 'machine-readable output')
    .action((_o, cmd: Command) => {
      const opts = globals(cmd);
      try {
        const shown = describeConfig(configFrom(opts));
        if (opts.json) printJson(shown);
        else {
          const { data_dir, config_file, ...sections } = shown;
          process.stdout.write(`# data_dir = ${JSON.stringify(data_dir)}\n# config_file = ${JSON.stringify(config_file)}\n${stringify(sections)}\n`);
        }
      } catch (err) {
        reportError(err, opts.json);
      }
    });
  config
    .command('init')
    .description('write a commented default config file')
    .option('--force', 'overwrite an existing file')
    .action((_o, cmd: Command) => {
      const opts = globals(cmd) as GlobalOptions & { force?: boolean };
      try {
        const path = opts.config || process.env.TROVE_CONFIG || defaultConfigPath(process.env);
        if (existsSync(path) && !opts.force) throw new TroveError('INVALID_ARGUMENT', `${path} exists; use --force to overwrite it`);
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, defaultConfigText());
        process.stdout.write(`wrote ${path}\n`);
      } catch (err) {
        reportError(err, false);
      }
    });
  registerImport(program);
  registerHistory(program);
  registerTools(program);
  registerUsers(program);
  registerBanks(program);
  return program;
}

await buildProgram().parseAsync(process.argv);

import type { Command } from 'commander';
import type { App } from '../app.js';
import { type BankView, deleteBank, listBanks, userAsOwner } from '../service/banks.js';
import { type GlobalOptions, printJson, withApp } from './context.js';

// `trove bank list | delete`: memory banks, worked on the store in-process as the instance owner;
// --user NAME acts on that user's banks instead.

interface BankFlags extends GlobalOptions {
  user?: string;
}

export function formatBanks(banks: BankView[]): string {
  const width = Math.max(4, ...banks.map((b) => b.name.length));
  const lines = banks.map((b) => `${b.name.padEnd(width)}  ${String(b.memories).padStart(6)} memor${b.memories === 1 ? 'y ' : 'ies'}  last activity ${b.last_activity ?? 'never'}`);
  lines.push(`${banks.length} bank${banks.length === 1 ? '' : 's'}`);
  return lines.join('\n');
}

async function ownerOf(app: App, flags: BankFlags): Promise<number | null> {
  return flags.user === undefined ? null : userAsOwner(app, flags.user);
}

export function registerBanks(program: Command): void {
  const bank = program.command('bank').description('memory banks (retained by assistants over MCP)');
  bank
    .command('list')
    .description("list the owner's banks (or a user's, with --user)")
    .option('--user <name>', "a user's banks instead of the owner's")
    .option('--json', 'machine-readable output')
    .action(async (_o, cmd: Command) => {
      const f = cmd.optsWithGlobals() as BankFlags;
      await withApp(f, async (app) => {
        const r = await listBanks(app, await ownerOf(app, f));
        if (f.json) printJson(r);
        else process.stdout.write(`${formatBanks(r.banks)}\n`);
      });
    });
  bank
    .command('delete')
    .description('delete a bank with all its memories')
    .argument('<name>')
    .option('--user <name>', "a user's bank instead of the owner's")
    .option('--json', 'machine-readable output')
    .action(async (name: string, _o, cmd: Command) => {
      const f = cmd.optsWithGlobals() as BankFlags;
      await withApp(f, async (app) => {
        const r = await deleteBank(app, await ownerOf(app, f), name);
        app.log.info('audit', { action: 'bank delete', principal: 'cli', source: 'cli', target: name });
        if (f.json) printJson(r);
        else process.stdout.write(`deleted bank ${r.bank} (${r.memories} memor${r.memories === 1 ? 'y' : 'ies'})\n`);
      });
    });
}

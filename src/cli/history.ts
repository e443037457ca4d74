import type { Command } from 'commander';
import { TroveError } from '../errors.js';
import { type HistoryPage, type IndexedHistoryItem, type OpenedHistoryItem, getHistory } from '../service/history.js';
import { type GlobalOptions, printJson, withApp } from './context.js';

interface HistoryFlags extends GlobalOptions {
  opened?: boolean;
  limit?: string;
  pageKey?: string;
  lastId?: string;
}

function wholeNumber(flag: string, field: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^-?\d{1,16}$/.test(value)) throw new TroveError('INVALID_ARGUMENT', `${flag} must be a whole number, got ${JSON.stringify(value)}`, { field });
  return Number(value);
}

function formatItem(item: IndexedHistoryItem | OpenedHistoryItem): string[] {
  const versions = `${item.version_count} version${item.version_count === 1 ? '' : 's'}`;
  if ('opened' in item) {
    const query = item.query ? ` · query ${JSON.stringify(item.query)}` : '';
    return [`${item.opened}  ${item.title || item.url}`, `   ${item.url}`, `   ${versions}${query} · id ${item.id}`];
  }
  return [`${item.indexed}  ${item.title || item.url}`, `   ${item.url}`, `   ${versions} · id ${item.id}`];
}

/** One entry per item, then how to ask for the next page. */
export function formatHistory(page: HistoryPage): string {
  const lines = page.items.flatMap(formatItem);
  const n = page.items.length;
  lines.push(`${n} ${page.mode} item${n === 1 ? '' : 's'} shown`);
  if (page.next_page_key !== undefined) lines.push(`more: trove history --page-key ${page.next_page_key}`);
  if (page.next_last_id !== undefined) lines.push(`more: trove history --opened --last-id ${page.next_last_id}`);
  return lines.join('\n');
}

/** `trove history`: recently indexed documents, or with --opened the search results opened. */
export function registerHistory(program: Command): void {
  program
    .command('history')
    .description('recently indexed documents, newest first; --opened: search results opened')
    .option('--opened', 'the opened-results history instead of the indexed one')
    .option('--limit <n>', 'items 1..100 (default 20)')
    .option('--page-key <key>', 'next page of the indexed history (the key a previous page printed)')
    .option('--last-id <n>', 'next page of the opened history (the id a previous page printed)')
    .option('--json', 'machine-readable output')
    .action(async (_o, cmd: Command) => {
      const flags = cmd.optsWithGlobals() as HistoryFlags;
      await withApp(flags, async (app) => {
        const page = await getHistory(app, {
          mode: flags.opened ? 'opened' : 'indexed',
          limit: wholeNumber('--limit', 'limit', flags.limit),
          pageKey: flags.pageKey,
          lastId: wholeNumber('--last-id', 'last_id', flags.lastId),
        });
        if (flags.json) printJson(page);
        else process.stdout.write(`${formatHistory(page)}\n`);
      });
    });
}

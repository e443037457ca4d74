import type Database from 'better-sqlite3';
import type { BrowserHistory } from './types.js';

/** The url in normalized form when it is http(s), else undefined. */
export function webUrl(raw: unknown): string | undefined {
  if (typeof raw !== 'string' || !/^https?:/i.test(raw)) return undefined;
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** Whitespace collapsed, trimmed, at most 1,000 characters. */
export function cleanTitle(raw: unknown): string {
  return typeof raw === 'string' ? raw.replace(/\s+/g, ' ').trim().slice(0, 1000) : '';
}

export interface VisitRow {
  url: unknown;
  title: unknown;
  count: unknown;
  /** Unix milliseconds. */
  at: number;
}

/** Gathers visit rows (ascending by time) into pages and visit lists; later non-empty titles win. */
export function collectVisits(rows: Iterable<VisitRow>): BrowserHistory {
  const history: BrowserHistory = { pages: [], at: [], page: [], skipped: 0 };
  const index = new Map<string, number>();
  for (const row of rows) {
    const url = webUrl(row.url);
    if (url === undefined) {
      history.skipped++;
      continue;
    }
    let i = index.get(url);
    const title = cleanTitle(row.title);
    const count = typeof row.count === 'number' && row.count > 0 ? row.count : 0;
    if (i === undefined) {
      i = history.pages.push({ url, title, visitCount: count }) - 1;
      index.set(url, i);
    } else {
      const page = history.pages[i]!;
      if (title) page.title = title;
      page.visitCount = Math.max(page.visitCount, count);
    }
    history.at.push(row.at);
    history.page.push(i);
  }
  return history;
}

/** Column names of a table (empty when it does not exist). */
export function columnsOf(db: Database.Database, table: string): Set<string> {
  return new Set(db.prepare('SELECT name FROM pragma_table_info(?)').pluck().all(table) as string[]);
}

export function hasColumns(db: Database.Database, table: string, names: string[]): boolean {
  const cols = columnsOf(db, table);
  return names.every((n) => cols.has(n));
}

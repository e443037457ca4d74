import { TroveError } from '../../errors.js';
import { chromiumFormat } from './chromium.js';
import { firefoxFormat } from './firefox.js';
import { safariFormat } from './safari.js';
import { openSnapshot, readGuarded } from './snapshot.js';
import { type Browser, type BrowserHistory, type HistoryFormat, formatOf } from './types.js';

const FORMATS: readonly HistoryFormat[] = [firefoxFormat, chromiumFormat, safariFormat];

const TABLES: Record<HistoryFormat['name'], string> = {
  firefox: 'moz_places, moz_historyvisits',
  chromium: 'urls, visits',
  safari: 'history_items, history_visits',
};

function wrongFormat(path: string, expected: HistoryFormat, found: HistoryFormat | undefined): TroveError {
  const message = found
    ? `${path} is a ${found.label} history database, not a ${expected.label} one`
    : `${path} is not a ${expected.label} history database (no ${TABLES[expected.name]} tables with the expected columns)`;
  return new TroveError('UNSUPPORTED_TYPE', message, { path, expected: expected.name, found: found?.name ?? null });
}

/** Reads the visits at or after `fromMs` from a copy of the browser's history database at `path`. */
export function readBrowserHistory(browser: Browser, path: string, fromMs: number): BrowserHistory {
  const format = FORMATS.find((f) => f.name === formatOf(browser))!;
  const snapshot = openSnapshot(path);
  try {
    return readGuarded(path, () => {
      if (!format.detect(snapshot.db)) throw wrongFormat(path, format, FORMATS.find((f) => f.detect(snapshot.db)));
      return format.read(snapshot.db, fromMs);
    });
  } finally {
    snapshot.close();
  }
}

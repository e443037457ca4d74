import type Database from 'better-sqlite3';

export const CHROMIUM_BROWSERS = ['chrome', 'chromium', 'brave', 'edge', 'vivaldi'] as const;
export type ChromiumBrowser = (typeof CHROMIUM_BROWSERS)[number];
export type Browser = 'firefox' | ChromiumBrowser | 'safari';
export const BROWSERS: readonly Browser[] = ['firefox', ...CHROMIUM_BROWSERS, 'safari'];

/** The three history database formats; every Chromium-based browser shares one. */
export type HistoryFormatName = 'firefox' | 'chromium' | 'safari';

export function formatOf(browser: Browser): HistoryFormatName {
  return browser === 'firefox' || browser === 'safari' ? browser : 'chromium';
}

export interface HistoryPage {
  /** Normalized http(s) url. */
  url: string;
  title: string;
  /** The browser's visit count for the url (it may count visits it no longer lists). */
  visitCount: number;
}

/** A browser's visits, ascending by time: visit i happened at `at[i]` (Unix ms) on `pages[page[i]]`. */
export interface BrowserHistory {
  pages: HistoryPage[];
  at: number[];
  page: number[];
  /** Visits left out because their url is not http(s). */
  skipped: number;
}

export interface HistoryFormat {
  name: HistoryFormatName;
  /** For messages: "Firefox", "Chromium-family", "Safari". */
  label: string;
  /** True when the database has this format's tables and columns. */
  detect(db: Database.Database): boolean;
  /** Visits at or after `fromMs`, ascending. */
  read(db: Database.Database, fromMs: number): BrowserHistory;
}

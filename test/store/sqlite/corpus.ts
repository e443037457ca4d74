import { addContent } from '../../../src/service/documents.js';
import { type SearchResponse, searchDocuments } from '../../../src/service/search.js';
import type { App } from '../../../src/app.js';
import type { SqliteStore } from '../../../src/store/sqlite/store.js';
import type { DocumentKind } from '../../../src/store/types.js';

// A small corpus with fixed capture times, so date operators and orderings are deterministic.

export const DAY = 86_400_000;
export const HOUR = 3_600_000;
/** The "current time" every search in these suites passes as `now`: 2026-06-15T12:00:00Z. */
export const NOW = Date.UTC(2026, 5, 15, 12);

export interface Fixture {
  url: string;
  title: string;
  text: string;
  label?: string;
  kind?: DocumentKind;
  language?: string;
  metadata?: Record<string, unknown>;
  capturedAt: number;
}

export const URLS = {
  rust: 'https://github.com/rust-lang/book',
  gist: 'https://gist.github.com/alice/asyncio',
  pydocs: 'https://docs.python.org/3/library/asyncio.html',
  cafe: 'https://example.org/cafe',
  meeting: 'file:///home/me/notes/meeting.md',
  pages: 'https://octocat.github.io/blog/',
  lookalike: 'https://notgithub.com/login',
  intl: 'https://example.net/intl',
  sky: 'https://news.example.com/sky',
  memory: 'memory:default/01',
} as const;

export const ALL_URLS = Object.values(URLS);

export const CORPUS: Fixture[] = [
  {
    url: URLS.rust,
    title: 'Error handling in Rust',
    text: 'The question mark operator propagates errors to the caller. Running cargo build compiles the crate.',
    label: 'Work',
    language: 'en',
    metadata: { author: 'Ferris Crab', topic: 'rust' },
    capturedAt: NOW - DAY, // 2026-06-14T12:00Z
  },
  {
    url: URLS.gist,
    title: 'Python asyncio notes',
    text: 'The event loop schedules coroutines. Await yields control back to the loop.',
    label: 'reading',
    language: 'en',
    metadata: { author: 'Alice' },
    capturedAt: NOW - 3 * DAY, // 2026-06-12T12:00Z
  },
  {
    url: URLS.pydocs,
    title: 'asyncio: Asynchronous I/O',
    text: 'asyncio is a library to write concurrent code using the async and await syntax. Tasks run coroutines concurrently.',
    language: 'en',
    metadata: { author: 'PSF' },
    capturedAt: Date.UTC(2026, 5, 1, 8), // 2026-06-01T08:00Z
  },
  {
    url: URLS.cafe,
    title: 'Best café in Lisbon',
    text: 'A small café with strong espresso and pastel de nata. The barista was friendly and the terrace was sunny.',
    label: 'Travel',
    language: 'pt-BR',
    metadata: { site_name: 'Example Guides' },
    capturedAt: Date.UTC(2026, 4, 20, 10), // 2026-05-20T10:00Z
  },
  {
    url: URLS.meeting,
    title: 'Meeting notes',
    text: 'We discussed the quarterly budget and the NEAR term roadmap. Action items: draw the AND gate diagram, review the hiring plan.',
    label: 'personal',
    capturedAt: NOW - 30 * 60_000, // 2026-06-15T11:30Z
  },
  {
    url: URLS.pages,
    title: 'Static sites with Jekyll',
    text: 'Publishing a blog with Jekyll and GitHub Pages. A local server previews the site before you push.',
    label: 'reading',
    capturedAt: Date.UTC(2026, 3, 1), // 2026-04-01T00:00Z
  },
  {
    url: URLS.lookalike,
    title: 'Lookalike login page',
    text: 'A phishing page that imitates a code hosting login form. Its search box claims sort:date shows the newest first.',
    capturedAt: Date.UTC(2026, 0, 10), // 2026-01-10T00:00Z
  },
  {
    url: URLS.intl,
    title: 'Ωμέγα notes',
    text: 'Пример текста: йогурт и ёжик. 한국어 문서 검색. がっこう の ガイド. हिन्दी पाठ. Ελληνικά κείμενα.',
    label: 'Über',
    capturedAt: Date.UTC(2026, 2, 15), // 2026-03-15T00:00Z
  },
  {
    url: URLS.sky,
    title: 'Sky watching tonight',
    text: 'Clear sky tonight. The days are getting longer and the sunset comes late.',
    label: 'Hobby',
    metadata: { author: 'Ferris Wheel' },
    capturedAt: Date.UTC(2025, 11, 31, 23, 59, 59), // 2025-12-31T23:59:59Z
  },
  {
    url: URLS.memory,
    kind: 'memory',
    title: 'User preference',
    text: 'The user prefers Python over Rust for quick scripting tasks.',
    capturedAt: NOW - 2 * HOUR, // 2026-06-15T10:00Z
  },
];

/** Adds the corpus; language is set directly (over what ingestion detects) so that the fixtures control it exactly. */
export async function loadCorpus(app: App, docs: Fixture[] = CORPUS): Promise<void> {
  for (const d of docs) {
    await addContent(app, { url: d.url, title: d.title, text: d.text, label: d.label ?? null, source: 'test', kind: d.kind, capturedAt: d.capturedAt, metadata: d.metadata });
    (app.store as SqliteStore).database.prepare('UPDATE documents SET language = ? WHERE url = ?').run(d.language ?? 'unknown', d.url);
  }
}

export interface SearchExtra {
  limit?: number;
  dateFrom?: string;
  dateTo?: string;
}

/** A search at NOW (limit 50 unless given). */
export function search(app: App, query: string, extra: SearchExtra = {}): Promise<SearchResponse> {
  return searchDocuments(app, { query, limit: 50, now: NOW, ...extra });
}

/** Result URLs in order, partial matches included. */
export async function urls(app: App, query: string, extra: SearchExtra = {}): Promise<string[]> {
  return (await search(app, query, extra)).results.map((r) => r.url);
}

/** URLs of the full matches, sorted, for comparing as a set. */
export async function matches(app: App, query: string, extra: SearchExtra = {}): Promise<string[]> {
  const res = await search(app, query, extra);
  return res.results.filter((r) => r.match === 'full').map((r) => r.url).sort();
}

export const sorted = (list: readonly string[]): string[] => [...list].sort();

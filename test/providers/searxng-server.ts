import type { IncomingMessage, ServerResponse } from 'node:http';
import { startRestartable } from './restartable.js';

// A real HTTP server on 127.0.0.1 speaking SearXNG's search API: GET /search?q=&format=json&categories=
// &language=&pageno= -> {query, number_of_results, results: [{url, title, content, engine, engines,
// category, publishedDate?, img_src?}], answers, suggestions, infoboxes, unresponsive_engines}.

export interface SearxResult {
  url: string;
  title: string;
  content: string;
  engine: string;
  engines: string[];
  category: string;
  publishedDate?: string | null;
  img_src?: string;
  score?: number;
}

export interface SearxRequest {
  path: string;
  params: Record<string, string>;
}

export type SearxFailure = { mode: 'status'; status: number; body?: string } | { mode: 'hang' } | { mode: 'not_json' } | { mode: 'reset' };

export interface SearxngServerOptions {
  /** Results a full page holds; default 10. */
  perPage?: number;
  /** Results a query has in all (over every page); default 30. */
  total?: number;
  /** format=json allowed (settings.yml search.formats); false answers 403 as SearXNG does. Default true. */
  json?: boolean;
  /** Replaces the generated results of a query (all pages: the server pages them). */
  results?: (query: string, params: Record<string, string>) => SearxResult[];
}

export interface SearxngServer {
  url: string;
  requests: SearxRequest[];
  fail(failure: SearxFailure | undefined, options?: { times?: number }): void;
  resume(): void;
  waitForHeld(n?: number): Promise<void>;
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

/** SearXNG's category names (its "web" results are `general`). */
const CATEGORIES = new Set(['general', 'news', 'images', 'videos', 'it', 'science', 'files', 'music', 'map', 'social media']);
const ENGINES = ['duckduckgo', 'brave', 'wikipedia'];

function slug(q: string): string {
  return q.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'q';
}

/** The generated results of a query in one category: deterministic, numbered from 1. */
export function generatedResults(query: string, category: string, total: number): SearxResult[] {
  return Array.from({ length: total }, (_, i) => {
    const n = i + 1;
    const engine = ENGINES[i % ENGINES.length]!;
    const r: SearxResult = {
      url: `https://${category}.example.org/${slug(query)}/${n}`,
      title: `${query} (${category} result ${n})`,
      content: `About ${query}: snippet number ${n} from ${engine}.`,
      engine,
      engines: [engine],
      category,
      score: 1 / n,
    };
    if (category === 'news') r.publishedDate = new Date(Date.UTC(2026, 0, 1 + (n % 28))).toISOString();
    if (category === 'images') r.img_src = `https://images.example.org/${slug(query)}/${n}.jpg`;
    return r;
  });
}

export async function startSearxngServer(options: SearxngServerOptions = {}): Promise<SearxngServer> {
  const perPage = options.perPage ?? 10;
  const total = options.total ?? 30;
  const requests: SearxRequest[] = [];
  let failure: { f: SearxFailure; left: number } | undefined;
  const held: Array<() => void> = [];
  const waiters: Array<() => void> = [];

  const answer = (res: ServerResponse, params: Record<string, string>) => {
    const query = params.q ?? '';
    const categories = (params.categories || 'general').split(',').filter((c) => CATEGORIES.has(c));
    const all = options.results ? options.results(query, params) : categories.flatMap((c) => generatedResults(query, c, total));
    const page = Math.max(1, Number.parseInt(params.pageno ?? '1', 10) || 1);
    const results = all.slice((page - 1) * perPage, page * perPage);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ query, number_of_results: all.length, results, answers: [], corrections: [], infoboxes: [], suggestions: [], unresponsive_engines: [] }));
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const u = new URL(req.url ?? '/', 'http://localhost');
    const params = Object.fromEntries(u.searchParams);
    requests.push({ path: u.pathname, params });
    if (u.pathname !== '/search' && u.pathname !== '/') {
      res.writeHead(404, { 'content-type': 'text/html' });
      return res.end('<h1>Not Found</h1>');
    }
    if (params.format !== 'json') {
      res.writeHead(200, { 'content-type': 'text/html' });
      return res.end('<html><body>SearXNG results page</body></html>');
    }
    if (options.json === false) {
      res.writeHead(403, { 'content-type': 'text/html' });
      return res.end('<h1>403 Forbidden</h1>');
    }
    const f = failure?.f;
    if (failure && --failure.left <= 0) failure = undefined;
    if (f?.mode === 'hang') {
      held.push(() => res.destroy());
      for (const w of waiters.splice(0)) w();
      return;
    }
    if (f?.mode === 'reset') return req.socket.destroy();
    if (f?.mode === 'not_json') {
      res.writeHead(200, { 'content-type': 'text/html' });
      return res.end('<html>rate limited</html>');
    }
    if (f?.mode === 'status') {
      res.writeHead(f.status, { 'content-type': 'text/html' });
      return res.end(f.body ?? `<h1>${f.status}</h1>`);
    }
    answer(res, params);
  };

  const http = await startRestartable(handle);
  const release = () => {
    for (const r of held.splice(0)) r();
  };
  const stop = async () => {
    release();
    await http.stop();
  };
  return {
    url: http.url,
    requests,
    fail: (f, opts = {}) => {
      failure = f ? { f, left: opts.times ?? Number.POSITIVE_INFINITY } : undefined;
    },
    resume: release,
    waitForHeld: async (n = 1) => {
      while (held.length < n) await new Promise<void>((r) => waiters.push(r));
    },
    down: stop,
    up: http.start,
    close: stop,
  };
}

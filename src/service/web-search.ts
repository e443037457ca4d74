import type { App } from '../app.js';
import { TroveError } from '../errors.js';
import type { WebCategory, WebResult } from '../providers/searxng.js';

// searxng_search (seed 001): the web, through the self-hosted SearXNG instance the user configured.

export const MAX_WEB_RESULTS = 50;
export const WEB_CATEGORIES: readonly WebCategory[] = ['web', 'news', 'images'];

export interface WebSearchParams {
  query: string;
  /** Default: web. */
  categories?: WebCategory[] | undefined;
  /** Default: searxng.default_language. */
  language?: string | undefined;
  /** 1..50; default searxng.max_results. */
  maxResults?: number | undefined;
  signal?: AbortSignal | undefined;
}

export interface WebSearchResponse {
  results: WebResult[];
  categories: WebCategory[];
  language: string;
  duration_ms: number;
}

export async function webSearch(app: App, p: WebSearchParams): Promise<WebSearchResponse> {
  const client = app.searxng;
  if (!client) throw new TroveError('CAPABILITY_UNAVAILABLE', 'web search is not configured on this server ([searxng] enabled = false)', { key: 'searxng.enabled' });
  const query = p.query.trim();
  if (!query) throw new TroveError('INVALID_ARGUMENT', 'query is empty', { field: 'query' });
  const maxResults = p.maxResults ?? app.config.searxng.max_results;
  if (!Number.isInteger(maxResults) || maxResults < 1 || maxResults > MAX_WEB_RESULTS) {
    throw new TroveError('INVALID_ARGUMENT', `max_results must be 1..${MAX_WEB_RESULTS}`, { field: 'max_results' });
  }
  const categories = p.categories?.length ? [...new Set(p.categories)] : (['web'] as WebCategory[]);
  const language = p.language ?? app.config.searxng.default_language;
  const started = performance.now();
  const results = await client.search({ query, categories, language, maxResults, signal: p.signal });
  return { results, categories, language, duration_ms: Math.round((performance.now() - started) * 1000) / 1000 };
}

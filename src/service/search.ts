import type { App } from '../app.js';
import { parseQuery } from '../engine/query/parse.js';
import { parseDay } from '../engine/query/time.js';
import { rerank } from '../engine/rank.js';
import { makeSnippet } from '../engine/snippet.js';
import { TroveError } from '../errors.js';
import type { Scope } from '../store/types.js';
import { type RankedDocument, hybridDocuments } from './search-hybrid.js';
import { iso } from './views.js';

export interface SearchParams {
  query: string;
  /** 1..50; anything else (or absent) uses the configured default, as Hister does. */
  limit?: number | undefined;
  /** YYYY-MM-DD on `updated`, inclusive. */
  dateFrom?: string | undefined;
  dateTo?: string | undefined;
  /** Add each result's complete stored text (`text`) and its captured page, sanitized (`html`, null when none). */
  include?: { text?: boolean; html?: boolean } | undefined;
  /** Whose documents to search (see service/access.ts); default every owner's. */
  scope?: Scope | undefined;
  /** The bank whose memories may be found (service/banks.ts findBank); absent or null: no memories. */
  bankId?: number | null | undefined;
  now?: number;
  /** Rank by meaning too (hybrid, needs [semantic]); without it, keyword search with a notice. */
  semantic?: boolean | undefined;
  signal?: AbortSignal | undefined;
}

export interface SearchResult {
  id: string;
  url: string;
  title: string;
  snippet: string;
  score: number;
  added: string;
  updated: string;
  domain: string;
  label: string | null;
  language: string;
  type: string;
  /** `full`: matches the whole query; `partial`: some of its words (only after every full match); `semantic`: near in meaning only (semantic search). */
  match: 'full' | 'partial' | 'semantic';
  text?: string;
  html?: string | null;
}

export interface SearchResponse {
  results: SearchResult[];
  /** Documents matching the whole query; exact up to 1,000, beyond that a lower bound (see total_exact). */
  total: number;
  total_exact: boolean;
  duration_ms: number;
  /** `hybrid` when semantic search ranked alongside keywords; else `keyword`. */
  mode: 'keyword' | 'hybrid';
  /** An embeddings endpoint is configured on this server. */
  semantic_enabled: boolean;
  /** Why semantic search was asked for but not used. */
  notice?: string;
}

export const MAX_LIMIT = 50;

export function effectiveLimit(limit: number | undefined, fallback: number): number {
  return limit !== undefined && Number.isInteger(limit) && limit >= 1 && limit <= MAX_LIMIT ? limit : fallback;
}

function day(field: string, value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const ms = parseDay(value);
  if (ms === undefined) throw new TroveError('INVALID_ARGUMENT', `${field} must be a date YYYY-MM-DD, got ${JSON.stringify(value.slice(0, 40))}`, { field });
  return ms;
}

const round = (n: number): number => Math.round(n * 1000) / 1000;
const precise = (n: number): number => Number(n.toPrecision(6));

/** The one keyword search behind the CLI, the HTTP API and the MCP tool. */
export async function searchDocuments(app: App, params: SearchParams): Promise<SearchResponse> {
  const started = performance.now();
  const cfg = app.config.search;
  const limit = effectiveLimit(params.limit, cfg.default_limit);
  const dateFrom = day('date_from', params.dateFrom);
  const dateTo = day('date_to', params.dateTo);
  if (dateFrom !== undefined && dateTo !== undefined && dateTo < dateFrom) throw new TroveError('INVALID_ARGUMENT', 'date_to is before date_from', { field: 'date_to' });
  const query = parseQuery(params.query, params.now ?? Date.now());
  const outcome = await app.store.search({
    query,
    limit,
    window: limit + 5,
    dateFrom,
    dateTo,
    weights: { title: cfg.weight_title, domain: cfg.weight_domain, url: cfg.weight_url, text: cfg.weight_text },
    scope: params.scope,
    bankId: params.bankId,
  });
  const keyword = rerank(outcome.candidates, outcome.bareWords, outcome.phrase, { phraseBoost: cfg.phrase_boost, domainBoost: cfg.domain_boost }, query.sort)
    .map((c): RankedDocument => ({ document: c.document, chunkText: c.chunkText, score: c.finalScore, match: c.match }));
  const hybrid = params.semantic
    ? await hybridDocuments(app, { text: params.query, query, scope: params.scope, bankId: params.bankId, dateFrom, dateTo, limit, signal: params.signal }, keyword)
    : undefined;
  const ranked = hybrid ? hybrid.items : keyword.slice(0, limit);
  const results = ranked.map((c): SearchResult => ({
    id: c.document.id,
    url: c.document.url,
    title: c.document.title,
    snippet: makeSnippet(c.chunkText, outcome.highlight),
    score: precise(c.score),
    added: iso(c.document.addedAt),
    updated: iso(c.document.updatedAt),
    domain: c.document.domain,
    label: c.document.label,
    language: c.document.language,
    type: c.document.kind,
    match: c.match,
  }));
  if (params.include?.text || params.include?.html) await addContent(app, results, params.include);
  const response: SearchResponse = {
    results, total: outcome.total, total_exact: outcome.totalExact, duration_ms: round(performance.now() - started),
    mode: hybrid?.mode ?? 'keyword', semantic_enabled: app.embeddings !== undefined,
  };
  if (hybrid?.notice) response.notice = hybrid.notice;
  return response;
}

async function addContent(app: App, results: SearchResult[], include: { text?: boolean; html?: boolean }): Promise<void> {
  // Loaded on demand: the HTML parser is the heaviest module and most searches never need it.
  const sanitizePage = include.html ? (await import('../ingest/page-html.js')).sanitizePage : undefined;
  for (const r of results) {
    const content = await app.store.getContent(r.id);
    if (include.text) r.text = content?.text ?? '';
    if (sanitizePage) r.html = content?.rawHtml ? sanitizePage(content.rawHtml, r.url) : null;
  }
}

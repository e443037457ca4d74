import { TroveError, isTroveError } from '../errors.js';
import { type HttpTarget, exchangeJson, invalidAnswer } from './http.js';

// GET {base_url}/search?q=&format=json&categories=&language=&pageno= (SearXNG's search API; the
// instance must list json under search.formats, else it answers 403).

export type WebCategory = 'web' | 'news' | 'images';

/** SearXNG's own category names: its "web" results live in `general`. */
const CATEGORY: Record<WebCategory, string> = { web: 'general', news: 'news', images: 'images' };

/** More pages than this are never asked for one call. */
const MAX_PAGES = 5;

export interface WebResult {
  title: string;
  url: string;
  content: string;
  engine: string;
  category: string;
  published: string | null;
  image: string | null;
}

export interface SearxngOptions {
  baseUrl: string;
  timeoutMs: number;
}

export interface WebSearchRequest {
  query: string;
  categories: WebCategory[];
  language: string;
  maxResults: number;
  signal?: AbortSignal | undefined;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const orNull = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

function toResult(raw: Record<string, unknown>): WebResult | undefined {
  const url = str(raw.url);
  if (!url) return undefined;
  return {
    title: str(raw.title),
    url,
    content: str(raw.content),
    engine: str(raw.engine) || (Array.isArray(raw.engines) ? str(raw.engines[0]) : ''),
    category: str(raw.category),
    published: orNull(raw.publishedDate),
    image: orNull(raw.img_src) ?? orNull(raw.thumbnail_src) ?? orNull(raw.thumbnail),
  };
}

/** SearXNG answers 403 to format=json unless its settings.yml lists json under search.formats. */
function withFormatHint(err: TroveError): TroveError {
  return new TroveError(err.code, `${err.message} (does its settings.yml list json under search.formats?)`, err.details);
}

export class SearxngClient {
  private readonly url: string;

  constructor(private readonly opts: SearxngOptions) {
    this.url = `${opts.baseUrl.replace(/\/+$/, '')}/search`;
  }

  /** Up to `maxResults` results, reading further pages while they bring new urls. */
  async search(req: WebSearchRequest): Promise<WebResult[]> {
    const out: WebResult[] = [];
    const seen = new Set<string>();
    for (let page = 1; page <= MAX_PAGES && out.length < req.maxResults; page++) {
      const fresh = (await this.page(req, page)).filter((r) => !seen.has(r.url));
      if (fresh.length === 0) break;
      for (const r of fresh) {
        seen.add(r.url);
        out.push(r);
      }
    }
    return out.slice(0, req.maxResults);
  }

  private async page(req: WebSearchRequest, pageno: number): Promise<WebResult[]> {
    const params = new URLSearchParams({ q: req.query, format: 'json', categories: req.categories.map((c) => CATEGORY[c]).join(','), language: req.language, pageno: String(pageno) });
    const target: HttpTarget = { service: 'searxng', url: `${this.url}?${params}`, timeoutMs: this.opts.timeoutMs, signal: req.signal };
    const answer = (await exchangeJson(target, { method: 'GET' }).catch((err: unknown) => {
      throw isTroveError(err) && err.details?.status === 403 ? withFormatHint(err) : err;
    })) as { results?: unknown };
    if (!answer || typeof answer !== 'object' || !Array.isArray(answer.results)) throw invalidAnswer(target, 'answered without a results list');
    return answer.results.flatMap((r) => (r && typeof r === 'object' ? (toResult(r as Record<string, unknown>) ?? []) : []));
  }
}

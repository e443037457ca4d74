import type { App } from '../app.js';
import { reciprocalRankFusion } from '../engine/fusion.js';
import type { Query } from '../engine/query/ast.js';
import type { DocumentRecord, Scope } from '../store/types.js';
import { vectorChunks } from './hybrid.js';

// search with semantic:true: the keyword results and the documents of the query's nearest passages,
// fused by reciprocal rank per document.

const DAY_MS = 86_400_000;

export const OPERATORS_NOTICE = 'semantic ranking applies to queries of plain words and phrases; this query was answered by keyword search alone';

/** One result before it is shaped for the caller. */
export interface RankedDocument {
  document: DocumentRecord;
  chunkText: string;
  score: number;
  /** `semantic`: found by meaning only, its words need not occur. */
  match: 'full' | 'partial' | 'semantic';
}

export interface HybridDocuments {
  items: RankedDocument[];
  mode: 'keyword' | 'hybrid';
  notice?: string | undefined;
}

/** True for queries of bare words and phrases only, ranked by relevance: the ones meaning can rank too. */
export function plainQuery(q: Query): boolean {
  if (q.matchAll || q.sort.key !== 'relevance' || q.sort.reverse || q.clauses.length === 0) return false;
  return q.clauses.every((c) => c.kind === 'match' && !c.negated && c.field === null && c.options.every((o) => o.type === 'phrase' || o.wildcard === 'none'));
}

export interface HybridSearch {
  text: string;
  query: Query;
  scope?: Scope | undefined;
  /** The bank whose memories may match; absent or null: none. */
  bankId?: number | null | undefined;
  /** Epoch ms of the first day, and of the last day (inclusive), on `updated`. */
  dateFrom?: number | undefined;
  dateTo?: number | undefined;
  limit: number;
  signal?: AbortSignal | undefined;
}

/** Fuses the keyword-ranked documents with the documents of the nearest passages; keyword results alone, with a notice, when that cannot be done. */
export async function hybridDocuments(app: App, s: HybridSearch, keyword: RankedDocument[]): Promise<HybridDocuments> {
  const alone = (notice: string): HybridDocuments => ({ items: keyword.slice(0, s.limit), mode: 'keyword', notice });
  if (!app.embeddings) return alone('semantic search is not configured on this server; keyword search was used');
  if (!plainQuery(s.query)) return alone(OPERATORS_NOTICE);
  const filter = {
    scope: s.scope ?? { all: true as const },
    bankId: s.bankId ?? null,
    since: s.dateFrom,
    until: s.dateTo === undefined ? undefined : s.dateTo + DAY_MS - 1,
  };
  const vector = await vectorChunks(app, s.text, filter, s.limit * 3, s.signal);
  if (!vector.ok) return alone(vector.notice);
  const nearest: Array<{ documentId: string; text: string }> = [];
  const seen = new Set<string>();
  for (const h of vector.hits) {
    if (seen.has(h.documentId)) continue;
    seen.add(h.documentId);
    nearest.push({ documentId: h.documentId, text: h.text });
  }
  const fused = reciprocalRankFusion<RankedDocument | { documentId: string; text: string }>(
    [{ items: keyword }, { items: nearest }],
    (x) => ('document' in x ? x.document.id : x.documentId),
  ).slice(0, s.limit);
  const items: RankedDocument[] = [];
  for (const f of fused) {
    if ('document' in f.item) {
      items.push({ ...f.item, score: f.score });
      continue;
    }
    const document = await app.store.getDocument(f.item.documentId, s.scope);
    if (document) items.push({ document, chunkText: f.item.text, score: f.score, match: 'semantic' });
  }
  return { items, mode: 'hybrid' };
}

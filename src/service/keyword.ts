// Keyword ranking of passages for natural-language text (recall, memory.recall, memory.search, reflect):
// the seam those call is
//   rankChunks(app: App, text: string, filter: ChunkFilter, k: number, offset = 0): Promise<ChunkHit[]>
// best first, score higher-is-better, at most k hits after skipping `offset`.
// The `search` tool keeps its query language (AND of words, operators) in service/search.ts; this is the other mode.
import type { App } from '../app.js';
import { boostAnswers } from '../engine/query/answer.js';
import { weightedWords } from '../engine/query/natural.js';
import type { ChunkFilter, ChunkHit, SearchWeights } from '../store/types.js';

/** Passages reranked by answer kind: the rest keep BM25 order, so pages stay stable whatever k and offset. */
export const RERANK_WINDOW = 50;

/**
 * Title weight for natural-language text: a question's words are spread over title and body, and SciFact
 * training claims scored best at 2 (nDCG@10 0.7011 at the search tool's 8, 0.7042 at 2, 0.7034 at 1).
 */
export const NATURAL_TITLE_WEIGHT = 2;

function naturalWeights(app: App): SearchWeights {
  const s = app.config.search;
  return { title: Math.min(s.weight_title, NATURAL_TITLE_WEIGHT), domain: s.weight_domain, url: s.weight_url, text: s.weight_text };
}

/**
 * Passages best matching natural-language `text`: its content words OR-ed (stop words dropped, porter stems,
 * a question's names counting twice), BM25 over title and text, then passages holding the kind of answer a
 * question asks for (a date for "when", a place for "where", a name for "who") moved up.
 */
export async function rankChunks(app: App, text: string, filter: ChunkFilter, k: number, offset = 0): Promise<ChunkHit[]> {
  // The store ORs the words as given: a repeated word counts once per repetition in BM25.
  const words = weightedWords(text);
  if (words.length === 0 || k <= 0) return [];
  const limit = Math.max(RERANK_WINDOW, offset + k);
  const hits = await app.store.searchChunks({ filter, words, limit, offset: 0, weights: naturalWeights(app) });
  const ranked = [...boostAnswers(text, hits.slice(0, RERANK_WINDOW)), ...hits.slice(RERANK_WINDOW)];
  return ranked.slice(offset, offset + k);
}

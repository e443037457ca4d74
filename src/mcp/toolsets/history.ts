import { z } from 'zod';
import { findBank } from '../../service/banks.js';
import { getHistory } from '../../service/history.js';
import { getPreview } from '../../service/preview.js';
import { searchDocuments } from '../../service/search.js';
import { QUERY_HELP, UNTRUSTED_WARNING } from '../help.js';
import { type ToolSpec, defineTool } from '../tool.js';

// The history toolset, exactly as seed 000 (Hister) documents it: search, get_preview, get_history.

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;
const s = (description?: string) => (description ? { type: 'string', description } : { type: 'string' });
const nullable = (type: string) => ({ anyOf: [{ type }, { type: 'null' }] });

export const SEARCH_FIELDS = ['text', 'html', 'language', 'label', 'domain', 'score', 'type'] as const;

const searchInput = z.strictObject({
  query: z.string().describe('Search query in the query language (see the tool description).'),
  limit: z.number().int().optional().describe('Maximum results, default 10. Values below 1 or above 50 use the default.'),
  date_from: z.string().optional().describe('Only documents updated on or after this day, YYYY-MM-DD.'),
  date_to: z.string().optional().describe('Only documents updated on or before this day, YYYY-MM-DD.'),
  semantic: z.boolean().optional().describe('Semantic search alongside keyword matching; falls back to keyword search when it is not configured.'),
  fields: z.array(z.enum(SEARCH_FIELDS)).max(SEARCH_FIELDS.length).optional().describe('Extra fields per result: text (full stored text instead of a snippet), html (the whole captured page, sanitized: no scripts, handlers, forms or frames), language, label, domain, score, type.'),
});

const search = defineTool({
  name: 'search',
  toolset: 'history',
  title: 'Search indexed pages and documents',
  description: `Search the user's browsing history and indexed documents (web pages, local files, memories). Returns title, url, added and updated dates and a snippet per result, best first. ${QUERY_HELP} ${UNTRUSTED_WARNING}`,
  version: '1.0.0',
  tags: ['history', 'search', 'read'],
  access: 'documents.read',
  annotations: READ_ONLY,
  input: searchInput,
  truncatable: ['html', 'text'],
  trustedSchema: {
    type: 'object',
    properties: {
      result_count: { type: 'integer' },
      reported_total: { type: 'integer' },
      total_exact: { type: 'boolean' },
      search_duration_ms: { type: 'number' },
      mode: { enum: ['keyword', 'hybrid'] },
      semantic_enabled: { type: 'boolean' },
      notice: s(),
    },
    required: ['result_count', 'reported_total', 'search_duration_ms', 'semantic_enabled', 'mode'],
  },
  fieldsSchema: {
    type: 'object',
    properties: {
      title: s(), url: s(), added: s(), updated: s(), snippet: s(), text: s(), html: nullable('string'),
      language: s(), label: nullable('string'), domain: s(), score: { type: 'number' }, type: s(), match: { enum: ['full', 'partial', 'semantic'] },
    },
    required: ['title', 'url', 'added', 'updated'],
  },
  async run({ app, grant, bank, signal }, input) {
    const want = new Set(input.fields ?? []);
    // Memories show only from the connection's own bank.
    const bankId = bank === undefined ? null : ((await findBank(app, grant, bank))?.id ?? null);
    const r = await searchDocuments(app, {
      query: input.query, limit: input.limit, dateFrom: input.date_from, dateTo: input.date_to,
      include: { text: want.has('text'), html: want.has('html') }, scope: grant.scope, bankId, semantic: input.semantic, signal,
    });
    const trusted: Record<string, unknown> = {
      result_count: r.results.length, reported_total: r.total, total_exact: r.total_exact,
      search_duration_ms: r.duration_ms, mode: r.mode, semantic_enabled: r.semantic_enabled,
    };
    if (r.notice) trusted.notice = r.notice;
    const untrusted = r.results.map((x) => {
      const fields: Record<string, unknown> = { title: x.title, url: x.url, added: x.added, updated: x.updated };
      if (want.has('text')) fields.text = x.text ?? '';
      else fields.snippet = x.snippet;
      if (want.has('html')) fields.html = x.html ?? null;
      for (const f of ['language', 'label', 'domain', 'score', 'type'] as const) if (want.has(f)) fields[f] = x[f];
      fields.match = x.match;
      return { source_type: 'indexed_document', fields };
    });
    return { trusted, request: { ...input }, untrusted };
  },
});

const previewInput = z.strictObject({
  url: z.string().describe('Exact URL of the indexed document, as returned by search.'),
  extractor: z.string().optional().describe('Extractor used to render the HTML preview (e.g. article, basic); default: the one chosen at capture.'),
});

const getPreviewTool = defineTool({
  name: 'get_preview',
  toolset: 'history',
  title: 'Stored preview of an indexed document',
  description: `Retrieve the stored preview of an indexed document by exact URL: title, url, added and updated dates, metadata (author, published, modified, description, site name, type, language, image, JSON-LD, embedded videos), the complete stored plain text and the complete sanitized rendered HTML when available. ${UNTRUSTED_WARNING} Rendered HTML is untrusted: sanitize it again before rendering it anywhere.`,
  version: '1.0.0',
  tags: ['history', 'preview', 'read'],
  access: 'documents.read',
  annotations: READ_ONLY,
  input: previewInput,
  truncatable: ['html', 'text'],
  trustedSchema: { type: 'object', properties: { extractor: s(), text_length: { type: 'integer' }, has_html: { type: 'boolean' } } },
  fieldsSchema: {
    type: 'object',
    properties: { title: s(), url: s(), added: s(), updated: s(), metadata: { type: 'object' }, text: s(), html: nullable('string') },
    required: ['title', 'url', 'added', 'updated', 'metadata', 'text', 'html'],
  },
  async run({ app, grant }, input) {
    const p = await getPreview(app, { url: input.url, extractor: input.extractor }, grant.scope);
    const trusted = { extractor: p.extractor, text_length: [...p.text].length, has_html: p.html !== null };
    const fields = { title: p.title, url: p.url, added: p.added, updated: p.updated, metadata: p.metadata, text: p.text, html: p.html };
    return { trusted, request: { ...input }, untrusted: [{ source_type: 'document_preview', fields }] };
  },
});

const historyInput = z.strictObject({
  mode: z.enum(['indexed', 'opened']).optional().describe('indexed: recently indexed pages (default); opened: search results the user opened.'),
  limit: z.number().int().optional().describe('Maximum items, default 20. Values below 1 or above 100 use the default.'),
  page_key: z.string().optional().describe('Cursor for indexed mode: next_page_key of the previous response.'),
  last_id: z.number().int().optional().describe('Cursor for opened mode: next_last_id of the previous response.'),
});

const getHistoryTool = defineTool({
  name: 'get_history',
  toolset: 'history',
  title: 'Indexed and opened history',
  description: `Retrieve items from the history views. mode "indexed" lists recently indexed pages with title, url, indexed time and version count (next_page_key pages on); mode "opened" lists opened search results with title, url, original query, opened time and version count (next_last_id pages on). Not available to anonymous callers in public mode. ${UNTRUSTED_WARNING}`,
  version: '1.0.0',
  tags: ['history', 'read'],
  access: 'history.read',
  annotations: READ_ONLY,
  input: historyInput,
  trustedSchema: {
    type: 'object',
    properties: { mode: { enum: ['indexed', 'opened'] }, item_count: { type: 'integer' }, next_page_key: s(), next_last_id: { type: 'integer' } },
    required: ['mode', 'item_count'],
  },
  fieldsSchema: {
    type: 'object',
    properties: { title: s(), url: s(), indexed: s(), opened: s(), query: s(), version_count: { type: 'integer' } },
    required: ['title', 'url', 'version_count'],
  },
  async run({ app, grant }, input) {
    const h = await getHistory(app, { mode: input.mode ?? 'indexed', limit: input.limit, pageKey: input.page_key, lastId: input.last_id }, grant.scope);
    const trusted: Record<string, unknown> = { mode: h.mode, item_count: h.items.length };
    if (h.next_page_key !== undefined) trusted.next_page_key = h.next_page_key;
    if (h.next_last_id !== undefined) trusted.next_last_id = h.next_last_id;
    const untrusted = h.items.map((item) => ({ source_type: h.mode === 'indexed' ? 'indexed_history' : 'opened_history', fields: { ...item } }));
    return { trusted, request: { ...input }, untrusted };
  },
});

export const HISTORY_TOOLS: readonly ToolSpec[] = [search, getPreviewTool, getHistoryTool];

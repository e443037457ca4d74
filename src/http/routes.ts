import { z } from 'zod';
import type { App } from '../app.js';
import type { TroveConfig } from '../config/schema.js';
import { TroveError } from '../errors.js';
import { runBatch } from '../service/batch.js';
import { addContent, deleteDocument, showDocument } from '../service/documents.js';
import { getHistory, recordOpened } from '../service/history.js';
import { getPreview } from '../service/preview.js';
import { searchDocuments } from '../service/search.js';
import { getStatus } from '../service/status.js';
import type { ToolRegistry } from '../mcp/registry.js';
import { getToolEntry, listToolEntries } from '../mcp/tool-entries.js';
import { batchBody, batchItem, contentInput, documentBody } from './document-input.js';
import { BANK_ROUTES } from './routes-banks.js';
import { type Action, type Grant, principalLabel } from '../service/access.js';
import { regenerateToken } from '../service/users.js';
import { validate } from './validate.js';
import { CATALOG_ROUTES } from './routes-catalog.js';

/** `public`: no caller needed (liveness); otherwise the action the one authorization function decides on. */
export type Access = 'public' | Action;

export interface RouteContext {
  app: App;
  params: Record<string, string>;
  query: Record<string, string>;
  body: unknown;
  /** The MCP tool registry, built once per server. */
  tools: ToolRegistry;
  /** What the caller may see and where its writes go (service/access.ts); the owner's grant on public routes. */
  grant: Grant;
  /** Aborted when the request's deadline (server.request_timeout_ms) passes; work may stop early. */
  signal: AbortSignal;
}

export interface RouteResult {
  status: number;
  body: unknown;
}

export interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  /** Segments starting with ':' capture one decoded path segment. */
  path: string;
  access: Access;
  summary: string;
  /** The route takes a JSON body. */
  json?: boolean;
  /** Body limit of a JSON route; default server.max_body_bytes. */
  maxBodyBytes?: (config: TroveConfig) => number;
  handle(ctx: RouteContext): Promise<RouteResult>;
}

const searchQuery = z.strictObject({
  q: z.string(),
  limit: z.string().regex(/^-?\d+$/, 'must be a whole number').optional(),
  date_from: z.string().optional(),
  date_to: z.string().optional(),
  semantic: z.enum(['true', 'false', '1', '0']).optional(),
});

const noQuery = z.strictObject({});

const wholeNumber = z.string().regex(/^-?\d{1,16}$/, 'must be a whole number');

const historyQuery = z.strictObject({
  mode: z.enum(['indexed', 'opened']).optional(),
  limit: wholeNumber.optional(),
  page_key: z.string().max(256).optional(),
  last_id: wholeNumber.optional(),
});

const previewQuery = z.strictObject({
  url: z.string().min(1).max(8192),
  extractor: z.string().max(64).optional(),
});

const openedBody = z.strictObject({
  url: z.string().min(1).max(8192),
  title: z.string().max(4096).optional(),
  query: z.string().max(4096).optional(),
});

const number = (v: string | undefined) => (v === undefined ? undefined : Number(v));

/** The one table of HTTP routes: registration, access rules and docs come from here. */
export const ROUTES: Route[] = [
  {
    method: 'GET',
    path: '/healthz',
    access: 'public',
    summary: 'Liveness: 200 with {"ok":true} while the server runs.',
    handle: async () => ({ status: 200, body: { ok: true } }),
  },
  {
    method: 'GET',
    path: '/api/status',
    access: 'admin',
    summary: 'Counts, revision, store path and size.',
    handle: async ({ app, query }) => {
      validate(noQuery, query, 'query parameter');
      return { status: 200, body: await getStatus(app) };
    },
  },
  {
    method: 'GET',
    path: '/api/search',
    access: 'documents.read',
    summary: 'Keyword search: q (query language), limit 1..50, date_from/date_to YYYY-MM-DD on updated; semantic=true ranks by meaning too (hybrid, needs [semantic]).',
    handle: async ({ app, query, grant, signal }) => {
      const p = validate(searchQuery, query, 'query parameter');
      const semantic = p.semantic === 'true' || p.semantic === '1';
      const body = await searchDocuments(app, { query: p.q, limit: p.limit === undefined ? undefined : Number(p.limit), dateFrom: p.date_from, dateTo: p.date_to, scope: grant.scope, semantic, signal });
      return { status: 200, body };
    },
  },
  {
    method: 'POST',
    path: '/api/documents',
    access: 'documents.write',
    json: true,
    summary: 'Add a page or note, e.g. a browser extension capture: {url, title?, html | text, favicon?, label?}; 201 when new, 200 when it existed.',
    handle: async ({ app, body, grant }) => {
      const result = await addContent(app, { ...contentInput(validate(documentBody, body, 'field'), 'api'), ownerId: grant.writeOwner });
      return { status: result.status === 'added' ? 201 : 200, body: result };
    },
  },
  {
    method: 'POST',
    path: '/api/batch',
    access: 'documents.write',
    json: true,
    maxBodyBytes: (config) => config.server.max_batch_bytes,
    summary: 'Up to 100 operations, in order: {operations: [{op: "add", ...POST /api/documents fields} | {op: "delete", id}]}; one {ok, ...} result each.',
    handle: async ({ app, body, grant }) => {
      const items = validate(batchBody, body, 'field').operations.map((op) => batchItem(op, 'api'));
      return { status: 200, body: { results: await runBatch(app, items, grant) } };
    },
  },
  {
    method: 'GET',
    path: '/api/preview',
    access: 'documents.read',
    summary: 'Stored preview of the document with exactly this url: title, times, metadata, complete text and sanitized HTML; extractor re-renders the captured HTML.',
    handle: async ({ app, query, grant }) => {
      const p = validate(previewQuery, query, 'query parameter');
      return { status: 200, body: await getPreview(app, { url: p.url, extractor: p.extractor }, grant.scope) };
    },
  },
  {
    method: 'GET',
    path: '/api/history',
    access: 'history.read',
    summary: 'History: mode=indexed (default; page with page_key) or mode=opened (page with last_id); limit 1..100, default 20.',
    handle: async ({ app, query, grant }) => {
      const p = validate(historyQuery, query, 'query parameter');
      const body = await getHistory(app, { mode: p.mode, limit: number(p.limit), pageKey: p.page_key, lastId: number(p.last_id) }, grant.scope);
      return { status: 200, body };
    },
  },
  {
    method: 'POST',
    path: '/api/history/opened',
    access: 'documents.write',
    json: true,
    summary: 'Record a search result the user opened: {url, title?, query?} -> 201 {id, opened}.',
    handle: async ({ app, body, grant }) => {
      const b = validate(openedBody, body, 'field');
      return { status: 201, body: await recordOpened(app, { url: b.url, title: b.title, query: b.query }, grant.writeOwner) };
    },
  },
  {
    method: 'GET',
    path: '/api/tools',
    access: 'meta.read',
    summary: 'The tool registry: every MCP tool with tool_id, route, version, input/output schemas, tags, enabled state and health.',
    handle: async ({ app, tools, query }) => {
      validate(noQuery, query, 'query parameter');
      return { status: 200, body: { tools: listToolEntries(tools, app.config) } };
    },
  },
  {
    method: 'GET',
    path: '/api/tools/:tool_id',
    access: 'meta.read',
    summary: 'One tool registry entry by its exact tool_id (the MCP tool name, e.g. search).',
    handle: async ({ app, tools, params, query }) => {
      validate(noQuery, query, 'query parameter');
      return { status: 200, body: getToolEntry(tools, app.config, params.tool_id!) };
    },
  },
  {
    method: 'DELETE',
    path: '/api/documents/:id',
    access: 'documents.write',
    summary: 'Delete one document (by id or exact url, percent-encoded) with all its versions; a user deletes only their own.',
    handle: async ({ app, params, query, grant }) => {
      validate(noQuery, query, 'query parameter');
      return { status: 200, body: await deleteDocument(app, params.id!, grant.scope) };
    },
  },
  {
    method: 'GET',
    path: '/api/documents/:id',
    access: 'documents.read',
    summary: 'One document by id (or exact url, percent-encoded): metadata, versions and text.',
    handle: async ({ app, params, query, grant }) => {
      validate(noQuery, query, 'query parameter');
      return { status: 200, body: await showDocument(app, params.id!, grant.scope) };
    },
  },
  {
    method: 'POST',
    path: '/api/profile/token',
    access: 'profile.token',
    json: true,
    summary: "A user's new personal token, shown once: {} -> {user, token}; the old token stops working at once.",
    handle: async ({ app, body, grant }) => {
      validate(noQuery, body ?? {}, 'field');
      const name = grant.principal.kind === 'user' ? grant.principal.name : '';
      return { status: 200, body: await regenerateToken(app, name, principalLabel(grant.principal)) };
    },
  },
  ...BANK_ROUTES,
  ...CATALOG_ROUTES,
];

interface Compiled {
  route: Route;
  segments: string[];
}

/** Matches requests to routes; refuses two routes with the same method and shape. */
export class Router {
  private readonly compiled: Compiled[] = [];

  constructor(routes: Route[]) {
    const seen = new Set<string>();
    for (const route of routes) {
      const segments = route.path.split('/').filter(Boolean);
      const shape = `${route.method} /${segments.map((s) => (s.startsWith(':') ? ':' : s)).join('/')}`;
      if (seen.has(shape)) throw new Error(`duplicate route ${shape}`);
      seen.add(shape);
      this.compiled.push({ route, segments });
    }
  }

  /** The route and its params; NOT_FOUND or METHOD_NOT_ALLOWED otherwise. */
  match(method: string, pathname: string): { route: Route; params: Record<string, string> } {
    const parts = pathname.split('/').filter(Boolean);
    const allow: string[] = [];
    for (const c of this.compiled) {
      const params = matchSegments(c.segments, parts);
      if (!params) continue;
      allow.push(c.route.method);
      if (c.route.method === method || (method === 'HEAD' && c.route.method === 'GET')) return { route: c.route, params };
    }
    if (allow.length) throw new TroveError('METHOD_NOT_ALLOWED', `${method} is not allowed on ${pathname}`, { allow });
    throw new TroveError('NOT_FOUND', `no route ${pathname}`);
  }

  /** Like match, but hands back the failure instead of throwing it. */
  tryMatch(method: string, pathname: string): { route: Route; params: Record<string, string>; error?: undefined } | { route?: undefined; error: unknown } {
    try {
      return this.match(method, pathname);
    } catch (error) {
      return { error };
    }
  }
}

function matchSegments(pattern: string[], parts: string[]): Record<string, string> | undefined {
  if (pattern.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i]!;
    if (p.startsWith(':')) {
      try {
        params[p.slice(1)] = decodeURIComponent(parts[i]!);
      } catch {
        throw new TroveError('INVALID_ARGUMENT', 'malformed percent-encoding in path');
      }
    } else if (p !== parts[i]) return undefined;
  }
  return params;
}

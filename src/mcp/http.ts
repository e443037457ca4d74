import type { IncomingMessage, ServerResponse } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { type AuthInfo, type McpHandlerRequestOptions, type McpServerFactory, WebStandardStreamableHTTPServerTransport, createMcpHandler, isLegacyRequest } from '@modelcontextprotocol/server';
import type { App } from '../app.js';
import { ANONYMOUS, type Principal } from '../service/access.js';
import type { ToolRegistry } from './registry.js';
import { createServerFactory } from './server.js';
import { createToolRegistry } from './tools.js';

/** Serves one MCP request for `principal`, its memory tools on `bank` (default mcp.default_bank). */
export type McpNodeHandler = (req: IncomingMessage, res: ServerResponse, principal: Principal, bank?: string) => Promise<void>;

function rpcError(status: number, code: number, message: string, headers: Record<string, string> = {}): Response {
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null });
  return new Response(body, { status, headers: { 'content-type': 'application/json', ...headers } });
}

/** 2024-11-05..2025-11-25 traffic: a fresh server per request, answered with one JSON body (as Hister's clients expect). */
async function serveLegacy(factory: McpServerFactory, request: Request, parsedBody: unknown, options?: McpHandlerRequestOptions): Promise<Response> {
  const server = await factory({ era: 'legacy', authInfo: options?.authInfo, requestInfo: request });
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request, { parsedBody, authInfo: options?.authInfo });
  } finally {
    void server.close();
  }
}

/** Streamable HTTP for both eras: 2026-07-28 per-request envelopes and stateless legacy JSON. */
export function createMcpHttp(app: App, registry: ToolRegistry = createToolRegistry(app.config)): { handle: McpNodeHandler; close(): Promise<void> } {
  // Fail closed: the HTTP layer names every caller in req.auth; a request without one is anonymous.
  const factory = createServerFactory({ app, registry, defaultPrincipal: ANONYMOUS });
  const maxRequestBodySize = app.config.server.max_body_bytes;
  const onerror = (err: Error) => app.log.debug('mcp http', { error: err.message });
  const modern = createMcpHandler(factory, { legacy: 'reject', maxRequestBodySize, onerror });
  const fetch = async (request: Request, options?: McpHandlerRequestOptions): Promise<Response> => {
    // Stateless on every revision: no session streams to GET or sessions to DELETE.
    if (request.method !== 'POST') return rpcError(405, -32000, 'Method not allowed.', { allow: 'POST' });
    let parsedBody: unknown;
    try {
      parsedBody = JSON.parse(await request.text());
    } catch {
      return rpcError(400, -32700, 'Parse error: Invalid JSON');
    }
    if (await isLegacyRequest(request, parsedBody)) return serveLegacy(factory, request, parsedBody, options);
    return modern.fetch(request, { ...options, parsedBody });
  };
  const node = toNodeHandler({ fetch }, { maxRequestBodySize, onerror });
  return {
    handle: (req, res, principal, bank = app.config.mcp.default_bank) => {
      (req as IncomingMessage & { auth?: AuthInfo }).auth = { token: '', clientId: 'trove', scopes: [], extra: { principal, bank } };
      // curl and Hister's examples send no Accept (or */*); both eras need JSON and SSE named.
      const accept = req.headers.accept;
      if (!accept || accept.trim() === '*/*') req.headers.accept = 'application/json, text/event-stream';
      return node(req, res);
    },
    close: () => modern.close(),
  };
}

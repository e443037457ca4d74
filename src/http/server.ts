import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { App } from '../app.js';
import { TroveError, toPublicError } from '../errors.js';
import type { McpNodeHandler } from '../mcp/http.js';
import { createMcpHttp } from '../mcp/http.js';
import type { ToolRegistry } from '../mcp/registry.js';
import { createToolRegistry } from '../mcp/tools.js';
import { OWNER, type Principal, authMode, authorize, principalLabel } from '../service/access.js';
import { resolvePrincipal } from '../service/principal.js';
import { isLoopbackHost, requestToken } from './auth.js';
import { basePath, baseOrigin, stripBase } from './base-path.js';
import { readJsonBody } from './body.js';
import { ConcurrencyGate, type RequestTimeouts, applyServerTimeouts, armTimeouts, connectionsCheckingInterval, requestTimeouts } from './limits.js';
import { bankErrorBody, mcpPathBank, requestBank } from './mcp-bank.js';
import { OriginPolicy } from './origins.js';
import { answerClientError, failureText, send, sendError } from './reply.js';
import { ROUTES, type Route, Router } from './routes.js';

export interface ListenOptions {
  host: string;
  port: number;
}

export interface RunningServer {
  /** Where the routes are: the listen address and server.base_url's path. */
  url: string;
  /** The listen address alone (`http://127.0.0.1:4433`). */
  origin: string;
  server: Server;
  close(): Promise<void>;
}

/** host:port -> parts; IPv6 hosts in brackets. */
export function parseAddress(address: string): ListenOptions {
  const m = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(address.trim());
  const port = m ? Number(m[2]) : NaN;
  if (!m || port > 65535) throw new TroveError('INVALID_ARGUMENT', `address must be host:port, got ${JSON.stringify(address)}`, { field: 'address' });
  return { host: m[1]!.replace(/^\[|\]$/g, ''), port };
}

export { failureText } from './reply.js';

const HEALTH_PATH = '/healthz';

/** One request on its way through the pipeline. */
interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  /** The path inside server.base_url; undefined when the request lies outside it. */
  path: string | undefined;
  searchParams: URLSearchParams;
  /** Aborted at the deadline; handed to the route. */
  signal: AbortSignal;
  /** A timeout has answered: whatever the abandoned work does later is not news. */
  timedOut: boolean;
}

export interface HandlerParts {
  router: Router;
  origins: OriginPolicy;
  gate: ConcurrencyGate;
  /** server.base_url's path ('' at the root). */
  base: string;
  mcp?: McpNodeHandler | undefined;
  tools: ToolRegistry;
}

function openExchange(req: IncomingMessage, res: ServerResponse, base: string, timeouts: RequestTimeouts): Exchange {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const path = stripBase(url.pathname, base);
  const controller = new AbortController();
  const ex: Exchange = { req, res, path, searchParams: url.searchParams, signal: controller.signal, timedOut: false };
  armTimeouts(req, res, timeouts, controller, (err) => answerTimeout(ex, err));
  // Everything past this point (MCP included) sees the path inside the base.
  if (path !== undefined && base) req.url = `${path}${url.search}`;
  return ex;
}

/** A timer fired: answer if nothing was written yet; a stalled body loses its connection either way. */
function answerTimeout(ex: Exchange, err: TroveError): void {
  if (ex.res.headersSent) {
    if (err.code === 'REQUEST_TIMEOUT') ex.req.socket?.destroy();
    return;
  }
  ex.timedOut = true;
  sendError(ex.res, err);
}

/**
 * Who calls: 401 unless the request carries the configured token (unknown routes too, so a caller learns
 * nothing of what exists); with it, or with no token configured, the instance's owner.
 */
async function authenticate(app: App, ex: Exchange, isPublic: boolean): Promise<Principal> {
  if (isPublic) return OWNER;
  return resolvePrincipal(app, requestToken(ex.req));
}

function queryOf(params: URLSearchParams): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [k, v] of params) {
    if (k in query) throw new TroveError('INVALID_ARGUMENT', `query parameter ${k} given twice`, { field: k });
    query[k] = v;
  }
  return query;
}

async function runRoute(app: App, ex: Exchange, route: Route, params: Record<string, string>, tools: ToolRegistry, principal: Principal): Promise<void> {
  const grant = authorize(principal, route.access === 'public' ? 'meta.read' : route.access);
  const query = queryOf(ex.searchParams);
  const body = route.json ? await readJsonBody(ex.req, route.maxBodyBytes?.(app.config) ?? app.config.server.max_body_bytes) : undefined;
  const result = await route.handle({ app, params, query, body, tools, grant, signal: ex.signal });
  if (route.method !== 'GET') app.log.info('audit', { action: `${route.method} ${route.path}`, principal: principalLabel(principal), source: 'api', status: result.status });
  if (!ex.timedOut) send(ex.res, result.status, result.body);
}

/** MCP for the request's bank; a malformed bank name is a JSON-RPC error (HTTP 400) before MCP sees the request. */
async function serveMcp(app: App, ex: Exchange, mcp: McpNodeHandler, principal: Principal, segment: string | undefined): Promise<void> {
  let bank: string;
  try {
    bank = requestBank(ex.req, segment, app.config.mcp.default_bank);
  } catch (err) {
    send(ex.res, 400, bankErrorBody(err as TroveError));
    return;
  }
  await mcp(ex.req, ex.res, principal, bank);
}

function failed(app: App, ex: Exchange, err: unknown): void {
  const path = ex.req.url?.split('?')[0];
  if (ex.timedOut) {
    app.log.debug('work ended after its request timed out', { path, error: err instanceof Error ? err.message : String(err) });
    return;
  }
  if (ex.res.headersSent) {
    app.log.error('response failed after headers', { path, error: failureText(err) });
    ex.res.end();
    return;
  }
  if (toPublicError(err).code === 'INTERNAL') app.log.error('request failed', { method: ex.req.method, path, error: failureText(err) });
  sendError(ex.res, err);
}

/**
 * The request pipeline, in order: base path -> Host/Origin (403) -> concurrency slot (429; /healthz
 * exempt) -> token (401) -> route or MCP (404/405) -> body (413/415/408) -> handler. Deadline and
 * body timers run from the start (408/503).
 */
export function createHandler(app: App, parts: HandlerParts) {
  const timeouts = requestTimeouts(app.config);
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const ex = openExchange(req, res, parts.base, timeouts);
    try {
      parts.origins.check(req);
      if (ex.path !== HEALTH_PATH) parts.gate.enter(res);
      // /mcp, or a bank's /mcp/{bank}/ (seed 003).
      const mcpPath = parts.mcp !== undefined && ex.path !== undefined ? mcpPathBank(ex.path) : undefined;
      if (mcpPath) return await serveMcp(app, ex, parts.mcp!, await authenticate(app, ex, false), mcpPath.segment);
      const match = ex.path === undefined ? { error: new TroveError('NOT_FOUND', 'no such route') } : parts.router.tryMatch(req.method ?? 'GET', ex.path);
      const principal = await authenticate(app, ex, match.route?.access === 'public');
      if (!match.route) throw match.error;
      await runRoute(app, ex, match.route, match.params, parts.tools, principal);
    } catch (err) {
      failed(app, ex, err);
    }
  };
}

export interface ServerOptions {
  /** The MCP tool registry POST /mcp and /api/tools share; default: built once from the config. */
  registry?: ToolRegistry;
}

/** The origins accepted besides the listen address: server.public_origin and base_url's origin. */
function publicOrigins(app: App): string[] {
  const fromBase = baseOrigin(app.config.server.base_url);
  return [...app.config.server.public_origin, ...(fromBase ? [fromBase] : [])];
}

/** Starts the HTTP API; refuses to listen beyond loopback without an access token. */
export async function startServer(app: App, listen: ListenOptions, options: ServerOptions = {}): Promise<RunningServer> {
  if (!isLoopbackHost(listen.host) && authMode(app.config) === 'open') {
    throw new TroveError('INVALID_CONFIG', `refusing to listen on ${listen.host} without a token: set app.access_token (TROVE_APP_ACCESS_TOKEN), or app.user_handling with users' tokens, or bind 127.0.0.1`, { key: 'app.access_token' });
  }
  let actualPort = listen.port;
  const tools = options.registry ?? createToolRegistry(app.config);
  const mcp = app.config.mcp.enabled ? createMcpHttp(app, tools) : undefined;
  const base = basePath(app.config.server.base_url);
  const parts: HandlerParts = {
    router: new Router(ROUTES),
    origins: new OriginPolicy({ bindHost: listen.host, publicOrigins: publicOrigins(app), port: () => actualPort }),
    gate: new ConcurrencyGate(app.config.server.max_concurrent),
    base,
    mcp: mcp?.handle,
    tools,
  };
  const server = createServer({ connectionsCheckingInterval: connectionsCheckingInterval(app.config) }, createHandler(app, parts));
  applyServerTimeouts(server, app.config);
  server.on('clientError', answerClientError);
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => reject(new TroveError('LISTEN_FAILED', `cannot listen on ${listen.host}:${listen.port} (${err.code ?? 'error'})`)));
    server.listen(listen.port, listen.host, () => resolve());
  });
  actualPort = (server.address() as AddressInfo).port;
  const host = listen.host.includes(':') ? `[${listen.host}]` : listen.host;
  const origin = `http://${host}:${actualPort}`;
  return {
    url: `${origin}${base}`,
    origin,
    server,
    close: async () => {
      await mcp?.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { App } from '../app.js';
import { TroveError, isTroveError, toPublicError } from '../errors.js';
import type { McpNodeHandler } from '../mcp/http.js';
import { createMcpHttp } from '../mcp/http.js';
import type { ToolRegistry } from '../mcp/registry.js';
import { createToolRegistry } from '../mcp/tools.js';
import { isLoopbackHost, requestToken, tokensEqual } from './auth.js';
import { readJsonBody } from './body.js';
import { ROUTES, Router } from './routes.js';

export interface ListenOptions {
  host: string;
  port: number;
}

export interface RunningServer {
  url: string;
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

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', ...headers });
  res.end(text);
}

/** Host must name this server (DNS-rebinding guard); a present Origin must be this server's. */
function checkOrigin(req: IncomingMessage, bound: ListenOptions, port: number): void {
  const host = (req.headers.host ?? '').toLowerCase();
  const hostname = host.replace(/:\d+$/, '');
  const allowedHost = isLoopbackHost(bound.host) ? isLoopbackHost(hostname) : true;
  if (!allowedHost) throw new TroveError('FORBIDDEN', 'Host header does not name this server');
  const origin = req.headers.origin;
  if (origin === undefined) return;
  let o: URL | undefined;
  try {
    o = new URL(origin);
  } catch {
    o = undefined;
  }
  const sameHost = o !== undefined && o.host.toLowerCase() === host;
  const loopback = o !== undefined && isLoopbackHost(o.hostname) && isLoopbackHost(hostname) && Number(o.port || 80) === port;
  if (!sameHost && !loopback) throw new TroveError('FORBIDDEN', 'Origin not allowed');
}

/** Stack and cause chain for the log: a mapped store failure keeps the SQLite error only as its cause. */
export function failureText(err: unknown): string {
  const e = err as Error | undefined;
  const text = String(e?.stack ?? err);
  return e?.cause === undefined ? text : `${text}\ncaused by: ${failureText(e.cause)}`;
}

const MCP_PATH = '/mcp';

export function createHandler(app: App, router: Router, bound: ListenOptions, port: () => number, mcp?: McpNodeHandler, tools: ToolRegistry = createToolRegistry(app.config)) {
  const token = app.config.app.access_token;
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    try {
      const url = new URL(req.url ?? '/', 'http://localhost');
      checkOrigin(req, bound, port());
      // Without a valid token, unknown routes answer 401 too: a caller learns nothing of what exists.
      const isMcp = mcp !== undefined && url.pathname === MCP_PATH;
      const match = router.tryMatch(req.method ?? 'GET', url.pathname);
      if (token && (isMcp || match.route?.access !== 'public')) {
        const given = requestToken(req);
        if (!given || !tokensEqual(given, token)) throw new TroveError('UNAUTHORIZED', 'missing or invalid access token');
      }
      if (isMcp) return await mcp(req, res);
      if (!match.route) throw match.error;
      const { route, params } = match;
      const query: Record<string, string> = {};
      for (const [k, v] of url.searchParams) {
        if (k in query) throw new TroveError('INVALID_ARGUMENT', `query parameter ${k} given twice`, { field: k });
        query[k] = v;
      }
      const body = route.json ? await readJsonBody(req, route.maxBodyBytes?.(app.config) ?? app.config.server.max_body_bytes) : undefined;
      const result = await route.handle({ app, params, query, body, tools });
      send(res, result.status, result.body);
    } catch (err) {
      if (res.headersSent) {
        app.log.error('response failed after headers', { path: req.url?.split('?')[0], error: failureText(err) });
        res.end();
        return;
      }
      const pub = toPublicError(err);
      if (pub.code === 'INTERNAL') app.log.error('request failed', { method: req.method, path: req.url?.split('?')[0], error: failureText(err) });
      const status = isTroveError(err) ? err.spec.status : 500;
      const headers: Record<string, string> = pub.code === 'UNAUTHORIZED' ? { 'www-authenticate': 'Bearer realm="trove"' } : {};
      if (pub.code === 'PAYLOAD_TOO_LARGE') headers.connection = 'close';
      if (pub.code === 'METHOD_NOT_ALLOWED') headers.allow = (pub.details?.allow as string[]).join(', ');
      send(res, status, { error: { code: pub.code, message: pub.message, ...(pub.details ? { details: pub.details } : {}) } }, headers);
    }
  };
}

export interface ServerOptions {
  /** The MCP tool registry POST /mcp and /api/tools share; default: built once from the config. */
  registry?: ToolRegistry;
}

/** Starts the HTTP API; refuses to listen beyond loopback without an access token. */
export async function startServer(app: App, listen: ListenOptions, options: ServerOptions = {}): Promise<RunningServer> {
  if (!isLoopbackHost(listen.host) && !app.config.app.access_token) {
    throw new TroveError('INVALID_CONFIG', `refusing to listen on ${listen.host} without a token: set app.access_token (TROVE_APP_ACCESS_TOKEN) or bind 127.0.0.1`, { key: 'app.access_token' });
  }
  const router = new Router(ROUTES);
  let actualPort = listen.port;
  const tools = options.registry ?? createToolRegistry(app.config);
  const mcp = app.config.mcp.enabled ? createMcpHttp(app, tools) : undefined;
  const server = createServer(createHandler(app, router, listen, () => actualPort, mcp?.handle, tools));
  server.headersTimeout = 20_000;
  server.requestTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => reject(new TroveError('LISTEN_FAILED', `cannot listen on ${listen.host}:${listen.port} (${err.code ?? 'error'})`)));
    server.listen(listen.port, listen.host, () => resolve());
  });
  actualPort = (server.address() as AddressInfo).port;
  const host = listen.host.includes(':') ? `[${listen.host}]` : listen.host;
  return {
    url: `http://${host}:${actualPort}`,
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

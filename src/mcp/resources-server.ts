import { ProtocolError, ProtocolErrorCode, ResourceNotFoundError, type Server } from '@modelcontextprotocol/server';
import type { App } from '../app.js';
import { ERROR_CODES, TroveError, toPublicError } from '../errors.js';
import { type Principal, authorize } from '../service/access.js';
import { pageBudget } from '../service/catalog.js';
import type { ResourceTable } from './resources.js';

// resources/templates/list, resources/list and resources/read over the resource table: every read is
// authorized for its caller, scoped like the tools, and bounded by mcp.max_result_bytes (text; blobs by their own cap).

export interface ResourceCall {
  principal: Principal;
  source: string;
  bank?: string | undefined;
  signal?: AbortSignal | undefined;
}

export interface ReadResult {
  contents: Array<Record<string, unknown>>;
}

/** One resources/read: the result, or a coded TroveError. */
export async function readResource(app: App, table: ResourceTable, uri: string, call: ResourceCall): Promise<ReadResult> {
  const { instanceId } = await app.store.instanceState();
  const { spec, match } = table.match(uri, instanceId);
  const grant = authorize(call.principal, spec.access);
  const body = await spec.read({ app, grant, source: call.source, instanceId, bank: call.bank, maxBytes: pageBudget(app), signal: call.signal }, match);
  const result: ReadResult = { contents: [{ uri, ...body }] };
  const max = app.config.mcp.max_result_bytes;
  // Binary artifacts (screenshots) carry their own bound, checked when they are made (4 MiB PNG).
  if (body.blob !== undefined) return result;
  if (Buffer.byteLength(JSON.stringify(result)) > max) throw new TroveError('RESULT_TOO_LARGE', `the resource is larger than the ${max}-byte bound; ask for a smaller page`, { max_bytes: max });
  return result;
}

/** A failed read as a JSON-RPC error: resource-not-found for NOT_FOUND, else the trove code in error.data. */
export function resourceError(app: App, uri: string, err: unknown): ProtocolError {
  const pub = toPublicError(err);
  if (pub.code === 'INTERNAL') app.log.error('resource read failed', { error: String((err as Error)?.stack ?? err) });
  if (pub.code === 'NOT_FOUND') return new ResourceNotFoundError(uri, pub.message);
  const data: Record<string, unknown> = { uri, code: pub.code, retryable: pub.retryable };
  if (pub.details !== undefined) data.details = pub.details;
  const rpc = ERROR_CODES[pub.code].user ? ProtocolErrorCode.InvalidParams : ProtocolErrorCode.InternalError;
  return new ProtocolError(rpc, `${pub.code}: ${pub.message}`, data);
}

/** What a handler knows of its request. */
export interface HandlerContext {
  mcpReq: { signal: AbortSignal; envelope?: unknown };
}

/** Serves the table on one request's server. */
export function serveResources(server: Server, app: App, table: ResourceTable, call: (ctx: HandlerContext) => ResourceCall): void {
  server.setRequestHandler('resources/templates/list', async () => ({ resourceTemplates: table.templates((await app.store.instanceState()).instanceId) }) as never);
  server.setRequestHandler('resources/list', async () => ({ resources: table.listed((await app.store.instanceState()).instanceId) }) as never);
  server.setRequestHandler('resources/read', async (request, ctx) => {
    const uri = request.params.uri;
    try {
      return (await readResource(app, table, uri, call(ctx))) as never;
    } catch (err) {
      throw resourceError(app, uri, err);
    }
  });
}

import type { IncomingMessage } from 'node:http';
import { TroveError } from '../errors.js';
import { isBankName } from '../service/banks.js';

// Bank selection for MCP over HTTP (seed 003): POST /mcp/{bank}/ (or /mcp/{bank}), else the X-Bank-Id
// header, else mcp.default_bank.

const MCP_PATH = /^\/mcp(?:\/([^/]+))?\/?$/;

/** For an MCP path (/mcp, /mcp/, /mcp/{bank}, /mcp/{bank}/): the bank segment as sent (maybe none); undefined for any other path. */
export function mcpPathBank(path: string): { segment: string | undefined } | undefined {
  const m = MCP_PATH.exec(path);
  return m ? { segment: m[1] } : undefined;
}

/** The request's bank; INVALID_ARGUMENT for a malformed one, wherever it came from. */
export function requestBank(req: IncomingMessage, segment: string | undefined, fallback: string): string {
  let name: string | undefined;
  if (segment !== undefined) {
    try {
      name = decodeURIComponent(segment);
    } catch {
      name = '';
    }
  } else {
    const header = req.headers['x-bank-id'];
    name = Array.isArray(header) ? header.join(',') : header?.trim();
  }
  name ??= fallback;
  if (!isBankName(name)) {
    throw new TroveError('INVALID_ARGUMENT', 'a bank name is 1 to 64 characters of A-Z, a-z, 0-9, ".", "_" and "-", and not "." or ".."', { field: 'bank' });
  }
  return name;
}

/** The JSON-RPC error body a bad bank gets (HTTP 400), before any MCP processing. */
export function bankErrorBody(err: TroveError): Record<string, unknown> {
  return { jsonrpc: '2.0', error: { code: -32602, message: err.message, data: { code: err.code, field: 'bank' } }, id: null };
}

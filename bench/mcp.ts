// MCP over HTTP: tool calls per second with 16 concurrent clients, `search` next to a no-op tool on the same server.
import { Worker } from 'node:worker_threads';
import { z } from 'zod';
import type { App } from '../src/app.js';
import { startServer } from '../src/http/server.js';
import { ToolRegistry } from '../src/mcp/registry.js';
import { type ToolSpec, defineTool } from '../src/mcp/tool.js';
import { allToolSpecs } from '../src/mcp/tools.js';

const CONCURRENCY = 16;
const MODERN = '2026-07-28';

/** Answers at once with an empty envelope: the cost of the protocol stack alone. */
const noop = defineTool({
  name: 'noop',
  toolset: 'history',
  title: 'No-op',
  description: 'Returns an empty result (benchmark baseline).',
  version: '1.0.0',
  tags: [],
  access: 'documents.read',
  annotations: { readOnlyHint: true },
  input: z.strictObject({ query: z.string().optional() }),
  trustedSchema: { type: 'object' },
  fieldsSchema: { type: 'object' },
  run: async () => ({ trusted: {}, request: {}, untrusted: [] }),
});

export interface McpRate {
  tool: string;
  era: 'legacy' | 'modern';
  calls_per_s: number;
  p50_ms: number;
  p99_ms: number;
  errors: number;
}

function body(era: 'legacy' | 'modern', tool: string, args: Record<string, unknown>, id: number): string {
  const meta = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };
  const params = era === 'modern' ? { name: tool, arguments: args, _meta: meta } : { name: tool, arguments: args };
  return JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params });
}

function headers(era: 'legacy' | 'modern', tool: string): Record<string, string> {
  const base = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  return era === 'modern' ? { ...base, 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': tool } : base;
}

function load(url: string, bodies: string[], hdrs: Record<string, string>, durationMs: number): Promise<{ calls: number; errors: number; elapsedMs: number; latencies: number[] }> {
  const worker = new Worker(new URL('./load-worker.mjs', import.meta.url), { workerData: { url, bodies, headers: hdrs, concurrency: CONCURRENCY, durationMs, warmupMs: 500 } });
  return new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}

const pct = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return Number((s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0).toFixed(2));
};

/** Calls/s for each tool and era; `argsFor(i)` varies the arguments (e.g. a different query per call). */
export async function runMcpBench(app: App, calls: Array<{ tool: string; args: (i: number) => Record<string, unknown> }>, quick: boolean, opts: { noop?: boolean } = {}): Promise<McpRate[]> {
  const specs: ToolSpec[] = [...allToolSpecs(), noop];
  const registry = new ToolRegistry(specs, ['history', 'memory']);
  const server = await startServer(app, { host: '127.0.0.1', port: 0 }, { registry });
  const url = `${server.url}/mcp`;
  const out: McpRate[] = [];
  try {
    for (const era of ['legacy', 'modern'] as const) {
      for (const c of [...(opts.noop === false ? [] : [{ tool: 'noop', args: () => ({}) }]), ...calls]) {
        const bodies = Array.from({ length: 200 }, (_, i) => body(era, c.tool, c.args(i), i + 1));
        const r = await load(url, bodies, headers(era, c.tool), quick ? 1200 : 5000);
        out.push({ tool: c.tool, era, calls_per_s: Math.round(r.calls / (r.elapsedMs / 1000)), p50_ms: pct(r.latencies, 0.5), p99_ms: pct(r.latencies, 0.99), errors: r.errors });
      }
    }
  } finally {
    await server.close();
  }
  return out;
}

export function mcpMarkdown(rates: McpRate[]): string {
  const lines = [`MCP over HTTP, ${CONCURRENCY} concurrent clients (load generator in its own thread):`, '', '| era | tool | calls/s | p50 ms | p99 ms | ratio to no-op | errors |', '|---|---|---:|---:|---:|---:|---:|'];
  for (const r of rates) {
    const base = rates.find((x) => x.era === r.era && x.tool === 'noop')!;
    lines.push(`| ${r.era} | ${r.tool} | ${r.calls_per_s} | ${r.p50_ms} | ${r.p99_ms} | ${(r.calls_per_s / base.calls_per_s).toFixed(2)} | ${r.errors} |`);
  }
  return lines.join('\n');
}

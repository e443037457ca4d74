import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

// The SDK's real client, for each protocol family trove serves.

export const MODERN = '2026-07-28';
export type Era = 'legacy' | 'modern';
export const ERAS: readonly Era[] = ['legacy', 'modern'];

/** tools/list of the default configuration, toolset by toolset (searxng_search only when SearXNG is enabled). */
export const DEFAULT_TOOLS = [
  'search', 'get_preview', 'get_history',
  'retain', 'recall', 'reflect',
  'memory.search', 'memory.recall', 'tree.read_chunk', 'tree.browse', 'tree.top_entities', 'tree.list_sources',
  'get_status', 'list_documents', 'get_document', 'read_text', 'read_source',
  'get_operation', 'cancel_operation', 'import_history', 'refresh_document', 'reindex', 'capture_screenshot', 'inspect_accessibility', 'inspect_dom',
];

function newClient(era: Era, name: string): Client {
  const mode = era === 'modern' ? { pin: MODERN } : 'legacy';
  return new Client({ name, version: '1.0.0' }, { versionNegotiation: { mode } });
}

export async function httpClient(url: string, era: Era, name = 'Test Client', headers: Record<string, string> = {}): Promise<Client> {
  const client = newClient(era, name);
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

export async function stdioClient(command: string, args: string[], env: Record<string, string>, era: Era, name = 'Test Client'): Promise<Client> {
  const client = newClient(era, name);
  await client.connect(new StdioClientTransport({ command, args, env, stderr: 'pipe' }));
  return client;
}

/** structuredContent of a tool call (the client has validated it against the advertised outputSchema). */
export async function call(client: Client, name: string, args: Record<string, unknown>): Promise<any> {
  const r = await client.callTool({ name, arguments: args });
  const text = (r.content as Array<{ type: string; text: string }>)[0]!.text;
  if (!r.isError) {
    if (!text.startsWith('SECURITY NOTICE: ')) throw new Error(`text block lacks the security notice: ${text.slice(0, 80)}`);
    const json = JSON.parse(text.slice(text.indexOf('\n{') + 1));
    if (JSON.stringify(json) !== JSON.stringify(r.structuredContent)) throw new Error('text block JSON differs from structuredContent');
  }
  return { ...(r.structuredContent as object), isError: r.isError === true };
}

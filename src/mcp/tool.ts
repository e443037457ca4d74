import { z } from 'zod';
import type { App } from '../app.js';
import type { Action, Grant } from '../service/access.js';

// One declarative description per MCP tool: the registry, tools/list, /api/tools and the docs read it.

export type Toolset = 'history' | 'memory' | 'tree' | 'catalog';
export const TOOLSETS: readonly Toolset[] = ['history', 'memory', 'tree', 'catalog'];

/** What a call of the tool does, for the one authorization function (service/access.ts). */
export type ToolAccess = Action;

export type JsonSchema = Record<string, unknown>;

export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** What a call knows about its caller and transport. */
export interface ToolContext {
  app: App;
  /** Provenance label for writes: `mcp:<client>` or `mcp` (seed 001). */
  source: string;
  /** What the caller may see and where its writes go. */
  grant: Grant;
  /** The connection's memory bank (seed 003): the /mcp/{bank}/ path, X-Bank-Id, else mcp.default_bank. */
  bank?: string | undefined;
  signal?: AbortSignal | undefined;
}

/** One record of values that came from a page, a file, a memory or a history entry. */
export interface UntrustedRecord {
  source_type: string;
  fields: Record<string, unknown>;
  /** Fields passed exactly as they are, not normalized (read_text, read_source: exact text under a SHA-256). */
  exact?: readonly string[];
}

export interface ToolOutput {
  trusted: Record<string, unknown>;
  /** Echo of the caller's arguments (trust: caller_supplied). */
  request: Record<string, unknown>;
  untrusted: UntrustedRecord[];
  /** Content blocks after the text block: a PNG inline, or a link to a resource holding it. */
  content?: ExtraContent[];
}

export type ExtraContent =
  | { type: 'image'; data: string; mimeType: string }
  | { type: 'resource_link'; uri: string; name: string; mimeType?: string; size?: number; description?: string };

export interface ToolSpec<I = unknown> {
  name: string;
  toolset: Toolset;
  title: string;
  description: string;
  version: string;
  tags: readonly string[];
  access: ToolAccess;
  annotations: ToolAnnotations;
  /** Strict object: unknown properties are rejected. */
  input: z.ZodType<I>;
  /** JSON Schema of `trusted` and of one record's `fields`, for the advertised outputSchema. */
  trustedSchema: JsonSchema;
  fieldsSchema: JsonSchema;
  /** Untrusted string fields the tool may shorten, longest first, to keep the envelope under its bound. */
  truncatable?: readonly string[];
  run(ctx: ToolContext, input: I): Promise<ToolOutput>;
}

/** Identity function that keeps the input type of `run` tied to the schema. */
export function defineTool<S extends z.ZodType>(spec: ToolSpec<z.output<S>> & { input: S }): ToolSpec<unknown> {
  return spec as unknown as ToolSpec<unknown>;
}

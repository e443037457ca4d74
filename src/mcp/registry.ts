import { z } from 'zod';
import { outputSchema } from './schemas.js';
import type { JsonSchema, ToolSpec, Toolset } from './tool.js';

/** A tool with its schemas computed once, ready for tools/list and the HTTP registry. */
export interface RegisteredTool {
  spec: ToolSpec;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  /** The tools/list entry. */
  listing: Record<string, unknown>;
}

/** Drops the safe-integer bounds zod puts on every integer: they say nothing and clutter tools/list. */
function dropSafeIntegerBounds(node: unknown): void {
  if (!node || typeof node !== 'object') return;
  const o = node as Record<string, unknown>;
  if (o.minimum === Number.MIN_SAFE_INTEGER) delete o.minimum;
  if (o.maximum === Number.MAX_SAFE_INTEGER) delete o.maximum;
  for (const v of Object.values(o)) dropSafeIntegerBounds(v);
}

function inputJsonSchema(spec: ToolSpec): JsonSchema {
  const schema = z.toJSONSchema(spec.input, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  delete schema.$schema;
  dropSafeIntegerBounds(schema);
  return schema;
}

function register(spec: ToolSpec): RegisteredTool {
  const input = inputJsonSchema(spec);
  const output = outputSchema(spec);
  return {
    spec,
    inputSchema: input,
    outputSchema: output,
    listing: { name: spec.name, title: spec.title, description: spec.description, inputSchema: input, outputSchema: output, annotations: { title: spec.title, ...spec.annotations } },
  };
}

/** The tools of the enabled toolsets, by name; a second tool with a taken name is refused. */
export class ToolRegistry {
  private readonly byName = new Map<string, RegisteredTool>();
  private readonly enabled: Set<Toolset>;
  readonly listings: Array<Record<string, unknown>> = [];

  constructor(specs: readonly ToolSpec[], enabled: readonly Toolset[]) {
    this.enabled = new Set(enabled);
    for (const spec of specs) {
      if (this.byName.has(spec.name)) throw new Error(`duplicate MCP tool name: ${spec.name}`);
      const tool = register(spec);
      this.byName.set(spec.name, tool);
      if (enabled.includes(spec.toolset)) this.listings.push(tool.listing);
    }
  }

  /** An enabled tool by exact name. */
  get(name: string): RegisteredTool | undefined {
    const tool = this.byName.get(name);
    return tool && this.enabled.has(tool.spec.toolset) ? tool : undefined;
  }

  /** The tools of the enabled toolsets, in registration order. */
  enabledTools(): RegisteredTool[] {
    return [...this.byName.values()].filter((t) => this.enabled.has(t.spec.toolset));
  }

  /** Every known tool, enabled or not, in registration order. */
  all(): RegisteredTool[] {
    return [...this.byName.values()];
  }

  isEnabled(tool: RegisteredTool): boolean {
    return this.enabled.has(tool.spec.toolset);
  }
}

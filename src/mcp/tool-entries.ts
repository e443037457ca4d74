import type { TroveConfig } from '../config/schema.js';
import { TroveError } from '../errors.js';
import type { RegisteredTool, ToolRegistry } from './registry.js';
import type { JsonSchema, ToolAccess, ToolAnnotations, Toolset } from './tool.js';

// The discovery view of the tool registry (seed 001): one entry per tool, the same for GET /api/tools,
// GET /api/tools/{tool_id} and `trove tools`. Discovery only: calls still go through MCP tools/call.

export type ToolHealth = { status: 'ok' } | { status: 'unavailable'; reason: string };

export interface ToolEntry {
  /** The MCP tool name, exactly (may contain dots, e.g. memory.search). */
  tool_id: string;
  /** How the tool is reached. */
  route: string;
  version: string;
  input_schema: JsonSchema;
  output_schema: JsonSchema;
  tags: readonly string[];
  /** MCP is on (mcp.enabled) and the tool's toolset is in mcp.toolsets. */
  enabled: boolean;
  health: ToolHealth;
  title: string;
  description: string;
  toolset: Toolset;
  annotations: ToolAnnotations;
  access: ToolAccess;
}

/** Why a tool cannot be called right now, or ok. Provider-backed tools (semantic, LLM) report their provider here. */
function healthOf(registry: ToolRegistry, tool: RegisteredTool, config: TroveConfig): ToolHealth {
  if (!config.mcp.enabled) return { status: 'unavailable', reason: 'MCP is turned off (mcp.enabled = false)' };
  if (!registry.isEnabled(tool)) return { status: 'unavailable', reason: `toolset ${tool.spec.toolset} is not in mcp.toolsets` };
  return { status: 'ok' };
}

function entryOf(registry: ToolRegistry, tool: RegisteredTool, config: TroveConfig): ToolEntry {
  const { spec } = tool;
  return {
    tool_id: spec.name,
    route: `mcp:tools/call ${spec.name}`,
    version: spec.version,
    input_schema: tool.inputSchema,
    output_schema: tool.outputSchema,
    tags: spec.tags,
    enabled: config.mcp.enabled && registry.isEnabled(tool),
    health: healthOf(registry, tool, config),
    title: spec.title,
    description: spec.description,
    toolset: spec.toolset,
    annotations: { title: spec.title, ...spec.annotations },
    access: spec.access,
  };
}

/** Every tool trove has, enabled or not, in registration order. */
export function listToolEntries(registry: ToolRegistry, config: TroveConfig): ToolEntry[] {
  return registry.all().map((tool) => entryOf(registry, tool, config));
}

/** One tool by its exact id; NOT_FOUND when there is none. */
export function getToolEntry(registry: ToolRegistry, config: TroveConfig, toolId: string): ToolEntry {
  const tool = registry.all().find((t) => t.spec.name === toolId);
  if (!tool) throw new TroveError('NOT_FOUND', `no tool ${JSON.stringify(toolId)}`, { tool_id: toolId });
  return entryOf(registry, tool, config);
}

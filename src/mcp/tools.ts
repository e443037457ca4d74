import type { TroveConfig } from '../config/schema.js';
import { ToolRegistry } from './registry.js';
import type { ToolSpec, Toolset } from './tool.js';
import { HISTORY_TOOLS } from './toolsets/history.js';

/** Every tool trove has, toolset by toolset. */
export function allToolSpecs(): ToolSpec[] {
  return [...HISTORY_TOOLS];
}

export function createToolRegistry(config: TroveConfig): ToolRegistry {
  return new ToolRegistry(allToolSpecs(), config.mcp.toolsets as Toolset[]);
}

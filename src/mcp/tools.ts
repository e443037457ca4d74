import type { TroveConfig } from '../config/schema.js';
import { ToolRegistry } from './registry.js';
import type { ToolSpec, Toolset } from './tool.js';
import { CATALOG_TOOLS } from './toolsets/catalog.js';
import { HISTORY_TOOLS } from './toolsets/history.js';
import { MEMORY_TOOLS } from './toolsets/memory.js';
import { OPERATION_TOOLS } from './toolsets/operations.js';
import { SEARXNG_SEARCH } from './toolsets/searxng.js';
import { TREE_TOOLS } from './toolsets/tree.js';

/** Every tool trove has, toolset by toolset (searxng_search included, though a config may leave it out). */
export function allToolSpecs(): ToolSpec[] {
  return [...HISTORY_TOOLS, ...MEMORY_TOOLS, ...TREE_TOOLS, ...CATALOG_TOOLS, ...OPERATION_TOOLS, SEARXNG_SEARCH];
}

/** The tools a config offers: searxng_search exists only when searxng.enabled (seed 001). */
export function configuredToolSpecs(config: TroveConfig): ToolSpec[] {
  return allToolSpecs().filter((t) => t !== SEARXNG_SEARCH || config.searxng.enabled);
}

export function createToolRegistry(config: TroveConfig): ToolRegistry {
  return new ToolRegistry(configuredToolSpecs(config), config.mcp.toolsets as Toolset[]);
}

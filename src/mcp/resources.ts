import { TroveError } from '../errors.js';
import { type CompiledTemplate, type ResourceMatch, type ResourceSpec, compileTemplate, listedTemplate, matchPath, parseQuery, splitUri } from './resource.js';
import { CATALOG_RESOURCES } from './resources-catalog.js';
import { OPERATION_RESOURCES } from './resources-operations.js';

// The one table of MCP resource templates (like tools.ts for tools). Append entries here.

/** Every resource template trove has. */
export function allResourceSpecs(): ResourceSpec[] {
  return [...CATALOG_RESOURCES, ...OPERATION_RESOURCES];
}

interface Entry {
  spec: ResourceSpec;
  template: CompiledTemplate;
}

/** The templates compiled once; matches requested URIs against them. */
export class ResourceTable {
  private readonly entries: Entry[] = [];

  constructor(specs: readonly ResourceSpec[] = allResourceSpecs()) {
    for (const spec of specs) {
      if (this.entries.some((e) => e.spec.name === spec.name)) throw new Error(`duplicate MCP resource name: ${spec.name}`);
      this.entries.push({ spec, template: compileTemplate(spec.uriTemplate) });
    }
  }

  get specs(): ResourceSpec[] {
    return this.entries.map((e) => e.spec);
  }

  /** resources/templates/list entries, with this instance filled in. */
  templates(instanceId: string): Array<Record<string, unknown>> {
    return this.entries.map(({ spec }) => ({ name: spec.name, title: spec.title, uriTemplate: listedTemplate(spec, instanceId), description: spec.description, mimeType: spec.mimeType }));
  }

  /** resources/list entries: the fixed URIs (documents are listed by list_documents, operations by their tools). */
  listed(instanceId: string): Array<Record<string, unknown>> {
    return this.entries
      .filter((e) => e.spec.listed)
      .map(({ spec }) => ({ uri: listedTemplate(spec, instanceId), name: spec.name, title: spec.title, description: spec.description, mimeType: spec.mimeType }));
  }

  /** The entry a URI names and its variables; NOT_FOUND for another instance or no template, INVALID_ARGUMENT for a bad query. */
  match(uri: string, instanceId: string): { spec: ResourceSpec; match: ResourceMatch } {
    const parts = splitUri(uri);
    if (parts.instanceId !== instanceId) throw new TroveError('NOT_FOUND', 'the resource URI names another trove instance');
    for (const { spec, template } of this.entries) {
      const params = matchPath(template, parts.segments);
      if (params) return { spec, match: { uri, params, query: parseQuery(template, parts.pairs) } };
    }
    throw new TroveError('NOT_FOUND', 'no trove resource has that URI');
  }
}

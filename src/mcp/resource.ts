import type { App } from '../app.js';
import { TroveError } from '../errors.js';
import type { Action, Grant } from '../service/access.js';
import { SCHEME, encodeComponent } from '../service/catalog-uris.js';

// One declarative description per MCP resource template, like ToolSpec for tools: the table in
// resources.ts drives resources/templates/list, resources/list and resources/read. Build URIs with
// troveUri (service/catalog-uris.ts), never by concatenating raw ids.

/** What a resource read knows about its caller and transport. */
export interface ResourceContext {
  app: App;
  /** What the caller may see (service/access.ts authorize() with the entry's access). */
  grant: Grant;
  /** Provenance label: `mcp:<client>` or `mcp`. */
  source: string;
  /** The instance the URI names (already checked against the store's). */
  instanceId: string;
  /** The connection's memory bank, when the transport names one. */
  bank?: string | undefined;
  /** Bound on the encoded contents: text pages shorten themselves to fit (mcp.max_result_bytes less a reserve). */
  maxBytes: number;
  signal?: AbortSignal | undefined;
}

/** A URI matched against an entry's template. */
export interface ResourceMatch {
  /** The URI exactly as requested. */
  uri: string;
  /** Path variables, percent-decoded (exact strings, never normalized as paths). */
  params: Record<string, string>;
  /** Query values, percent-decoded; only keys the template names, each at most once. */
  query: Record<string, string>;
}

/** One item of a resources/read answer; the framework sets its uri. */
export interface ResourceBody {
  mimeType: string;
  /** Text contents (JSON for status/document/operation resources, raw text for text/source pages). */
  text?: string;
  /** Base64 contents (an image). */
  blob?: string;
  /** Trusted metadata: revision, sha256, page. */
  _meta?: Record<string, unknown>;
}

export interface ResourceSpec {
  /** Unique name, e.g. `document_text`. */
  name: string;
  title: string;
  /**
   * RFC 6570 template, starting `trove://{instanceId}/`; path variables `{name}` take exactly one
   * percent-encoded segment; an optional trailing `{?a,b}` names the only query keys accepted.
   */
  uriTemplate: string;
  mimeType: string;
  description: string;
  /** What a read does, for the one authorization function. */
  access: Action;
  /** A fixed URI (no variables besides instanceId) that resources/list names. */
  listed?: boolean;
  read(ctx: ResourceContext, match: ResourceMatch): Promise<ResourceBody>;
}

export function defineResource(spec: ResourceSpec): ResourceSpec {
  return spec;
}

type Segment = { literal: string } | { variable: string };

/** A template split into path segments and allowed query keys. */
export interface CompiledTemplate {
  segments: Segment[];
  queryKeys: string[];
}

const TEMPLATE = /^trove:\/\/\{instanceId\}\/([^?{}]*(?:\{[A-Za-z][A-Za-z0-9]*\}[^?{}]*)*)(?:\{\?([A-Za-z][A-Za-z0-9]*(?:,[A-Za-z][A-Za-z0-9]*)*)\})?$/;

/** Checks and splits a template; a malformed one is a programming error. */
export function compileTemplate(template: string): CompiledTemplate {
  const m = TEMPLATE.exec(template);
  if (!m) throw new Error(`malformed resource template: ${template}`);
  const segments = m[1]!.split('/').map((s): Segment => {
    const v = /^\{([A-Za-z][A-Za-z0-9]*)\}$/.exec(s);
    if (v) return { variable: v[1]! };
    if (s === '' || /[{}]/.test(s)) throw new Error(`malformed resource template segment ${JSON.stringify(s)}: ${template}`);
    return { literal: s };
  });
  return { segments, queryKeys: m[2] ? m[2].split(',') : [] };
}

/** The template as listed: the instance filled in, the rest left for the client. */
export function listedTemplate(spec: ResourceSpec, instanceId: string): string {
  return spec.uriTemplate.replace('{instanceId}', encodeComponent(instanceId));
}

function decode(raw: string, what: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new TroveError('INVALID_ARGUMENT', `malformed percent-encoding in the resource URI ${what}`, { field: 'uri' });
  }
}

/** The parts of a trove URI, split on the raw string: no URL parser resolves dot segments on the way. */
export interface SplitUri {
  instanceId: string;
  segments: string[];
  /** Raw `key=value` pairs, undecoded. */
  pairs: string[];
}

export function splitUri(uri: string): SplitUri {
  if (!uri.startsWith(SCHEME)) throw new TroveError('NOT_FOUND', 'not a trove:// resource URI');
  if (uri.includes('#')) throw new TroveError('INVALID_ARGUMENT', 'a resource URI takes no fragment', { field: 'uri' });
  const rest = uri.slice(SCHEME.length);
  const q = rest.indexOf('?');
  const [pathPart, queryPart] = q < 0 ? [rest, undefined] : [rest.slice(0, q), rest.slice(q + 1)];
  const [authority, ...segments] = pathPart.split('/');
  return { instanceId: decode(authority!, 'instance'), segments, pairs: queryPart === undefined ? [] : queryPart.split('&') };
}

/** Path variables when the segments fit the template, else undefined. */
export function matchPath(template: CompiledTemplate, segments: readonly string[]): Record<string, string> | undefined {
  if (segments.length !== template.segments.length) return undefined;
  const params: Record<string, string> = {};
  for (const [i, seg] of template.segments.entries()) {
    const raw = segments[i]!;
    if ('literal' in seg) {
      if (raw !== seg.literal) return undefined;
    } else {
      if (raw === '') return undefined;
      params[seg.variable] = decode(raw, seg.variable);
    }
  }
  return params;
}

/** Query values by key: an unknown key, a repeated key or a pair without '=' is INVALID_ARGUMENT. */
export function parseQuery(template: CompiledTemplate, pairs: readonly string[]): Record<string, string> {
  const query: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq < 0) throw new TroveError('INVALID_ARGUMENT', `resource URI query part ${JSON.stringify(pair.slice(0, 64))} is not key=value`, { field: 'uri' });
    const key = decode(pair.slice(0, eq), 'query key');
    if (!template.queryKeys.includes(key)) {
      throw new TroveError('INVALID_ARGUMENT', `unknown query key ${JSON.stringify(key.slice(0, 64))}; this resource takes ${template.queryKeys.join(', ') || 'none'}`, { field: key.slice(0, 64), allowed: template.queryKeys });
    }
    if (Object.hasOwn(query, key)) throw new TroveError('INVALID_ARGUMENT', `query key ${key} is given twice`, { field: key });
    query[key] = decode(pair.slice(eq + 1), key);
  }
  return query;
}

/** A whole number from a query value within [min, max]; undefined when absent, INVALID_ARGUMENT when malformed or out of range. */
export function queryInteger(query: Record<string, string>, key: string, range: { min: number; max: number }): number | undefined {
  const raw = query[key];
  if (raw === undefined) return undefined;
  if (!/^\d{1,15}$/.test(raw)) throw new TroveError('INVALID_ARGUMENT', `${key} must be a whole number`, { field: key });
  const n = Number(raw);
  if (n < range.min || n > range.max) throw new TroveError('INVALID_ARGUMENT', `${key} must be between ${range.min} and ${range.max}`, { field: key, min: range.min, max: range.max });
  return n;
}

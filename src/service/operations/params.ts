import type { OperationKind } from './types.js';

// Parameters of each operation kind with their defaults applied: request-key fingerprints cover these.

export const VIEWPORT = {
  width: { min: 320, max: 3840, default: 1280 },
  height: { min: 240, max: 2160, default: 800 },
  deviceScaleFactor: { min: 1, max: 3, default: 1 },
} as const;
export const SELECTOR_MAX = 512;
export const ARIA_CHARACTERS = { default: 16_384, max: 32_768 } as const;
export const DOM_NODES = { default: 200, max: 500 } as const;
export const DOM_DEPTH = { default: 8, max: 20 } as const;

export interface ImportHistoryParams {
  browser: string;
  profile: string | null;
  since: string | null;
  fetch: boolean;
}

export interface RefreshParams {
  documentId: string;
  expectedRevision: number | null;
}

export interface RenderParams {
  documentId: string;
  versionId: number | null;
  expectedRevision: number | null;
  width: number;
  height: number;
  deviceScaleFactor: number;
}

export interface AriaParams extends RenderParams {
  selector: string;
  maxCharacters: number;
}

export interface DomParams extends RenderParams {
  selector: string;
  maxNodes: number;
  maxDepth: number;
}

type Input = Record<string, unknown>;
const or = <T>(v: unknown, d: T): T => (v === undefined ? d : (v as T));

function renderParams(i: Input): RenderParams {
  return {
    documentId: i.documentId as string,
    versionId: or(i.versionId, null),
    expectedRevision: or(i.expectedRevision, null),
    width: or(i.width, VIEWPORT.width.default),
    height: or(i.height, VIEWPORT.height.default),
    deviceScaleFactor: or(i.deviceScaleFactor, VIEWPORT.deviceScaleFactor.default),
  };
}

/** The normalized parameters of a call (its requestKey left out). */
export function normalizeParams(kind: OperationKind, i: Input): Record<string, unknown> {
  switch (kind) {
    case 'import_history':
      return { browser: i.browser as string, profile: or(i.profile, null), since: or(i.since, null), fetch: or(i.fetch, false) } satisfies ImportHistoryParams;
    case 'refresh_document':
      return { documentId: i.documentId as string, expectedRevision: or(i.expectedRevision, null) } satisfies RefreshParams;
    case 'reindex':
      return {};
    case 'capture_screenshot':
      return { ...renderParams(i) };
    case 'inspect_accessibility':
      return { ...renderParams(i), selector: or(i.selector, 'body'), maxCharacters: or(i.maxCharacters, ARIA_CHARACTERS.default) } satisfies AriaParams;
    case 'inspect_dom':
      return { ...renderParams(i), selector: or(i.selector, 'body'), maxNodes: or(i.maxNodes, DOM_NODES.default), maxDepth: or(i.maxDepth, DOM_DEPTH.default) } satisfies DomParams;
  }
}

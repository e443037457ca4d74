import { z } from 'zod';
import { BROWSERS } from '../../ingest/importers/types.js';
import { ARIA_CHARACTERS, DOM_DEPTH, DOM_NODES, SELECTOR_MAX, VIEWPORT } from '../../service/operations/params.js';
import { cancelOperation, getOperation, startOperation } from '../../service/operations/service.js';
import type { OperationKind } from '../../service/operations/types.js';
import { UNTRUSTED_WARNING } from '../help.js';
import { HANDLE_SCHEMA, OPERATION_FIELDS, OPERATION_SCHEMA, handleOutput, operationOutput } from '../operation-output.js';
import { type ToolAnnotations, type ToolContext, type ToolOutput, type ToolSpec, defineTool } from '../tool.js';

// Long work as operations (seed 004): each call answers a handle at once; get_operation polls it.

const STARTS = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;
const RENDERS = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;
const HANDLE_NOTE =
  'Answers an operation handle at once (trusted.operationId, state); poll get_operation for the result. The same requestKey with the same arguments answers the same operation for ten minutes after it ends; other arguments are REQUEST_KEY_CONFLICT. At most 4 of your operations wait (8 in all, 1 runs): more is QUEUE_FULL (retry later).';
const RENDER_NOTE =
  'The stored page of a version (its captured HTML) is rendered in a fresh headless Chromium with JavaScript and all network off, timezone UTC, locale en-US, reduced motion, no animations, within 30 s. Needs Chromium on the server (else CAPABILITY_UNAVAILABLE).';

const requestKey = z.string().min(1).max(256).describe('A new UUID per intended execution; a retry with the same key and arguments gets the same operation instead of running again.');
const documentId = z.string().min(1).describe('A document id from list_documents or get_document (or its exact url); exact, never normalized.');
const expectedRevision = z.number().int().min(0).optional().describe('Fail with STALE_REVISION unless the catalog is at exactly this revision, checked at the call and again when the work starts.');

const renderShape = {
  requestKey,
  documentId,
  versionId: z.number().int().positive().optional().describe('A version id from get_document; default: the current version.'),
  expectedRevision,
  width: z.number().int().min(VIEWPORT.width.min).max(VIEWPORT.width.max).optional().describe(`Viewport width in CSS pixels, ${VIEWPORT.width.min}..${VIEWPORT.width.max}, default ${VIEWPORT.width.default}.`),
  height: z.number().int().min(VIEWPORT.height.min).max(VIEWPORT.height.max).optional().describe(`Viewport height in CSS pixels, ${VIEWPORT.height.min}..${VIEWPORT.height.max}, default ${VIEWPORT.height.default}.`),
  deviceScaleFactor: z.number().int().min(1).max(3).optional().describe('Device pixels per CSS pixel, 1..3, default 1: the PNG is width x DPR by height x DPR.'),
};
const selector = z.string().min(1).max(SELECTOR_MAX).optional().describe(`A CSS selector (at most ${SELECTOR_MAX} characters); the first match is inspected; default body. Invalid CSS fails with INVALID_SELECTOR.`);

/** A tool that starts an operation of `kind` with its arguments (requestKey apart). */
async function start(ctx: ToolContext, kind: OperationKind, input: { requestKey: string } & Record<string, unknown>): Promise<ToolOutput> {
  const { requestKey: key, ...rest } = input;
  const started = await startOperation(ctx.app, { grant: ctx.grant, source: ctx.source, bank: ctx.bank }, { kind, requestKey: key, input: rest });
  return handleOutput(started.view, started.replayed, { ...input });
}

interface OperationToolSpec {
  name: OperationKind;
  title: string;
  description: string;
  access: ToolSpec['access'];
  annotations: ToolAnnotations;
  input: z.ZodType;
  tags: string[];
}

const operationTool = (spec: OperationToolSpec): ToolSpec =>
  defineTool({
    ...spec,
    toolset: 'catalog',
    version: '1.0.0',
    trustedSchema: HANDLE_SCHEMA,
    fieldsSchema: { type: 'object' },
    run: (ctx, input) => start(ctx, spec.name, input as { requestKey: string } & Record<string, unknown>),
  });

const importHistory = operationTool({
  name: 'import_history',
  title: 'Import browser history (operation)',
  description: `Import a browser's history on the server: visits and a title-only document per page; with fetch, also fetch and index the pages. Resumable: a repeated import adds nothing new. Progress (phase, done, total) is in get_operation. Needs an admin: it reads the server's browser profiles. ${HANDLE_NOTE}`,
  access: 'admin',
  annotations: STARTS,
  tags: ['catalog', 'operation', 'import', 'write'],
  input: z.strictObject({
    requestKey,
    browser: z.enum(BROWSERS as [string, ...string[]]).describe('firefox, chrome, chromium, brave, edge, vivaldi or safari.'),
    profile: z.string().min(1).max(4096).optional().describe("A history database file or profile directory on the server; default: the browser's default profile."),
    since: z.string().max(10).optional().describe('YYYY-MM-DD (UTC): only visits on or after that day.'),
    fetch: z.boolean().optional().describe('Also fetch and index the visited pages (default false).'),
  }),
});

const refreshDocument = operationTool({
  name: 'refresh_document',
  title: 'Fetch a web document again (operation)',
  description: `Fetch a web document's url again; changed content becomes a new version (result status updated or unchanged). Your own documents, or any for an admin. ${HANDLE_NOTE}`,
  access: 'documents.write',
  annotations: { ...STARTS, openWorldHint: true },
  tags: ['catalog', 'operation', 'write'],
  input: z.strictObject({ requestKey, documentId, expectedRevision }),
});

const reindex = operationTool({
  name: 'reindex',
  title: 'Rebuild the search indexes (operation)',
  description: `Rebuild the keyword index from the stored passages (and queue passages for embedding again when semantic search keeps vectors). Needs an admin. ${HANDLE_NOTE}`,
  access: 'admin',
  annotations: STARTS,
  tags: ['catalog', 'operation', 'admin'],
  input: z.strictObject({ requestKey }),
});

const captureScreenshot = operationTool({
  name: 'capture_screenshot',
  title: 'Screenshot of a stored page (operation)',
  description: `Render a stored page and capture the viewport as a PNG (at most 4 MiB). The result has the decoded PNG width and height (viewport x deviceScaleFactor), bytes, sha256 and artifactUri; get_operation adds the image inline up to 1 MiB, else a resource link. ${RENDER_NOTE} ${HANDLE_NOTE}`,
  access: 'documents.read',
  annotations: RENDERS,
  tags: ['catalog', 'operation', 'render', 'read'],
  input: z.strictObject(renderShape),
});

const inspectAccessibility = operationTool({
  name: 'inspect_accessibility',
  title: 'Accessibility snapshot of a stored page (operation)',
  description: `Render a stored page and return Playwright's ARIA snapshot (YAML: roles, names, structure) of the first element the selector matches: matched, totalCharacters, truncated (a cut can end inside an entry). Link URLs are shown without credentials, query or fragment. It does not judge accessibility compliance. ${RENDER_NOTE} ${HANDLE_NOTE}`,
  access: 'documents.read',
  annotations: RENDERS,
  tags: ['catalog', 'operation', 'render', 'read'],
  input: z.strictObject({
    ...renderShape,
    selector,
    maxCharacters: z.number().int().min(1).max(ARIA_CHARACTERS.max).optional().describe(`Snapshot characters returned at most, default ${ARIA_CHARACTERS.default}, at most ${ARIA_CHARACTERS.max}.`),
  }),
});

const inspectDom = operationTool({
  name: 'inspect_dom',
  title: 'Rendered DOM of a stored page (operation)',
  description: `Render a stored page and return the element subtree under the first selector match: per node index, parentIndex, depth, tag, allowlisted attributes (id, class, role, aria-*, alt, title, name, type, lang, dir, ... and http(s) href/src without credentials, query or fragment; never event handlers, styles, data-* or form values), direct text, viewport rect and display/visibility. Open shadow roots are included; script, style and template content is not. matched false with no nodes when nothing matches. ${RENDER_NOTE} ${HANDLE_NOTE}`,
  access: 'documents.read',
  annotations: RENDERS,
  tags: ['catalog', 'operation', 'render', 'read'],
  input: z.strictObject({
    ...renderShape,
    selector,
    maxNodes: z.number().int().min(1).max(DOM_NODES.max).optional().describe(`Nodes at most, default ${DOM_NODES.default}, at most ${DOM_NODES.max}.`),
    maxDepth: z.number().int().min(0).max(DOM_DEPTH.max).optional().describe(`Depth below the matched element (depth 0), default ${DOM_DEPTH.default}, at most ${DOM_DEPTH.max}.`),
  }),
});

const operationId = z.string().min(1).max(256).describe('trusted.operationId of an operation you started.');

const getOperationTool = defineTool({
  name: 'get_operation',
  toolset: 'catalog',
  title: 'Operation state and result',
  description: `The exact state of an operation you started: queued, running, cancelling, completed, failed or cancelled, UTC timestamps, the epoch and revision it captured, progress, and its result (trusted.result; page-derived values under untrusted_content) or error. A screenshot comes inline as an image up to 1 MiB, else as a resource link. OPERATION_NOT_FOUND: it expired (ten minutes after it ended), its result was evicted, or it belongs to another server lifetime or caller; do not blindly rerun it. ${UNTRUSTED_WARNING}`,
  version: '1.0.0',
  tags: ['catalog', 'operation', 'read'],
  access: 'documents.read',
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  input: z.strictObject({ operationId }),
  trustedSchema: OPERATION_SCHEMA,
  fieldsSchema: OPERATION_FIELDS,
  async run({ app, grant }, input) {
    return operationOutput(await getOperation(app, grant.principal, input.operationId), { ...input });
  },
});

const cancelOperationTool = defineTool({
  name: 'cancel_operation',
  toolset: 'catalog',
  title: 'Cancel an operation',
  description: 'Cancel an operation you started: a queued one is removed at once (cancelled); a running one is asked to stop and stays cancelling until its cleanup ends (poll get_operation). A finished one is left as it is. Answers the current state.',
  version: '1.0.0',
  tags: ['catalog', 'operation'],
  access: 'documents.read',
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({ operationId }),
  trustedSchema: HANDLE_SCHEMA,
  fieldsSchema: { type: 'object' },
  async run({ app, grant }, input) {
    return handleOutput(await cancelOperation(app, grant.principal, input.operationId), false, { ...input });
  },
});

export const OPERATION_TOOLS: readonly ToolSpec[] = [
  getOperationTool, cancelOperationTool, importHistory, refreshDocument, reindex, captureScreenshot, inspectAccessibility, inspectDom,
];

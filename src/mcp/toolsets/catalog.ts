import { z } from 'zod';
import { MAX_ID_BYTES, MAX_VERSIONS_LISTED, TEXT_PAGE, catalogAccess, getCatalogDocument, pageBudget, readDocumentText } from '../../service/catalog.js';
import { LIST_PAGE, MAX_QUERY_CHARS, listDocuments } from '../../service/catalog-list.js';
import { getCatalogStatus } from '../../service/catalog-status.js';
import { SOURCE_PAGE, readDocumentSource } from '../../service/source-read.js';
import {
  DOCUMENT_FIELDS, DOCUMENT_SCHEMA, LISTED_FIELDS, LIST_SCHEMA, SOURCE_SCHEMA, STATUS_SCHEMA, TEXT_FIELDS, TEXT_SCHEMA,
  documentOutput, listOutput, sourceOutput, statusOutput, textOutput,
} from '../catalog-output.js';
import { UNTRUSTED_WARNING } from '../help.js';
import { type ToolSpec, defineTool } from '../tool.js';

// The catalog read tools, seed 004 (Histoire) applied to trove: documents are its stories, versions its
// variants, stored pages its previews. camelCase arguments and results, as that seed names them.

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;
const ID_NOTE = `IDs are exact, case-sensitive strings of at most ${MAX_ID_BYTES} UTF-8 bytes: use the returned ids and URIs as they are, never normalize them as paths.`;
const REVISION_NOTE = 'expectedRevision: fail with STALE_REVISION unless the catalog is at exactly that revision.';

const documentId = z.string().min(1).describe(`A document id from list_documents (or the exact url of the document). ${ID_NOTE}`);
const expectedRevision = z.number().int().min(0).optional().describe('The catalog revision the caller read; any other current revision is STALE_REVISION.');

const getStatus = defineTool({
  name: 'get_status',
  toolset: 'catalog',
  title: 'Catalog status',
  description: 'Lifecycle (starting, ready, updating, failed, closed), instanceId, epoch (this process lifetime), revision (bumped by every catalog change), buildId, document counts by kind (of what you may see), diagnostics and capabilities (toolsets, semantic search, LLM, SearXNG, stored-page inspection).',
  version: '1.0.0',
  tags: ['catalog', 'status', 'read'],
  access: 'meta.read',
  annotations: READ_ONLY,
  input: z.strictObject({}),
  trustedSchema: STATUS_SCHEMA,
  fieldsSchema: { type: 'object' },
  async run({ app, grant, bank }, input) {
    return statusOutput(await getCatalogStatus(app, await catalogAccess(app, grant, bank)), { ...input });
  },
});

const listInput = z.strictObject({
  query: z.string().refine((q) => [...q].length <= MAX_QUERY_CHARS, `at most ${MAX_QUERY_CHARS} characters`).optional()
    .describe(`Case-insensitive substring of the title, url or label (at most ${MAX_QUERY_CHARS} characters).`),
  kind: z.enum(['web', 'local', 'memory']).optional().describe('Only documents of this kind (memory: memories of this connection\'s bank).'),
  label: z.string().max(256).optional().describe('Only documents with exactly this label.'),
  domain: z.string().max(253).optional().describe('Only documents of exactly this domain (e.g. en.wikipedia.org).'),
  pageSize: z.number().int().min(1).max(LIST_PAGE.max).optional().describe(`Documents per page, default ${LIST_PAGE.default}, at most ${LIST_PAGE.max}.`),
  cursor: z.string().max(1024).optional().describe('nextCursor of the previous page; the filters must stay the same.'),
});

const listDocumentsTool = defineTool({
  name: 'list_documents',
  toolset: 'catalog',
  title: 'List documents',
  description: `List the documents you may see, sorted by url then id, a page at a time (trusted.documents[i] is described by untrusted_content[i]). Pages are pinned to the catalog revision of the first page: follow nextCursor with the same filters; a cursor is served for 60 s and while the catalog changed at most once since, else CURSOR_EXPIRED (list again). Documents removed since are left out of later pages and counted in removed. ${ID_NOTE} ${UNTRUSTED_WARNING}`,
  version: '1.0.0',
  tags: ['catalog', 'read'],
  access: 'documents.read',
  annotations: READ_ONLY,
  input: listInput,
  trustedSchema: LIST_SCHEMA,
  fieldsSchema: LISTED_FIELDS,
  async run({ app, grant, bank }, input) {
    const page = await listDocuments(app, await catalogAccess(app, grant, bank), input);
    return listOutput(page, input.pageSize ?? LIST_PAGE.default, { ...input });
  },
});

const getDocumentTool = defineTool({
  name: 'get_document',
  toolset: 'catalog',
  title: 'Document metadata, versions and resource URIs',
  description: `One document: kind, dates, its versions (the latest ${MAX_VERSIONS_LISTED}; each with its SHA-256), resource URIs for its metadata, text and (local files) source, and under untrusted_content its title, url, label, domain, language, source label and metadata. ${REVISION_NOTE} ${ID_NOTE} ${UNTRUSTED_WARNING}`,
  version: '1.0.0',
  tags: ['catalog', 'read'],
  access: 'documents.read',
  annotations: READ_ONLY,
  input: z.strictObject({ documentId, expectedRevision }),
  trustedSchema: DOCUMENT_SCHEMA,
  fieldsSchema: DOCUMENT_FIELDS,
  async run({ app, grant, bank }, input) {
    return documentOutput(await getCatalogDocument(app, await catalogAccess(app, grant, bank), input), { ...input });
  },
});

const readTextTool = defineTool({
  name: 'read_text',
  toolset: 'catalog',
  title: 'Read stored text',
  description: `A page of a document's stored plain text (current version, or versionId), exactly as stored. offset and limit count Unicode code points (limit ${TEXT_PAGE.default} by default, at most ${TEXT_PAGE.max}); sha256 is of the whole text's UTF-8 bytes; follow nextOffset until it is absent. A page holds fewer code points than asked (shortened: true) when more would not fit the result bound. Empty text is an empty page; no text for that version is TEXT_NOT_FOUND. ${REVISION_NOTE} ${UNTRUSTED_WARNING}`,
  version: '1.0.0',
  tags: ['catalog', 'read'],
  access: 'documents.read',
  annotations: READ_ONLY,
  input: z.strictObject({
    documentId,
    versionId: z.number().int().min(1).optional().describe('A versionId from get_document; default the current version.'),
    offset: z.number().int().min(0).optional().describe('First code point, default 0.'),
    limit: z.number().int().min(1).max(TEXT_PAGE.max).optional().describe(`Code points, default ${TEXT_PAGE.default}, at most ${TEXT_PAGE.max}.`),
    expectedRevision,
  }),
  trustedSchema: TEXT_SCHEMA,
  fieldsSchema: TEXT_FIELDS,
  async run({ app, grant, bank }, input) {
    return textOutput(await readDocumentText(app, await catalogAccess(app, grant, bank), input, pageBudget(app)), { ...input });
  },
});

const readSourceTool = defineTool({
  name: 'read_source',
  toolset: 'catalog',
  title: 'Read a local file',
  description: `Exact lines, with their original line endings, of a local document's file as it is on disk now. startLine is 1-based; lineCount ${SOURCE_PAGE.default} by default, at most ${SOURCE_PAGE.max}; totalLines (a terminal newline adds no line), sha256 of the whole file's bytes, nextLine while more follow. Refused with a code: files outside the configured folders after resolving links (SOURCE_UNAVAILABLE), changed since indexing (SOURCE_CHANGED), binary (BINARY_CONTENT), not UTF-8 (INVALID_UTF8), over 2 MiB (TOO_LARGE), holding secrets trove redacts (SOURCE_REDACTED). ${REVISION_NOTE} ${UNTRUSTED_WARNING}`,
  version: '1.0.0',
  tags: ['catalog', 'read'],
  access: 'documents.read',
  annotations: READ_ONLY,
  input: z.strictObject({
    documentId,
    startLine: z.number().int().min(1).optional().describe('First line, 1-based, default 1.'),
    lineCount: z.number().int().min(1).max(SOURCE_PAGE.max).optional().describe(`Lines, default ${SOURCE_PAGE.default}, at most ${SOURCE_PAGE.max}.`),
    expectedRevision,
  }),
  trustedSchema: SOURCE_SCHEMA,
  fieldsSchema: TEXT_FIELDS,
  async run({ app, grant, bank }, input) {
    return sourceOutput(await readDocumentSource(app, await catalogAccess(app, grant, bank), input, pageBudget(app)), { ...input });
  },
});

export const CATALOG_TOOLS: readonly ToolSpec[] = [getStatus, listDocumentsTool, getDocumentTool, readTextTool, readSourceTool];

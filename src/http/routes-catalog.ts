import { z } from 'zod';
import { catalogAccess, pageBudget, readDocumentText } from '../service/catalog.js';
import { listDocuments } from '../service/catalog-list.js';
import { readDocumentSource } from '../service/source-read.js';
import { iso } from '../service/views.js';
import type { Route } from './routes.js';
import { validate } from './validate.js';

// The catalog reads over HTTP: the same service functions as list_documents, read_text and read_source.

const whole = z.string().regex(/^\d{1,15}$/, 'must be a whole number');

const listQuery = z.strictObject({
  query: z.string().max(1024).optional(),
  kind: z.enum(['web', 'local', 'memory']).optional(),
  label: z.string().max(256).optional(),
  domain: z.string().max(253).optional(),
  pageSize: whole.optional(),
  cursor: z.string().max(1024).optional(),
});

const textQuery = z.strictObject({ offset: whole.optional(), limit: whole.optional(), versionId: whole.optional(), expectedRevision: whole.optional() });
const sourceQuery = z.strictObject({ startLine: whole.optional(), lineCount: whole.optional(), expectedRevision: whole.optional() });

const num = (v: string | undefined) => (v === undefined ? undefined : Number(v));

export const CATALOG_ROUTES: Route[] = [
  {
    method: 'GET',
    path: '/api/catalog/documents',
    access: 'documents.read',
    summary: 'list_documents: query, kind, label, domain, pageSize (1..100), cursor (nextCursor of the previous page; same filters).',
    handle: async ({ app, query, grant }) => {
      const q = validate(listQuery, query, 'query parameter');
      const page = await listDocuments(app, await catalogAccess(app, grant), { ...q, pageSize: num(q.pageSize) });
      const documents = page.documents.map((d) => ({ id: d.id, kind: d.kind, url: d.url, title: d.title, label: d.label, domain: d.domain, versionCount: d.versionCount, added: iso(d.addedAt), updated: iso(d.updatedAt) }));
      const { instanceId: _instance, documents: _docs, ...rest } = page;
      return { status: 200, body: { ...rest, documents } };
    },
  },
  {
    method: 'GET',
    path: '/api/documents/:id/text',
    access: 'documents.read',
    summary: 'read_text: a page of the stored text in code points (offset, limit 1..32768, versionId, expectedRevision) with the SHA-256 of the whole text.',
    handle: async ({ app, params, query, grant }) => {
      const q = validate(textQuery, query, 'query parameter');
      const input = { documentId: params.id!, offset: num(q.offset), limit: num(q.limit), versionId: num(q.versionId), expectedRevision: num(q.expectedRevision) };
      const { instanceId: _instance, ...body } = await readDocumentText(app, await catalogAccess(app, grant), input, pageBudget(app));
      return { status: 200, body };
    },
  },
  {
    method: 'GET',
    path: '/api/documents/:id/source',
    access: 'documents.read',
    summary: 'read_source: exact lines of a local document\'s file (startLine, lineCount 1..500, expectedRevision) with the SHA-256 of the file.',
    handle: async ({ app, params, query, grant }) => {
      const q = validate(sourceQuery, query, 'query parameter');
      const input = { documentId: params.id!, startLine: num(q.startLine), lineCount: num(q.lineCount), expectedRevision: num(q.expectedRevision) };
      const { instanceId: _instance, ...body } = await readDocumentSource(app, await catalogAccess(app, grant), input, pageBudget(app));
      return { status: 200, body };
    },
  },
];

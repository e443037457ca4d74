import type { CatalogDocument } from '../store/types.js';
import type { DocumentDetail, TextRead } from '../service/catalog.js';
import type { ListPage } from '../service/catalog-list.js';
import type { CatalogStatus } from '../service/catalog-status.js';
import { catalogUri } from '../service/catalog-uris.js';
import type { SourceRead } from '../service/source-read.js';
import { iso } from '../service/views.js';
import type { JsonSchema, ToolOutput } from './tool.js';

// The catalog's results as envelope parts, shared by its tools and its JSON resources: ids, counts,
// hashes, cursors and revisions are trusted; titles, urls, labels, metadata and text are not.

const str = { type: 'string' };
const int = { type: 'integer' };
const bool = { type: 'boolean' };
const nullable = (type: string) => ({ anyOf: [{ type }, { type: 'null' }] });
const capability = { type: 'object', properties: { available: bool, reason: str }, required: ['available'] };

export const STATUS_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    lifecycle: { enum: ['starting', 'ready', 'updating', 'failed', 'closed'] },
    updating: bool, instanceId: str, epoch: int, revision: int, buildId: str, version: str,
    counts: { type: 'object', properties: { documents: int, web: int, local: int, memory: int, versions: int }, required: ['documents', 'web', 'local', 'memory', 'versions'] },
    diagnostics: { type: 'array', items: { type: 'object', properties: { code: str, message: str, count: int }, required: ['code', 'message'] } },
    capabilities: {
      type: 'object',
      properties: { toolsets: { type: 'array', items: str }, resources: bool, semantic: capability, llm: capability, searxng: capability, inspection: capability },
      required: ['toolsets', 'resources', 'semantic', 'llm', 'searxng', 'inspection'],
    },
    uri: str,
  },
  required: ['lifecycle', 'updating', 'instanceId', 'epoch', 'revision', 'buildId', 'counts', 'diagnostics', 'capabilities', 'uri'],
};

export function statusOutput(s: CatalogStatus, request: Record<string, unknown>): ToolOutput {
  return { trusted: { ...s }, request, untrusted: [] };
}

export const LIST_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    revision: int, total: int, position: int, pageSize: int, returned: int, removed: int, nextCursor: str,
    documents: {
      type: 'array',
      items: { type: 'object', properties: { id: str, kind: { enum: ['web', 'local', 'memory'] }, versionCount: int, added: str, updated: str, uri: str }, required: ['id', 'kind', 'versionCount', 'added', 'updated', 'uri'] },
    },
  },
  required: ['revision', 'total', 'position', 'pageSize', 'returned', 'removed', 'documents'],
};

export const LISTED_FIELDS: JsonSchema = {
  type: 'object',
  properties: { id: str, title: str, url: str, label: nullable('string'), domain: str },
  required: ['id', 'title', 'url', 'label', 'domain'],
};

function listedDocument(instanceId: string, d: CatalogDocument) {
  return { id: d.id, kind: d.kind, versionCount: d.versionCount, added: iso(d.addedAt), updated: iso(d.updatedAt), uri: catalogUri.document(instanceId, d.id) };
}

export function listOutput(page: ListPage, pageSize: number, request: Record<string, unknown>): ToolOutput {
  const trusted: Record<string, unknown> = {
    revision: page.revision, total: page.total, position: page.position, pageSize, returned: page.documents.length, removed: page.removed,
    documents: page.documents.map((d) => listedDocument(page.instanceId, d)),
  };
  if (page.nextCursor !== undefined) trusted.nextCursor = page.nextCursor;
  const untrusted = page.documents.map((d) => ({ source_type: 'catalog_document', fields: { id: d.id, title: d.title, url: d.url, label: d.label, domain: d.domain } }));
  return { trusted, request, untrusted };
}

export const DOCUMENT_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    revision: int, documentId: str, kind: { enum: ['web', 'local', 'memory'] }, versionCount: int, currentVersionId: nullable('integer'), added: str, updated: str,
    versions: {
      type: 'array',
      items: { type: 'object', properties: { versionId: int, sha256: str, captured: str, length: int, current: bool }, required: ['versionId', 'sha256', 'captured', 'length', 'current'] },
    },
    versionsTruncated: bool,
    uris: { type: 'object', properties: { document: str, text: str, source: str }, required: ['document', 'text'] },
  },
  required: ['revision', 'documentId', 'kind', 'versionCount', 'currentVersionId', 'added', 'updated', 'versions', 'versionsTruncated', 'uris'],
};

export const DOCUMENT_FIELDS: JsonSchema = {
  type: 'object',
  properties: { title: str, url: str, label: nullable('string'), domain: str, language: str, source: str, metadata: { type: 'object' } },
  required: ['title', 'url', 'label', 'domain', 'language', 'source', 'metadata'],
};

export function documentOutput(detail: DocumentDetail, request: Record<string, unknown>): ToolOutput {
  const d = detail.document;
  const trusted = {
    revision: detail.revision, documentId: d.id, kind: d.kind, versionCount: d.versionCount, currentVersionId: d.currentVersionId, added: iso(d.addedAt), updated: iso(d.updatedAt),
    versions: detail.versions.map((v) => ({ versionId: v.id, sha256: v.sha256, captured: iso(v.capturedAt), length: v.textLength, current: v.id === d.currentVersionId })),
    versionsTruncated: detail.versionsTruncated,
    uris: detail.uris,
  };
  const fields = { title: d.title, url: d.url, label: d.label, domain: d.domain, language: d.language, source: d.source, metadata: d.metadata };
  return { trusted, request, untrusted: [{ source_type: 'catalog_document', fields }] };
}

export const TEXT_SCHEMA: JsonSchema = {
  type: 'object',
  properties: { revision: int, documentId: str, versionId: int, offset: int, returned: int, length: int, sha256: str, nextOffset: int, shortened: bool, uri: str },
  required: ['revision', 'documentId', 'versionId', 'offset', 'returned', 'length', 'sha256', 'shortened', 'uri'],
};

export const TEXT_FIELDS: JsonSchema = { type: 'object', properties: { text: str }, required: ['text'] };

export function textOutput(r: TextRead, request: Record<string, unknown>): ToolOutput {
  const trusted: Record<string, unknown> = {
    revision: r.revision, documentId: r.documentId, versionId: r.versionId, offset: r.offset, returned: r.count, length: r.length, sha256: r.sha256, shortened: r.shortened, uri: r.uri,
  };
  if (r.nextOffset !== undefined) trusted.nextOffset = r.nextOffset;
  return { trusted, request, untrusted: [{ source_type: 'document_text', fields: { text: r.text }, exact: ['text'] }] };
}

export const SOURCE_SCHEMA: JsonSchema = {
  type: 'object',
  properties: { revision: int, documentId: str, startLine: int, returned: int, totalLines: int, sha256: str, bytes: int, nextLine: int, shortened: bool, uri: str },
  required: ['revision', 'documentId', 'startLine', 'returned', 'totalLines', 'sha256', 'bytes', 'shortened', 'uri'],
};

export function sourceOutput(r: SourceRead, request: Record<string, unknown>): ToolOutput {
  const trusted: Record<string, unknown> = {
    revision: r.revision, documentId: r.documentId, startLine: r.startLine, returned: r.count, totalLines: r.totalLines, sha256: r.sha256, bytes: r.bytes, shortened: r.shortened, uri: r.uri,
  };
  if (r.nextLine !== undefined) trusted.nextLine = r.nextLine;
  return { trusted, request, untrusted: [{ source_type: 'local_file', fields: { text: r.text }, exact: ['text'] }] };
}

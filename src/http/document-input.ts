import { z } from 'zod';
import { TroveError } from '../errors.js';
import { type BatchItem, MAX_BATCH_OPERATIONS } from '../service/batch.js';
import type { ContentInput } from '../service/documents.js';
import { validate } from './validate.js';

// Request bodies that add documents: POST /api/documents (also the browser extension's capture) and POST /api/batch.

const documentFields = {
  url: z.string().min(1).max(8192),
  title: z.string().max(4096).optional(),
  html: z.string().optional(),
  text: z.string().optional(),
  /** The page's icon as the browser saw it: an http(s) URL or a data:image URL. */
  favicon: z.string().max(65_536).regex(/^(https?:|data:image\/)/i, 'must be an http(s) or data:image URL').optional(),
  label: z.string().max(256).nullable().optional(),
};

type DocumentFields = z.infer<z.ZodObject<typeof documentFields>>;

const hasContent = (b: DocumentFields) => b.html !== undefined || b.text !== undefined;
const contentMissing = { message: 'give html or text', path: ['text'] };

export const documentBody = z.strictObject(documentFields).refine(hasContent, contentMissing);

const addOperation = z.strictObject({ op: z.literal('add'), ...documentFields }).refine(hasContent, contentMissing);
const deleteOperation = z.strictObject({ op: z.literal('delete'), id: z.string().min(1).max(8192) });

export const batchBody = z.strictObject({ operations: z.array(z.unknown()).max(MAX_BATCH_OPERATIONS) });

/** A captured page or note, indexed exactly as a fetched page would be. */
export function contentInput(b: DocumentFields, source: string): ContentInput {
  const input: ContentInput = { url: b.url, title: b.title, html: b.html, text: b.text, label: b.label, source };
  if (b.favicon !== undefined) input.metadata = { favicon: b.favicon };
  return input;
}

/** One batch operation, or the error that keeps it from running. */
export function batchItem(raw: unknown, source: string): BatchItem {
  try {
    const op = (raw as { op?: unknown } | null)?.op;
    if (op === 'add') return { op: 'add', input: contentInput(validate(addOperation, raw, 'field'), source) };
    if (op === 'delete') return { op: 'delete', id: validate(deleteOperation, raw, 'field').id };
    return new TroveError('INVALID_ARGUMENT', 'op must be "add" or "delete"', { field: 'op' });
  } catch (err) {
    if (err instanceof TroveError) return err;
    throw err;
  }
}

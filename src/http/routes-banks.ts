import { z } from 'zod';
import { bankOwner, deleteBank, listBanks } from '../service/banks.js';
import { reflect } from '../service/memory-reflect.js';
import { recall, retain } from '../service/memory.js';
import type { Route } from './routes.js';
import { validate } from './validate.js';

// Memory banks over HTTP: the same service functions as the memory tools and `trove bank`.

const noQuery = z.strictObject({});
const memoryBody = z.strictObject({ content: z.string().max(1_000_000), context: z.string().max(10_000).optional() });
const recallQuery = z.strictObject({ q: z.string().min(1).max(4096), max_results: z.string().regex(/^-?\d{1,6}$/, 'must be a whole number').optional() });
const reflectQuery = z.strictObject({ q: z.string().min(1).max(4096), context: z.string().max(4096).optional(), budget: z.enum(['low', 'mid', 'high']).optional() });

export const BANK_ROUTES: Route[] = [
  {
    method: 'GET',
    path: '/api/banks',
    access: 'memory.read',
    summary: "The caller's memory banks: name, memories, created, last_activity.",
    handle: async ({ app, query, grant }) => {
      validate(noQuery, query, 'query parameter');
      return { status: 200, body: await listBanks(app, bankOwner(grant)) };
    },
  },
  {
    method: 'DELETE',
    path: '/api/banks/:bank',
    access: 'memory.write',
    summary: 'Delete one of the caller\u2019s banks with all its memories: {bank, deleted, memories}.',
    handle: async ({ app, params, query, grant }) => {
      validate(noQuery, query, 'query parameter');
      return { status: 200, body: await deleteBank(app, bankOwner(grant), params.bank!) };
    },
  },
  {
    method: 'POST',
    path: '/api/banks/:bank/memories',
    access: 'memory.write',
    json: true,
    summary: 'Retain a memory in the bank (made on first use): {content, context?} -> 201 {id, merged: false}, or 200 {id, merged: true} for text it holds already.',
    handle: async ({ app, params, body, grant }) => {
      const b = validate(memoryBody, body, 'field');
      const r = await retain(app, { bank: params.bank!, content: b.content, context: b.context, source: 'api', grant });
      return { status: r.merged ? 200 : 201, body: r };
    },
  },
  {
    method: 'GET',
    path: '/api/banks/:bank/recall',
    access: 'memory.read',
    summary: 'Memories of the bank best first for q (natural language): {results: [{id, text, type, context, event_date, score}], mode, notice?}; max_results 1.. (default 10, at most 50).',
    handle: async ({ app, params, query, grant }) => {
      const q = validate(recallQuery, query, 'query parameter');
      const body = await recall(app, { bank: params.bank!, query: q.q, maxResults: q.max_results === undefined ? undefined : Number(q.max_results), grant });
      return { status: 200, body };
    },
  },
  {
    method: 'GET',
    path: '/api/banks/:bank/reflect',
    access: 'memory.read',
    summary: 'Reflect on the bank\u2019s memories about q: an answer citing memory ids with a model configured, else the evidence by theme; context?, budget low|mid|high.',
    handle: async ({ app, params, query, grant, signal }) => {
      const q = validate(reflectQuery, query, 'query parameter');
      return { status: 200, body: await reflect(app, { bank: params.bank!, query: q.q, context: q.context, budget: q.budget, grant, signal }) };
    },
  },
];

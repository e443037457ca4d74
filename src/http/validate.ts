import type { z } from 'zod';
import { TroveError } from '../errors.js';

/** Parses input with a schema; the first problem becomes INVALID_ARGUMENT naming the field. */
export function validate<T>(schema: z.ZodType<T>, input: unknown, what: string): T {
  const r = schema.safeParse(input);
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  const unknownKeys = issue.code === 'unrecognized_keys' ? (issue as { keys?: string[] }).keys : undefined;
  const field = unknownKeys?.[0] ?? issue.path.join('.');
  const message = unknownKeys ? `unknown ${what} ${unknownKeys.map((k) => JSON.stringify(k)).join(', ')}` : `${what} ${field || '(root)'}: ${issue.message}`;
  throw new TroveError('INVALID_ARGUMENT', message, { field: field || null });
}

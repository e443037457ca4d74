import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/client';

// The one check of a tool result that carries hostile content: it is only under untrusted_content[*].fields, normalized.

/** Unicode categories the envelope removes from untrusted strings (\n and \t excepted). */
export const FORBIDDEN = /[\p{Cc}\p{Cf}\p{Co}\p{Cs}]/u;

/** Every string of a value, object keys included. */
export function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) out.push(k), strings(v, out);
  return out;
}

/**
 * Calls `name` and checks its result: no forbidden character under fields, records of the envelope's shape, no
 * `markers` (text only the hostile content holds) outside fields or in the notice, the request echo normalized,
 * the text block the same JSON. Returns the untrusted strings.
 */
export async function checkUntrusted(client: Client, name: string, args: Record<string, unknown>, markers: readonly RegExp[]): Promise<string[]> {
  const r = await client.callTool({ name, arguments: args });
  assert.notEqual(r.isError, true, JSON.stringify(r.structuredContent));
  const env = r.structuredContent as Record<string, any>;
  const untrusted = strings(env.untrusted_content.map((x: any) => x.fields));
  for (const s of untrusted) for (const ch of s) if (ch !== '\n' && ch !== '\t') assert.doesNotMatch(ch, FORBIDDEN, `${name}: U+${ch.codePointAt(0)!.toString(16)} in ${JSON.stringify(s.slice(0, 60))}`);
  for (const rec of env.untrusted_content) assert.deepEqual(Object.keys(rec).sort(), ['fields', 'source_type', 'trust', 'trust_scope']);
  const { untrusted_content: _u, request, ...rest } = env;
  const outside = JSON.stringify(rest) + JSON.stringify(env.untrusted_content.map((x: any) => ({ ...x, fields: null })));
  for (const m of markers) assert.doesNotMatch(outside, m, `${name}: untrusted text outside fields`);
  // The request echoes only what the caller sent, normalized.
  for (const s of strings(request)) assert.doesNotMatch(s, /[\u0000-\u0008\u200b\u202e]/);
  const text = (r.content as Array<{ text: string }>)[0]!.text;
  const notice = text.slice(0, text.indexOf('\n{'));
  for (const m of markers) assert.doesNotMatch(notice, m);
  assert.deepEqual(JSON.parse(text.slice(notice.length + 1)), env);
  return untrusted;
}

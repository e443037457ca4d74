import type { IncomingMessage } from 'node:http';
import { TroveError } from '../errors.js';

/** Reads a JSON body, refusing wrong content types, bodies over `limit` bytes and malformed JSON. */
export async function readJsonBody(req: IncomingMessage, limit: number): Promise<unknown> {
  const type = (req.headers['content-type'] ?? '').toLowerCase();
  if (!/^application\/json\s*(;|$)/.test(type)) throw new TroveError('UNSUPPORTED_MEDIA_TYPE', 'send the body as Content-Type: application/json');
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (declared > limit) throw new TroveError('PAYLOAD_TOO_LARGE', `request body is over ${limit} bytes`, { limit });
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new TroveError('PAYLOAD_TOO_LARGE', `request body is over ${limit} bytes`, { limit });
    chunks.push(chunk);
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new TroveError('INVALID_ARGUMENT', 'request body is not valid UTF-8');
  }
  if (!text.trim()) throw new TroveError('INVALID_ARGUMENT', 'request body is empty; send a JSON object');
  try {
    return JSON.parse(text);
  } catch (err) {
    const pos = /position (\d+)/.exec((err as Error).message)?.[1];
    throw new TroveError('INVALID_ARGUMENT', `request body is not valid JSON${pos ? ` (near byte ${pos})` : ''}`);
  }
}

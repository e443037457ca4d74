import { TroveError } from '../errors.js';
import type { IndexedKey } from '../store/types.js';

// The indexed history's `page_key`: an opaque base64url token of the last item's (time, seq) position.
// Only tokens this module wrote decode; anything else is INVALID_ARGUMENT naming the field.

const FORMAT = /^i1\.(-?\d{1,16})\.(\d{1,16})$/;
const MAX_KEY_CHARS = 128;

export function encodePageKey(key: IndexedKey): string {
  return Buffer.from(`i1.${key.at}.${key.seq}`, 'utf8').toString('base64url');
}

function malformed(): TroveError {
  return new TroveError('INVALID_ARGUMENT', 'page_key is not a cursor of this history; pass next_page_key from the previous response unchanged', { field: 'page_key' });
}

export function decodePageKey(token: string): IndexedKey {
  if (token.length > MAX_KEY_CHARS || !/^[A-Za-z0-9_-]+$/.test(token)) throw malformed();
  const m = FORMAT.exec(Buffer.from(token, 'base64url').toString('utf8'));
  if (!m) throw malformed();
  const key = { at: Number(m[1]), seq: Number(m[2]) };
  // Only the exact spelling this module writes: no padding variants, no unsafe numbers.
  if (!Number.isSafeInteger(key.at) || !Number.isSafeInteger(key.seq) || encodePageKey(key) !== token) throw malformed();
  return key;
}

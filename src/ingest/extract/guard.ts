import { TroveError } from '../../errors.js';
import type { Extractor } from './types.js';

// Binary content posing as HTML or text (an image or archive sent as a page body) is refused before any
// parser sees it: NUL characters, or many control and replacement characters (bytes that were not text).

const SAMPLE = 8192;
/** Binary data has far more (random bytes: over 20%); a text with colour escape codes stays well under. */
const MAX_SUSPECT_SHARE = 0.1;

/** Why `text` is not text, or undefined when it looks like text. */
export function binaryReason(text: string): string | undefined {
  if (text.includes('\u0000')) return 'it contains NUL characters';
  const sample = text.slice(0, SAMPLE);
  if (sample.length < 32) return undefined;
  const suspect = sample.match(/[\u0001-\u0008\u000e-\u001f\u007f-\u009f\ufffd]/g)?.length ?? 0;
  return suspect / sample.length > MAX_SUSPECT_SHARE ? `${Math.round((100 * suspect) / sample.length)}% of its first characters are control or replacement characters` : undefined;
}

export function createBinaryGuard(): Extractor {
  return {
    name: 'binary-guard',
    capabilities: [],
    matches: (input) => input.html !== undefined || input.text !== undefined,
    run: (input) => {
      const reason = binaryReason(input.html ?? input.text ?? '');
      if (reason) throw new TroveError('UNSUPPORTED_TYPE', `${input.url.href} looks binary, not ${input.html !== undefined ? 'HTML' : 'text'}: ${reason}`, { url: input.url.href });
      return { status: 'next', reason: 'looks like text' };
    },
  };
}

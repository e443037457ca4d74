import { sanitizeHtml } from '../sanitize.js';
import { oneLine, textOf } from './dom.js';
import type { Extractor } from './types.js';

// Any HTML page that is not an article (a listing, a home page, a form): all of its reading text,
// leaving out navigation, page furniture and scripts.

const FURNITURE = ['NAV', 'FOOTER', 'ASIDE'];

export function createBasicHtmlExtractor(): Extractor {
  return {
    name: 'basic',
    capabilities: ['text', 'preview'],
    matches: (input) => input.html !== undefined,
    run: (input, ctx) => {
      const doc = ctx.document();
      const root = doc.body ?? doc;
      const title = ctx.title || oneLine(doc.querySelector('title')?.textContent) || oneLine(doc.querySelector('h1')?.textContent);
      return { status: 'success', result: { title, text: textOf(root, FURNITURE), html: sanitizeHtml(root, input.url) || null } };
    },
  };
}

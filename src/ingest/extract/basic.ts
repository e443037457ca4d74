import { sanitizeHtml } from '../sanitize.js';
import { type TreeElement, collectElements, oneLine, textOf } from './dom.js';
import type { Extractor } from './types.js';

// Any HTML page that is not an article (a listing, a home page, a form): all of its reading text,
// leaving out navigation, page furniture and scripts.

const FURNITURE = ['NAV', 'FOOTER', 'ASIDE'];

function firstHeading(root: TreeElement): TreeElement | undefined {
  return collectElements<'h1', TreeElement>(root, (el) => (el.localName === 'h1' ? 'h1' : undefined)).h1?.[0];
}

export function createBasicHtmlExtractor(): Extractor {
  return {
    name: 'basic',
    capabilities: ['text', 'preview'],
    matches: (input) => input.html !== undefined,
    run: (input, ctx) => {
      const { doc, elements } = ctx.page();
      const root = doc.body;
      const title = ctx.title || oneLine(elements.title?.[0]?.textContent) || oneLine(firstHeading(root)?.textContent);
      return { status: 'success', result: { title, text: textOf(root, FURNITURE), html: sanitizeHtml(root, input.url) || null } };
    },
  };
}

import { parseDocument } from './extract/dom.js';
import { sanitizeHtml } from './sanitize.js';

/** A whole captured page made inert (no scripts, handlers, forms or frames), for callers that ask for a page's HTML. */
export function sanitizePage(html: string, url: string): string {
  const doc = parseDocument(html);
  let base: URL;
  try {
    base = new URL(url);
  } catch {
    base = new URL('about:blank');
  }
  return sanitizeHtml(doc.body ?? doc, base);
}

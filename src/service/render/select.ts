import type { Page } from 'playwright-core';
import { TroveError } from '../../errors.js';

// The element an inspection starts at: the first match of a standard CSS selector (the browser's own
// parser decides what is valid, so Playwright's selector extensions are not accepted).

const MARK = 'data-trove-inspect';

// Prototype methods, not document.querySelector: a page element named "querySelector" would shadow it.
const MARK_SCRIPT = `(args) => {
  let el;
  try { el = Document.prototype.querySelector.call(document, args.selector); } catch (e) { return 'invalid'; }
  if (!el) return 'none';
  Element.prototype.setAttribute.call(el, args.mark, args.token);
  return 'ok';
}`;

/** A locator for the first match, or undefined when nothing matches; INVALID_SELECTOR for what is not CSS. */
export async function markTarget(tab: Page, selector: string): Promise<ReturnType<Page['locator']> | undefined> {
  const token = Math.random().toString(36).slice(2);
  const status = await tab.evaluate(`(${MARK_SCRIPT})(${JSON.stringify({ selector, mark: MARK, token })})`);
  if (status === 'invalid') throw new TroveError('INVALID_SELECTOR', 'selector is not a valid CSS selector', { field: 'selector' });
  return status === 'ok' ? tab.locator(`[${MARK}="${token}"]`) : undefined;
}


import { TroveError } from '../../errors.js';
import type { JobSpec } from '../operations/jobs.js';
import type { DomParams } from '../operations/params.js';
import { withStoredPage } from './browser.js';
import { DOM_SCRIPT, type RawDomNode, type RawDomResult } from './dom-script.js';
import { requireRenderer } from './host.js';
import { INSPECTION_RESULT_BYTES, fitItems } from './limits.js';
import { resolveRenderTarget } from './target.js';
import { baseFor, publicUrl } from './urls.js';

// inspect_dom: the rendered element subtree under the first match, with allowlisted attributes only.

/** Attributes shown as they are (page text, capped); `aria-*` too. No handlers, styles, values or data-*. */
const PLAIN_ATTRIBUTES = new Set([
  'id', 'class', 'role', 'alt', 'title', 'name', 'type', 'lang', 'dir', 'for', 'rel', 'target', 'placeholder', 'label',
  'width', 'height', 'colspan', 'rowspan', 'headers', 'scope', 'datetime', 'hidden', 'disabled', 'checked', 'selected', 'tabindex',
]);
/** Attributes holding a URL: kept only as http(s) without credentials, query or fragment. */
const URL_ATTRIBUTES = new Set(['href', 'src', 'action', 'poster', 'cite']);
/** Elements whose text is code or a form value, never shown. */
const NO_TEXT = new Set(['script', 'style', 'template', 'textarea']);
const MAX_VALUE = 512;
const MAX_TEXT = 1024;

export interface DomNode {
  index: number;
  parentIndex: number | null;
  depth: number;
  tag: string;
  attributes: Record<string, string>;
  text: string;
  rect: { x: number; y: number; width: number; height: number };
  styles: { display: string; visibility: string };
}

const round = (n: number): number => Math.round(n * 100) / 100;

function capped(value: string, max: number, cut: { any: boolean }): string {
  if (value.length <= max) return value;
  cut.any = true;
  const end = /[\uD800-\uDBFF]/.test(value[max - 1]!) ? max - 1 : max;
  return value.slice(0, end);
}

function attributesOf(raw: RawDomNode, base: string | undefined, cut: { any: boolean }): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of raw.attrs) {
    const key = name.toLowerCase();
    if (URL_ATTRIBUTES.has(key)) {
      const url = publicUrl(value, base);
      if (url) out[key] = capped(url, 2048, cut);
    } else if (PLAIN_ATTRIBUTES.has(key) || (key.startsWith('aria-') && /^aria-[a-z]+$/.test(key))) {
      out[key] = capped(value, MAX_VALUE, cut);
    }
  }
  return out;
}

/** Page values made safe to show: allowlisted attributes, cleaned URLs, collapsed and capped text. */
export function cleanNodes(raw: RawDomNode[], base: string | undefined): { nodes: DomNode[]; truncated: boolean } {
  const cut = { any: false };
  const nodes = raw.map((n) => ({
    index: n.index,
    parentIndex: n.parentIndex,
    depth: n.depth,
    tag: n.tag,
    attributes: attributesOf(n, base, cut),
    text: NO_TEXT.has(n.tag) ? '' : capped(n.text.replace(/\s+/g, ' ').trim(), MAX_TEXT, cut),
    rect: { x: round(n.rect.x), y: round(n.rect.y), width: round(n.rect.width), height: round(n.rect.height) },
    styles: { display: n.styles.display, visibility: n.styles.visibility },
  }));
  return { nodes, truncated: cut.any };
}

export const DOM_JOB: JobSpec = {
  async check(app, caller, params, state) {
    requireRenderer(app);
    await resolveRenderTarget(app, caller, params as unknown as DomParams, state);
  },

  async run(app, caller, params, ctx, state) {
    const p = params as unknown as DomParams;
    const target = await resolveRenderTarget(app, caller, p, state);
    const view = { width: p.width, height: p.height, deviceScaleFactor: p.deviceScaleFactor };
    const args = { selector: p.selector, maxNodes: p.maxNodes, maxDepth: p.maxDepth };
    const raw = (await withStoredPage(app, target, view, ctx.signal, (tab) => tab.evaluate(`(${DOM_SCRIPT})(${JSON.stringify(args)})`))) as RawDomResult;
    if (raw.status === 'invalid') throw new TroveError('INVALID_SELECTOR', 'selector is not a valid CSS selector', { field: 'selector' });
    const trusted: Record<string, unknown> = {
      inspection: 'dom', documentId: target.document.id, versionId: target.versionId,
      viewport: { width: p.width, height: p.height }, deviceScaleFactor: p.deviceScaleFactor, matched: raw.status === 'ok',
    };
    if (raw.status !== 'ok') return { trusted: { ...trusted, nodeCount: 0, truncated: false }, untrusted: [{ source_type: 'dom_subtree', fields: { nodes: [] } }] };
    const clean = cleanNodes(raw.nodes, baseFor(raw.baseURI, target.document.url));
    const fitted = fitItems(clean.nodes, INSPECTION_RESULT_BYTES);
    return {
      trusted: { ...trusted, nodeCount: fitted.items.length, truncated: raw.truncated || clean.truncated || fitted.truncated },
      untrusted: [{ source_type: 'dom_subtree', fields: { nodes: fitted.items } }],
    };
  },
};

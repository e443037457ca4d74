import { parseHTML } from 'linkedom';
import { withoutInertBlocks } from './inert.js';

// The slice of the DOM the extractors use, typed here because the project compiles without the DOM lib.
// Tree* is what both linkedom and the light tree (../html/tree.ts) have: the walks, the metadata reader and
// the sanitizer use only that. Dom* adds the selectors and mutations only linkedom has.

export interface TreeNode {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<TreeNode>;
  parentNode: TreeNode | null;
}

export interface TreeElement extends TreeNode {
  tagName: string;
  localName: string;
  firstElementChild: TreeElement | null;
  nextElementSibling: TreeElement | null;
  getAttribute(name: string): string | null;
  hasAttribute(name: string): boolean;
}

export interface TreeDocument extends TreeNode {
  documentElement: TreeElement | null;
  firstElementChild: TreeElement | null;
  body: TreeElement | null;
}

export interface DomNode extends TreeNode {
  childNodes: ArrayLike<DomNode>;
  parentNode: DomNode | null;
}

export interface DomElement extends DomNode, TreeElement {
  firstElementChild: DomElement | null;
  nextElementSibling: DomElement | null;
  attributes: ArrayLike<{ name: string; value: string }>;
  innerHTML: string;
  querySelector(selector: string): DomElement | null;
  querySelectorAll(selector: string): ArrayLike<DomElement>;
  closest(selector: string): DomElement | null;
  cloneNode(deep: boolean): DomElement;
  remove(): void;
}

export interface DomDocument extends DomNode {
  documentElement: DomElement | null;
  firstElementChild: DomElement | null;
  body: DomElement | null;
  querySelector(selector: string): DomElement | null;
  querySelectorAll(selector: string): ArrayLike<DomElement>;
}

/** A parent for several nodes, for the walks (text, preview) over a selection of siblings. */
export function fragmentOf(nodes: readonly TreeNode[]): TreeNode {
  return { nodeType: 11, nodeName: '#document-fragment', textContent: null, childNodes: nodes, parentNode: null };
}

export const ELEMENT_NODE = 1;
export const TEXT_NODE = 3;

export interface ParseOptions {
  /** Parse comments, scripts, styles, SVG and templates too instead of cutting them first (for comparisons). */
  keepInertBlocks?: boolean | undefined;
}

/** Parses a page; a fragment gets an html/body shell so that every extractor sees a whole document. */
export function parseDocument(html: string, options: ParseOptions = {}): DomDocument {
  const whole = /<(html|body|head)[\s>]/i.test(html.slice(0, 4096)) || /<body[\s>]/i.test(html);
  const lean = options.keepInertBlocks ? html : withoutInertBlocks(html);
  const source = whole ? lean : `<!doctype html><html><head></head><body>${lean}</body></html>`;
  return parseHTML(source).document as unknown as DomDocument;
}

// Elements whose text is never reading text.
const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'IFRAME', 'OBJECT', 'EMBED', 'CANVAS', 'HEAD', 'TITLE', 'FORM', 'BUTTON', 'SELECT', 'TEXTAREA', 'INPUT']);
const BLOCK = new Set([
  'P', 'DIV', 'SECTION', 'ARTICLE', 'MAIN', 'HEADER', 'FOOTER', 'NAV', 'ASIDE', 'BLOCKQUOTE', 'PRE', 'UL', 'OL', 'LI', 'TABLE', 'TR', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6',
  'DL', 'DT', 'DD', 'FIGURE', 'FIGCAPTION', 'HR', 'ADDRESS', 'DETAILS', 'SUMMARY', 'CAPTION', 'BODY', 'HTML',
]);
const CELL = new Set(['TD', 'TH']);

/** Nesting deeper than this is read as plain text, so hostile nesting cannot exhaust the stack. */
const MAX_DEPTH = 200;

/** Elements a walk leaves out with everything inside them, beyond the tag names it skips. */
export type Cut = (el: TreeElement) => boolean;

function collect(node: TreeNode, skip: ReadonlySet<string>, depth: number, out: string[], cut?: Cut): void {
  const children = node.childNodes;
  for (let i = 0; i < children.length; i++) {
    const child = children[i]!;
    if (child.nodeType === TEXT_NODE) {
      out.push(child.textContent ?? '');
      continue;
    }
    if (child.nodeType !== ELEMENT_NODE) continue;
    const name = child.nodeName.toUpperCase();
    if (skip.has(name) || cut?.(child as TreeElement)) continue;
    if (name === 'BR') {
      out.push('\n');
      continue;
    }
    if (depth >= MAX_DEPTH) {
      out.push(child.textContent ?? '');
      continue;
    }
    const block = BLOCK.has(name);
    if (block) out.push('\n\n');
    else if (CELL.has(name)) out.push(' ');
    collect(child, skip, depth + 1, out, cut);
    if (block) out.push('\n\n');
  }
}

/** Reading text of a subtree: blocks become paragraphs, `skip` (upper-case tag names) and `cut` add to the elements left out. */
export function textOf(node: TreeNode, skip: readonly string[] = [], cut?: Cut): string {
  const parts: string[] = [];
  collect(node, skip.length ? new Set([...SKIP, ...skip]) : SKIP, 0, parts, cut);
  return tidyText(parts.join(''));
}

/** Collapses spaces inside lines and keeps paragraph breaks as one blank line. */
export function tidyText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t\f\v\u00a0]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Text on one line: for titles, names, descriptions. */
export function oneLine(text: string | null | undefined): string {
  return (text ?? '').replace(/\s+/g, ' ').trim();
}

export function attr(el: TreeElement | null | undefined, name: string): string | undefined {
  const v = el?.getAttribute(name);
  return v ? oneLine(v) || undefined : undefined;
}

/** `content` of the first <meta> whose name or property is one of `keys` (case-insensitive). */
export function metaContent(keys: readonly string[], index: MetaIndex): string | undefined {
  for (const k of keys) {
    const v = index.get(k.toLowerCase());
    if (v) return v;
  }
  return undefined;
}

export type MetaIndex = Map<string, string>;

/** Every <meta name|property|itemprop=... content=...> of the given ones, first value per key, keys lower-cased. */
export function indexMeta(metas: ArrayLike<TreeElement>): MetaIndex {
  const index: MetaIndex = new Map();
  for (let i = 0; i < metas.length; i++) {
    const m = metas[i]!;
    const content = oneLine(m.getAttribute('content'));
    if (!content) continue;
    for (const a of ['property', 'name', 'itemprop', 'http-equiv']) {
      for (const key of (m.getAttribute(a) ?? '').toLowerCase().split(/\s+/)) {
        if (key && !index.has(key)) index.set(key, content);
      }
    }
  }
  return index;
}

export function all(root: { querySelectorAll(selector: string): ArrayLike<DomElement> }, selector: string): DomElement[] {
  return Array.from(root.querySelectorAll(selector));
}

/**
 * The elements under `root` that `pick` files under a key, each key's list in document order, from one
 * walk that leaves template contents out as querySelectorAll does. On linkedom every selector query walks
 * the whole page; a dozen of them cost more than the walk and the checks `pick` makes by hand.
 */
export function collectElements<K extends string, E extends TreeElement = DomElement>(
  root: { firstElementChild: E | null },
  pick: (el: E) => K | undefined,
): Partial<Record<K, E[]>> {
  const out: Partial<Record<K, E[]>> = {};
  let el = root.firstElementChild;
  while (el) {
    const key = pick(el);
    if (key !== undefined) (out[key] ??= []).push(el);
    const down = el.localName === 'template' ? null : (el.firstElementChild as E | null);
    if (down) {
      el = down;
      continue;
    }
    while ((el as unknown) !== root && !el.nextElementSibling) el = el.parentNode as unknown as E;
    if ((el as unknown) === root) break;
    el = el.nextElementSibling as E | null;
  }
  return out;
}

/**
 * Why a page is too big for costly work: elements nesting deeper than `maxDepth` under `root`, or more than
 * `maxElements` of them; undefined when neither (an iterative walk that stops early).
 */
export function oversized(root: TreeNode, maxDepth: number, maxElements: number): string | undefined {
  const stack: Array<[TreeNode, number]> = [[root, 0]];
  let elements = 0;
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (depth > maxDepth) return `elements nest deeper than ${maxDepth} levels`;
    const children = node.childNodes;
    for (let i = 0; i < children.length; i++) {
      if (children[i]!.nodeType !== ELEMENT_NODE) continue;
      if (++elements > maxElements) return `more than ${maxElements} elements`;
      stack.push([children[i]!, depth + 1]);
    }
  }
  return undefined;
}

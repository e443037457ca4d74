import { parseHTML } from 'linkedom';

// The slice of the DOM the extractors use, typed here because the project compiles without the DOM lib.

export interface DomNode {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<DomNode>;
  parentNode: DomNode | null;
}

export interface DomElement extends DomNode {
  tagName: string;
  localName: string;
  attributes: ArrayLike<{ name: string; value: string }>;
  innerHTML: string;
  getAttribute(name: string): string | null;
  hasAttribute(name: string): boolean;
  querySelector(selector: string): DomElement | null;
  querySelectorAll(selector: string): ArrayLike<DomElement>;
  closest(selector: string): DomElement | null;
  cloneNode(deep: boolean): DomElement;
  remove(): void;
}

export interface DomDocument extends DomNode {
  documentElement: DomElement | null;
  body: DomElement | null;
  querySelector(selector: string): DomElement | null;
  querySelectorAll(selector: string): ArrayLike<DomElement>;
}

export const ELEMENT_NODE = 1;
export const TEXT_NODE = 3;

// Comments and the bodies of scripts (except JSON data such as JSON-LD), styles and SVG drawings carry no
// reading text; cutting them before parsing makes the DOM (and everything that walks it) much smaller.
// A scan with indexOf, linear even on hostile input; an unclosed block ends the cutting.
const INERT_OPEN = /<!--|<(script|style|svg)\b([^>]{0,2000})>/gi;
const INERT_CLOSE: Record<string, RegExp> = { script: /<\/script/gi, style: /<\/style/gi, svg: /<\/svg/gi };

/** Where the block opened by `m` ends (just past it), or -1 when it never closes. */
function blockEnd(html: string, m: RegExpExecArray, from: number): number {
  const tag = m[1]?.toLowerCase();
  if (!tag) {
    const close = html.indexOf('-->', m.index + 4);
    return close < 0 ? -1 : close + 3;
  }
  const closer = INERT_CLOSE[tag]!;
  closer.lastIndex = from;
  const close = closer.exec(html);
  return close ? html.indexOf('>', close.index) + 1 || -1 : -1;
}

function withoutInertBlocks(html: string): string {
  const out: string[] = [];
  let pos = 0;
  INERT_OPEN.lastIndex = 0;
  for (let m = INERT_OPEN.exec(html); m; m = INERT_OPEN.exec(html)) {
    const end = blockEnd(html, m, INERT_OPEN.lastIndex);
    if (end < 0) break;
    INERT_OPEN.lastIndex = end;
    if (m[1]?.toLowerCase() === 'script' && /type\s*=\s*["']?application\/(ld\+)?json/i.test(m[2] ?? '')) continue;
    out.push(html.slice(pos, m.index));
    pos = end;
  }
  out.push(html.slice(pos));
  return out.join('');
}

/** Parses a page; a fragment gets an html/body shell so that every extractor sees a whole document. */
export function parseDocument(html: string): DomDocument {
  const whole = /<(html|body|head)[\s>]/i.test(html.slice(0, 4096)) || /<body[\s>]/i.test(html);
  const lean = withoutInertBlocks(html);
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

function collect(node: DomNode, skip: ReadonlySet<string>, depth: number, out: string[]): void {
  const children = node.childNodes;
  for (let i = 0; i < children.length; i++) {
    const child = children[i]!;
    if (child.nodeType === TEXT_NODE) {
      out.push(child.textContent ?? '');
      continue;
    }
    if (child.nodeType !== ELEMENT_NODE) continue;
    const name = child.nodeName.toUpperCase();
    if (skip.has(name)) continue;
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
    collect(child, skip, depth + 1, out);
    if (block) out.push('\n\n');
  }
}

/** Reading text of a subtree: blocks become paragraphs, `skip` (upper-case tag names) adds to the elements left out. */
export function textOf(node: DomNode, skip: readonly string[] = []): string {
  const parts: string[] = [];
  collect(node, skip.length ? new Set([...SKIP, ...skip]) : SKIP, 0, parts);
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

export function attr(el: DomElement | null | undefined, name: string): string | undefined {
  const v = el?.getAttribute(name);
  return v ? oneLine(v) || undefined : undefined;
}

/** `content` of the first <meta> whose name or property is one of `keys` (case-insensitive). */
export function metaContent(doc: DomDocument, keys: readonly string[], index: MetaIndex = indexMeta(doc)): string | undefined {
  for (const k of keys) {
    const v = index.get(k.toLowerCase());
    if (v) return v;
  }
  return undefined;
}

export type MetaIndex = Map<string, string>;

/** Every <meta name|property|itemprop=... content=...>, first value per key, keys lower-cased. */
export function indexMeta(doc: DomDocument): MetaIndex {
  const index: MetaIndex = new Map();
  const metas = doc.querySelectorAll('meta');
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

/** True when elements nest deeper than `limit` under `root` (an iterative walk that stops early). */
export function nestsDeeperThan(root: DomNode, limit: number): boolean {
  const stack: Array<[DomNode, number]> = [[root, 0]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (depth > limit) return true;
    const children = node.childNodes;
    for (let i = 0; i < children.length; i++) if (children[i]!.nodeType === ELEMENT_NODE) stack.push([children[i]!, depth + 1]);
  }
  return false;
}

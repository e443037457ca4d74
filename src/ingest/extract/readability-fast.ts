import { createRequire } from 'node:module';
import { type DomElement, collectElements } from './dom.js';

// Cheaper versions of four of readability's helpers, installed on one Readability instance. Each gives the
// same answer as readability 0.6's own (test/ingest/extract/readability-fast.test.ts compares whole runs);
// they only avoid work that is costly on linkedom, where a node's text is built by walking its whole
// subtree and every selector is compiled anew:
// - _isValidByline read the text of every element it looked at (the html element's is the whole page)
//   before checking the cheap rel / itemprop / class conditions; it now checks those first.
// - _isElementWithoutContent built the full text of every div, section and heading; it now stops at the
//   first character that is not white space.
// - _getAllNodesWithTag compiled a CSS selector on every call; it now walks the elements once. Like
//   querySelectorAll it matches names without regard to case and leaves template contents out.
// - _isProbablyVisible built a style object for every element; an element without a style attribute has
//   no display or visibility to read, so it now looks only at the ones that have one.
// Another readability version keeps its own helpers: these are installed for the 0.6 line only.

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;
const CDATA_SECTION_NODE = 4;

interface Node {
  nodeType: number;
  textContent: string | null;
  firstChild: Node | null;
  nextSibling: Node | null;
  parentNode: Node | null;
}

interface Element extends Node {
  localName: string;
  className?: string;
  children: ArrayLike<Element>;
  getElementsByTagName(name: string): ArrayLike<Element>;
  getAttribute(name: string): string | null;
  hasAttribute(name: string): boolean;
}

interface ReadabilityInternals {
  REGEXPS: { byline: RegExp };
  _isValidByline(node: Element, matchString: string): boolean;
  _isElementWithoutContent(node: Element): boolean;
  _getAllNodesWithTag(node: Element, tagNames: string[]): ArrayLike<Element>;
  _isProbablyVisible(node: Element): boolean;
}

const SUPPORTED = /^0\.6\./;

function readabilityVersion(): string {
  try {
    return (createRequire(import.meta.url)('@mozilla/readability/package.json') as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

/** True when some text node under `root` holds a character that is not white space (what trim() keeps). */
function hasText(root: Node): boolean {
  let node = root.firstChild;
  while (node) {
    if ((node.nodeType === TEXT_NODE || node.nodeType === CDATA_SECTION_NODE) && /\S/.test(node.textContent ?? '')) return true;
    const down = node.nodeType === ELEMENT_NODE ? node.firstChild : null;
    if (down) {
      node = down;
      continue;
    }
    while (node !== root && !node.nextSibling) node = node.parentNode!;
    if (node === root) return false;
    node = node.nextSibling!;
  }
  return false;
}

/** The elements under `root` (not itself) named in `names` (lower case), in document order, template contents left out. */
function elementsNamed(root: Element, names: ReadonlySet<string>): Element[] {
  const pick = (el: DomElement) => (names.has(el.localName) || names.has(el.localName.toLowerCase()) ? 'named' : undefined);
  return (collectElements(root as unknown as DomElement, pick).named ?? []) as unknown as Element[];
}

/** Installs the cheaper helpers on `reader` (a Readability instance) when its version is the one they mirror. */
export function speedUpReadability<T extends object>(reader: T, version: string = readabilityVersion()): T {
  if (!SUPPORTED.test(version)) return reader;
  const r = reader as unknown as ReadabilityInternals;
  const stock = {
    getAllNodesWithTag: r._getAllNodesWithTag,
    isProbablyVisible: r._isProbablyVisible,
  };
  r._isValidByline = function (node, matchString) {
    const rel = node.getAttribute('rel');
    const itemprop = node.getAttribute('itemprop');
    if (!(rel === 'author' || (itemprop && itemprop.includes('author')) || this.REGEXPS.byline.test(matchString))) return false;
    const length = (node.textContent ?? '').trim().length;
    return length > 0 && length < 100;
  };
  r._isElementWithoutContent = function (node) {
    if (node.nodeType !== ELEMENT_NODE || hasText(node)) return false;
    const children = node.children.length;
    return !children || children === node.getElementsByTagName('br').length + node.getElementsByTagName('hr').length;
  };
  r._getAllNodesWithTag = function (node, tagNames) {
    if (tagNames.includes('*')) return stock.getAllNodesWithTag.call(this, node, tagNames);
    return elementsNamed(node, new Set(tagNames.map((t) => t.toLowerCase())));
  };
  r._isProbablyVisible = function (node) {
    if (node.hasAttribute('style')) return stock.isProbablyVisible.call(this, node);
    if (node.hasAttribute('hidden')) return false;
    if (!node.hasAttribute('aria-hidden') || node.getAttribute('aria-hidden') !== 'true') return true;
    return Boolean(node.className && node.className.includes && node.className.includes('fallback-image'));
  };
  return reader;
}

import type { LightElement, LightNode } from '../html/tree.js';

// First pass of the article extractor: one walk over the body that decides what can never be content
// (hidden, furniture, unlikely by its class or role, the byline, a heading that repeats the title) and
// measures every element that remains, bottom up: its visible text, the part of it inside links, commas,
// and the paragraphs, images, inputs and embeds under it.

export interface Stats {
  text: number;
  links: number;
  commas: number;
  headings: number;
  paragraphs: number;
  images: number;
  inputs: number;
  embeds: number;
  /** Some child is a block element (so the element is not a paragraph by itself). */
  blockChild: boolean;
}

export interface ScanOptions {
  /** Cut elements whose class, id or role says they are not content. */
  stripUnlikely: boolean;
  /** Title of the article, so that a heading repeating it is cut. */
  title: string;
  /** Look for a byline in the body (none was declared). */
  findByline: boolean;
}

export interface Scan {
  stats: Map<LightElement, Stats>;
  cut: Set<LightElement>;
  byline: string | undefined;
  /** Elements in document order (cut ones and their insides left out). */
  order: LightElement[];
}


/** Hold no reading text at all. */
const INERT = new Set(['script', 'style', 'noscript', 'template', 'svg', 'math', 'head', 'title', 'meta', 'link']);

/** Never content, with everything inside them. */
const NEVER = new Set([
  'script', 'style', 'noscript', 'template', 'svg', 'math', 'iframe', 'frame', 'object', 'embed', 'canvas', 'button', 'input', 'select',
  'textarea', 'nav', 'aside', 'footer', 'link', 'meta', 'dialog', 'head', 'title',
]);

export const BLOCKS = new Set([
  'address', 'article', 'aside', 'blockquote', 'details', 'dialog', 'dd', 'div', 'dl', 'dt', 'fieldset', 'figcaption', 'figure', 'footer', 'form',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hgroup', 'hr', 'li', 'main', 'nav', 'ol', 'p', 'pre', 'section', 'table', 'ul', 'select', 'img',
]);

const UNLIKELY = /-ad-|ad-break|agegate|ai2html|banner|breadcrumbs|combx|comment|community|cover-wrap|disqus|extra|footer|gdpr|header|legends|menu|pager|paginat|popup|related|remark|replies|rss|shoutbox|sidebar|skyscraper|social|sponsor|supplemental|yom-remote/i;
const MAYBE = /and|article|body|column|content|main|mathjax|shadow/i;
const UNLIKELY_ROLES = new Set(['menu', 'menubar', 'complementary', 'navigation', 'alert', 'alertdialog', 'dialog']);
const BYLINE = /byline|author|dateline|writtenby|p-author/i;
const HIDDEN_STYLE = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)/i;

function classAndId(el: LightElement): string {
  const c = el.attrs['class'];
  const id = el.attrs['id'];
  return c && id ? `${c} ${id}` : (c ?? id ?? '');
}

function hidden(el: LightElement): boolean {
  const style = el.attrs['style'];
  if (style && HIDDEN_STYLE.test(style)) return true;
  if (el.hasAttribute('hidden')) return true;
  return el.attrs['aria-hidden'] === 'true' && !(el.attrs['class'] ?? '').includes('fallback-image');
}

/** Visible characters of a text: runs of white space count as one. */
function visibleLength(s: string): number {
  let n = 0;
  let space = true;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const ws = c === 32 || c === 10 || c === 9 || c === 13 || c === 12 || c === 160;
    if (ws) {
      if (!space) n++;
      space = true;
    } else {
      n++;
      space = false;
    }
  }
  return n;
}

function commasIn(s: string): number {
  let n = 0;
  for (let i = s.indexOf(','); i >= 0; i = s.indexOf(',', i + 1)) n++;
  return n;
}

/** Same words, case and punctuation aside. */
function sameText(a: string, b: string): boolean {
  const fold = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
  return fold(a) === fold(b);
}

function emptyStats(): Stats {
  return { text: 0, links: 0, commas: 0, headings: 0, paragraphs: 0, images: 0, inputs: 0, embeds: 0, blockChild: false };
}

function addInto(into: Stats, from: Stats): void {
  into.text += from.text;
  into.links += from.links;
  into.commas += from.commas;
  into.headings += from.headings;
  into.paragraphs += from.paragraphs;
  into.images += from.images;
  into.inputs += from.inputs;
  into.embeds += from.embeds;
}

class Scanner {
  readonly stats = new Map<LightElement, Stats>();
  readonly cut = new Set<LightElement>();
  readonly order: LightElement[] = [];
  byline: string | undefined;
  constructor(private readonly options: ScanOptions) {}

  /** Why `el` is not content, or '' when it may be. */
  private verdict(el: LightElement): string {
    const name = el.localName;
    if (INERT.has(name)) return 'never';
    if (hidden(el)) return 'hidden';
    const match = classAndId(el);
    if (this.options.findByline && this.byline === undefined && this.isByline(el, match)) return 'byline';
    if ((name === 'h1' || name === 'h2') && this.options.title && sameText(el.textContent, this.options.title)) return 'title';
    if (NEVER.has(name)) return 'never';
    if (!this.options.stripUnlikely || name === 'body' || name === 'a' || name === 'article' || name === 'main') return '';
    if (UNLIKELY.test(match) && !MAYBE.test(match) && !TABLE_PARTS.has(name) && !inTableOrCode(el)) return 'unlikely';
    const role = el.attrs['role'];
    return role && UNLIKELY_ROLES.has(role) ? 'unlikely' : '';
  }

  private isByline(el: LightElement, match: string): boolean {
    const rel = el.attrs['rel'];
    const itemprop = el.attrs['itemprop'];
    if (!(rel === 'author' || itemprop?.includes('author') || BYLINE.test(match))) return false;
    const text = el.textContent.trim();
    if (!text || text.length >= 100) return false;
    this.byline = (namePart(el) ?? text).replace(/\s+/g, ' ');
    return true;
  }

  /** Measures `el` (not cut) and what it holds; its own counts include itself. */
  scan(el: LightElement, depth: number): Stats {
    if (depth > MAX_DEPTH) throw new TooDeep();
    this.order.push(el);
    const s = emptyStats();
    const name = el.localName;
    for (const child of el.childNodes) this.scanChild(child, s, depth);
    if (name === 'a') s.links = s.text;
    else if (name === 'p') s.paragraphs++;
    else if (name === 'img') s.images++;
    else if (name === 'embed' || name === 'object' || name === 'iframe') s.embeds++;
    else if (name.length === 2 && name[0] === 'h' && name[1]! >= '1' && name[1]! <= '6') s.headings = s.text;
    this.stats.set(el, s);
    return s;
  }

  private scanChild(child: LightNode, into: Stats, depth: number): void {
    if (child.nodeType === 3) {
      into.text += visibleLength(child.data);
      into.commas += commasIn(child.data);
      return;
    }
    if (child.localName === 'input') into.inputs++;
    if (this.verdict(child)) {
      this.cut.add(child);
      return;
    }
    if (BLOCKS.has(child.localName)) into.blockChild = true;
    addInto(into, this.scan(child, depth + 1));
  }
}

/** Real pages nest under 40 levels; deeper is read by the basic extractor, whose walk has its own bound. */
export const MAX_DEPTH = 150;

export class TooDeep extends Error {
  constructor() {
    super(`elements nest deeper than ${MAX_DEPTH} levels`);
  }
}

const TABLE_PARTS = new Set(['table', 'tbody', 'thead', 'tfoot', 'tr', 'td', 'th']);

function inTableOrCode(el: LightElement): boolean {
  for (let up = el.parentNode; up && up.nodeType === 1; up = up.parentNode) {
    if (up.localName === 'table' || up.localName === 'code') return true;
  }
  return false;
}

/** The text of a descendant marked itemprop="name", the more exact author name inside a byline. */
function namePart(el: LightElement): string | undefined {
  const stack: LightNode[] = [...el.childNodes];
  while (stack.length) {
    const n = stack.shift()!;
    if (n.nodeType !== 1) continue;
    if (n.attrs['itemprop']?.includes('name')) return n.textContent.trim() || undefined;
    stack.unshift(...n.childNodes);
  }
  return undefined;
}

/** Measures the body: what is cut, and the stats of everything else; throws TooDeep past MAX_DEPTH. */
export function scanBody(body: LightElement, options: ScanOptions): Scan {
  const scanner = new Scanner(options);
  scanner.scan(body, 0);
  return { stats: scanner.stats, cut: scanner.cut, byline: scanner.byline, order: scanner.order };
}

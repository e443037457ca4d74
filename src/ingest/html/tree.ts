import { Parser } from 'htmlparser2';

// A light, read-only page tree for the extraction fast path: htmlparser2's tokenizer (which also closes
// implied elements: <p> before a block, <li> before <li>, ...) feeding plain objects. It carries the slice
// of the DOM that the metadata reader, the text walk and the sanitizer use (nodeType, nodeName, childNodes,
// parentNode, textContent, getAttribute, firstElementChild, nextElementSibling), so one code path serves it
// and linkedom alike, at about a fifth of linkedom's build cost.

export type LightNode = LightElement | LightText;
export type LightParent = LightElement | LightDocument;

const NO_CHILDREN: readonly LightNode[] = Object.freeze([]);

export class LightText {
  readonly nodeType = 3;
  readonly nodeName = '#text';
  readonly childNodes = NO_CHILDREN;
  parentNode: LightElement | null = null;
  constructor(public data: string) {}
  get textContent(): string {
    return this.data;
  }
}

export class LightElement {
  readonly nodeType = 1;
  readonly nodeName: string;
  readonly childNodes: LightNode[] = [];
  parentNode: LightParent | null = null;
  firstElementChild: LightElement | null = null;
  lastElementChild: LightElement | null = null;
  nextElementSibling: LightElement | null = null;
  constructor(
    readonly localName: string,
    readonly attrs: Record<string, string>,
  ) {
    this.nodeName = localName.toUpperCase();
  }
  get tagName(): string {
    return this.nodeName;
  }
  getAttribute(name: string): string | null {
    return Object.hasOwn(this.attrs, name) ? this.attrs[name]! : null;
  }
  hasAttribute(name: string): boolean {
    return Object.hasOwn(this.attrs, name);
  }
  get textContent(): string {
    return textUnder(this);
  }
}

export class LightDocument {
  readonly nodeType = 9;
  readonly nodeName = '#document';
  readonly textContent = null;
  readonly parentNode = null;
  readonly documentElement = new LightElement('html', {});
  readonly head = new LightElement('head', {});
  readonly body = new LightElement('body', {});
  readonly childNodes: LightNode[] = [this.documentElement];
  readonly firstElementChild = this.documentElement;
  constructor() {
    this.documentElement.parentNode = this;
    append(this.documentElement, this.head);
    append(this.documentElement, this.body);
  }
}

function append(parent: LightElement, child: LightNode): void {
  child.parentNode = parent;
  parent.childNodes.push(child);
  if (child.nodeType !== 1) return;
  if (parent.lastElementChild) parent.lastElementChild.nextElementSibling = child;
  else parent.firstElementChild = child;
  parent.lastElementChild = child;
}

/** All text under `root`, in document order (an explicit stack: nesting depth costs no call stack). */
export function textUnder(root: LightElement): string {
  const parts: string[] = [];
  const stack: LightNode[] = [root];
  while (stack.length) {
    const node = stack.pop()!;
    if (node.nodeType === 3) {
      parts.push(node.data);
      continue;
    }
    const kids = node.childNodes;
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
  }
  return parts.join('');
}

/** Elements that belong in <head> when they come before the body starts. */
const HEAD_CONTENT = new Set(['title', 'meta', 'link', 'base', 'style', 'script', 'noscript', 'template']);

/** Copies attributes the skeleton element lacks (a repeated <html> or <body> adds, never replaces). */
function mergeAttrs(el: LightElement, attrs: Record<string, string>): void {
  for (const [k, v] of Object.entries(attrs)) if (!el.hasAttribute(k)) el.attrs[k] = v;
}

/** Builds the tree; a fragment lands in the body of an html/head/body skeleton, as a browser would put it. */
export function parseLight(html: string): LightDocument {
  const doc = new LightDocument();
  const open: LightElement[] = [];
  let inBody = false;
  const parentFor = (name: string | null): LightElement => {
    const top = open[open.length - 1];
    const headContent = name !== null && HEAD_CONTENT.has(name);
    if (top && top !== doc.documentElement && (top !== doc.head || headContent)) return top;
    if (!inBody && headContent) return doc.head;
    inBody = true;
    return doc.body;
  };
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (name === 'html' || name === 'head' || name === 'body') {
          const el = name === 'html' ? doc.documentElement : name === 'head' ? doc.head : doc.body;
          mergeAttrs(el, attribs);
          if (name === 'body') inBody = true;
          open.push(el);
          return;
        }
        const el = new LightElement(name, attribs);
        append(parentFor(name), el);
        open.push(el);
      },
      onclosetag() {
        open.pop();
      },
      ontext(data) {
        const top = open[open.length - 1];
        const blank = !/\S/.test(data);
        if (blank && (!top || top === doc.documentElement || (top === doc.head && !inBody))) return;
        const parent = blank ? (top ?? doc.head) : parentFor(null);
        const last = parent.childNodes[parent.childNodes.length - 1];
        if (last?.nodeType === 3) last.data += data;
        else append(parent, new LightText(data));
      },
    },
    { decodeEntities: true },
  );
  parser.end(html);
  return doc;
}

// The page side of inspect_dom, as source text (see browser.ts for why not a function). Depth-first from
// the first match, open shadow roots first; script, style and template content left out. Everything is
// read through prototype accessors, so page elements named like DOM members cannot shadow them.

export interface RawDomNode {
  index: number;
  parentIndex: number | null;
  depth: number;
  tag: string;
  attrs: Array<[string, string]>;
  text: string;
  rect: { x: number; y: number; width: number; height: number };
  styles: { display: string; visibility: string };
}

export type RawDomResult = { status: 'invalid' } | { status: 'none' } | { status: 'ok'; nodes: RawDomNode[]; truncated: boolean; baseURI: string };

export const DOM_SCRIPT = `(args) => {
  const get = (proto, name) => Object.getOwnPropertyDescriptor(proto, name).get;
  const childNodesOf = get(Node.prototype, 'childNodes');
  const nodeTypeOf = get(Node.prototype, 'nodeType');
  const baseOf = get(Node.prototype, 'baseURI');
  const localNameOf = get(Element.prototype, 'localName');
  const attributesOf = get(Element.prototype, 'attributes');
  const shadowOf = get(Element.prototype, 'shadowRoot');
  const dataOf = get(CharacterData.prototype, 'data');
  const rectOf = Element.prototype.getBoundingClientRect;
  const styleOf = window.getComputedStyle;
  const SKIP = new Set(['script', 'style', 'template']);
  let root;
  try { root = Document.prototype.querySelector.call(document, args.selector); } catch (e) { return { status: 'invalid' }; }
  if (!root) return { status: 'none' };
  const elementsOf = (parent) => {
    const out = [];
    const kids = childNodesOf.call(parent);
    for (let i = 0; i < kids.length; i++) if (nodeTypeOf.call(kids[i]) === 1) out.push(kids[i]);
    return out;
  };
  const nodes = [];
  let truncated = false;
  const stack = [[root, null, 0]];
  while (stack.length > 0) {
    if (nodes.length >= args.maxNodes) { truncated = true; break; }
    const [el, parentIndex, depth] = stack.pop();
    const index = nodes.length;
    const attrs = [];
    const list = attributesOf.call(el);
    for (let i = 0; i < list.length; i++) attrs.push([list[i].name, list[i].value]);
    let text = '';
    const kids = childNodesOf.call(el);
    for (let i = 0; i < kids.length; i++) if (nodeTypeOf.call(kids[i]) === 3) text += dataOf.call(kids[i]);
    const r = rectOf.call(el);
    const cs = styleOf(el);
    nodes.push({ index, parentIndex, depth, tag: String(localNameOf.call(el)).toLowerCase(), attrs, text,
      rect: { x: r.x, y: r.y, width: r.width, height: r.height }, styles: { display: cs.display, visibility: cs.visibility } });
    const shadow = shadowOf.call(el);
    const children = (shadow ? elementsOf(shadow) : []).concat(elementsOf(el)).filter((c) => !SKIP.has(String(localNameOf.call(c)).toLowerCase()));
    if (children.length === 0) continue;
    if (depth >= args.maxDepth) { truncated = true; continue; }
    for (let i = children.length - 1; i >= 0; i--) stack.push([children[i], index, depth + 1]);
  }
  return { status: 'ok', nodes, truncated, baseURI: baseOf.call(document) };
}`;

import { type Cut, ELEMENT_NODE, TEXT_NODE, type TreeElement, type TreeNode } from './extract/dom.js';

// The stored preview: an allowlist walk over a parsed page that writes new, inert HTML.
//
// Safety scheme:
// - Only the elements in KEEP survive as elements; the ones in DROP go with everything inside them
//   (scripts, styles, frames, objects, embeds, media, form controls, SVG/MathML); any other element
//   (div soup, custom elements, <form>, <font>) is unwrapped: its children stay, it does not.
// - No attribute survives unless allowed below: no on* handlers, style, class, id, srcset, target.
// - Links and images are inert references. A link keeps no href: its resolved http(s) or mailto target
//   is written as data-href. An image keeps no src: its resolved http(s) source is written as data-src.
//   Every other scheme (javascript:, data:, vbscript:, file:, ...) is dropped. Showing the preview
//   therefore runs nothing and loads nothing; a viewer that wants live links copies data-href into
//   href after its own checks, with rel="noopener noreferrer".

const DROP = new Set([
  'script', 'style', 'noscript', 'template', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'param', 'input', 'button', 'select',
  'option', 'optgroup', 'textarea', 'datalist', 'output', 'svg', 'math', 'canvas', 'audio', 'video', 'source', 'track', 'picture', 'link', 'meta',
  'base', 'head', 'title', 'dialog', 'portal', 'slot', 'map', 'area',
]);

const KEEP = new Set([
  'p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'dl', 'dt', 'dd', 'blockquote', 'pre', 'code', 'kbd', 'samp', 'var', 'em', 'strong',
  'b', 'i', 'u', 's', 'small', 'sub', 'sup', 'mark', 'abbr', 'cite', 'q', 'time', 'br', 'hr', 'table', 'thead', 'tbody', 'tfoot', 'tr', 'th',
  'td', 'caption', 'colgroup', 'col', 'figure', 'figcaption', 'img', 'a', 'details', 'summary', 'del', 'ins', 'wbr', 'section', 'article',
  'header', 'footer', 'aside', 'main', 'nav', 'div', 'span', 'address', 'bdi', 'bdo', 'dfn', 'ruby', 'rt', 'rp',
]);

const VOID = new Set(['br', 'hr', 'img', 'wbr', 'col']);

/** Attributes copied as they are (after escaping), per element; '*' applies to all. */
const PLAIN_ATTRS: Record<string, readonly string[]> = {
  '*': ['title', 'lang'],
  img: ['alt'],
  td: ['colspan', 'rowspan'],
  th: ['colspan', 'rowspan', 'scope'],
  ol: ['start', 'reversed'],
  li: ['value'],
  time: ['datetime'],
  abbr: ['title'],
};

const NUMERIC_ATTRS = new Set(['colspan', 'rowspan', 'start', 'value', 'width', 'height']);

/** Nesting deeper than this is written as text only, so hostile nesting cannot exhaust the stack. */
const MAX_DEPTH = 200;

export function escapeText(s: string): string {
  return s.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
}

function escapeAttr(s: string): string {
  return s.replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'));
}

function inertUrl(raw: string | null, base: URL, schemes: readonly string[]): string | undefined {
  if (!raw) return undefined;
  try {
    // Browsers ignore ASCII whitespace and controls inside a URL; drop them before judging the scheme.
    const u = new URL(raw.replace(/[\u0000-\u0020\u007f]+/g, ''), base);
    return schemes.includes(u.protocol) ? u.href : undefined;
  } catch {
    return undefined;
  }
}

function attributes(el: TreeElement, tag: string, base: URL): string {
  const out: string[] = [];
  for (const name of [...PLAIN_ATTRS['*']!, ...(PLAIN_ATTRS[tag] ?? [])]) {
    const v = el.getAttribute(name);
    if (v === null || (NUMERIC_ATTRS.has(name) && !/^\d{1,4}$/.test(v.trim()))) continue;
    out.push(` ${name}="${escapeAttr(v)}"`);
  }
  const dir = el.getAttribute('dir')?.toLowerCase();
  if (dir === 'ltr' || dir === 'rtl' || dir === 'auto') out.push(` dir="${dir}"`);
  if (tag === 'a') {
    const href = inertUrl(el.getAttribute('href'), base, ['http:', 'https:', 'mailto:']);
    if (href) out.push(` data-href="${escapeAttr(href)}"`);
  }
  if (tag === 'img') {
    const src = inertUrl(el.getAttribute('src') ?? el.getAttribute('data-src') ?? el.getAttribute('data-original'), base, ['http:', 'https:']);
    if (src) out.push(` data-src="${escapeAttr(src)}"`);
    for (const dim of ['width', 'height']) {
      const v = el.getAttribute(dim)?.trim();
      if (v && /^\d{1,4}$/.test(v)) out.push(` ${dim}="${v}"`);
    }
  }
  return out.join('');
}

function walk(node: TreeNode, base: URL, depth: number, out: string[], cut?: Cut): void {
  const children = node.childNodes;
  for (let i = 0; i < children.length; i++) {
    const child = children[i]!;
    if (child.nodeType === TEXT_NODE) {
      out.push(escapeText(child.textContent ?? ''));
      continue;
    }
    if (child.nodeType !== ELEMENT_NODE) continue;
    const tag = child.nodeName.toLowerCase();
    if (DROP.has(tag) || cut?.(child as TreeElement)) continue;
    if (depth >= MAX_DEPTH) {
      out.push(escapeText(child.textContent ?? ''));
      continue;
    }
    if (!KEEP.has(tag)) {
      walk(child, base, depth + 1, out, cut);
      continue;
    }
    out.push(`<${tag}${attributes(child as TreeElement, tag, base)}>`);
    if (VOID.has(tag)) continue;
    walk(child, base, depth + 1, out, cut);
    out.push(`</${tag}>`);
  }
}

/** Inert HTML of a node's children (see the scheme above), `cut` elements left out; relative links resolve against `base`. */
export function sanitizeHtml(root: TreeNode, base: URL, cut?: Cut): string {
  const out: string[] = [];
  walk(root, base, 0, out, cut);
  return out.join('').replace(/\n{3,}/g, '\n\n').trim();
}

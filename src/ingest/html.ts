import { parseHTML } from 'linkedom';

const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'IFRAME', 'OBJECT', 'CANVAS', 'HEAD', 'TITLE', 'NAV', 'FOOTER', 'FORM', 'BUTTON', 'SELECT']);
const BLOCK = new Set(['P', 'DIV', 'SECTION', 'ARTICLE', 'MAIN', 'HEADER', 'ASIDE', 'BLOCKQUOTE', 'PRE', 'UL', 'OL', 'LI', 'TABLE', 'TR', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'DL', 'DT', 'DD', 'FIGURE', 'FIGCAPTION', 'HR', 'ADDRESS', 'DETAILS', 'SUMMARY']);

export interface ExtractedPage {
  title: string;
  text: string;
  metadata: Record<string, unknown>;
}

interface DomNode {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<DomNode>;
}

function collect(node: DomNode, out: string[]): void {
  for (let i = 0; i < node.childNodes.length; i++) {
    const child = node.childNodes[i]!;
    if (child.nodeType === 3) {
      out.push(child.textContent ?? '');
      continue;
    }
    if (child.nodeType !== 1 || SKIP.has(child.nodeName)) continue;
    if (child.nodeName === 'BR') {
      out.push('\n');
      continue;
    }
    const block = BLOCK.has(child.nodeName);
    if (block) out.push('\n\n');
    collect(child, out);
    if (block) out.push('\n\n');
  }
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

type Doc = ReturnType<typeof parseHTML>['document'];

function meta(doc: Doc, selector: string): string | undefined {
  const v = doc.querySelector(selector)?.getAttribute('content')?.trim();
  return v || undefined;
}

/** Title, readable text and basic metadata of an HTML page (step 2 adds article extraction). */
export function extractHtml(html: string): ExtractedPage {
  const { document } = parseHTML(html);
  const title = (document.querySelector('title')?.textContent ?? '').trim()
    || meta(document, 'meta[property="og:title"]')
    || (document.querySelector('h1')?.textContent ?? '').trim();
  const parts: string[] = [];
  // From the document itself: linkedom adds no <html>/<body> to fragments, and its `body` getter throws on bare text.
  collect(document as unknown as DomNode, parts);
  const metadata: Record<string, unknown> = {};
  const description = meta(document, 'meta[name="description"]') ?? meta(document, 'meta[property="og:description"]');
  if (description) metadata.description = description;
  const lang = document.documentElement?.getAttribute('lang')?.trim();
  if (lang) metadata.lang = lang;
  return { title: tidyText(title).replace(/\n+/g, ' '), text: tidyText(parts.join('')), metadata };
}

import type { LightElement, LightNode } from '../html/tree.js';
import { sanitizeHtml } from '../sanitize.js';
import { articleFacts, articleMeta, titleFromDocument } from './article-meta.js';
import { type Scan, type ScanOptions, TooDeep, scanBody } from './article-scan.js';
import { type SelectOptions, Selection } from './article-select.js';
import { type Cut, collectElements, fragmentOf, oneLine, textOf } from './dom.js';
import { jsonLdFacts, readJsonLd } from './jsonld.js';
import { compact } from './metadata.js';
import type { Extractor, LightPage, Outcome } from './types.js';

// trove's own article extractor, on the light tree: the main text of a page without its furniture, with the
// article's title, byline and excerpt. Each attempt relaxes the one before (keep unlikely-named elements,
// ignore class names, keep every container) until the text is long enough; when none finds an article the
// registry falls back to readability, then to the basic extractor.

/** Shorter "articles" mean no article was found (a listing, a home page). */
export const MIN_ARTICLE_CHARS = 200;
/** Text this long ends the attempts. */
const ENOUGH_CHARS = 500;

type Attempt = Omit<ScanOptions, 'title' | 'findByline'> & SelectOptions;
const ATTEMPTS: readonly Attempt[] = [
  { stripUnlikely: true, weighClasses: true, clean: true },
  { stripUnlikely: false, weighClasses: true, clean: true },
  { stripUnlikely: false, weighClasses: false, clean: true },
  { stripUnlikely: false, weighClasses: false, clean: false },
];

interface Read {
  scan: Scan;
  roots: LightElement[];
  cut: Cut;
  text: string;
  byline: string | undefined;
}

function readOnce(body: LightElement, title: string, findByline: boolean, attempt: Attempt): Read {
  const scan: Scan = scanBody(body, { ...attempt, title, findByline });
  const selection = new Selection(scan, body, attempt);
  const roots = selection.roots();
  const rootSet = new Set(roots);
  const cut: Cut = (el) => scan.cut.has(el as LightElement) || (!rootSet.has(el as LightElement) && selection.cutInArticle(el as LightElement));
  return { scan, roots, cut, text: textOf(fragmentOf(roots), [], cut), byline: scan.byline };
}

/** Text of the first paragraph (a <p>, or a div of inline content) left in the article: the excerpt when the page declares none. */
function firstParagraph(read: Read): string | undefined {
  const stack: LightNode[] = [...read.roots].reverse();
  while (stack.length) {
    const n = stack.pop()!;
    if (n.nodeType !== 1 || read.cut(n)) continue;
    const stats = read.scan.stats.get(n);
    if (n.localName === 'p' || (n.localName === 'div' && stats && stats.text > 0 && !stats.blockChild)) return oneLine(textOf(n, [], read.cut)) || undefined;
    for (let i = n.childNodes.length - 1; i >= 0; i--) stack.push(n.childNodes[i]!);
  }
  return undefined;
}

function headingTexts(body: LightElement): { h1: string[]; h2: string[] } {
  const found = collectElements<'h1' | 'h2', LightElement>(body, (el) => (el.localName === 'h1' || el.localName === 'h2' ? el.localName : undefined));
  return { h1: (found.h1 ?? []).map((h) => h.textContent), h2: (found.h2 ?? []).map((h) => h.textContent) };
}

export function readArticle(page: LightPage, url: URL): Outcome {
  const { doc, elements } = page;
  const facts = articleFacts(articleMeta(elements.meta ?? []), jsonLdFacts(readJsonLd(elements.script ?? [])));
  let title = facts.declaredTitle;
  if (!title) {
    const { h1, h2 } = headingTexts(doc.body);
    title = titleFromDocument(oneLine(elements.title?.[0]?.textContent), h1, h2);
  }
  let best: Read | undefined;
  try {
    for (const attempt of ATTEMPTS) {
      const read = readOnce(doc.body, title, !facts.metadata.author, attempt);
      if (!best || read.text.length > best.text.length) best = read;
      if (read.text.length >= ENOUGH_CHARS) break;
    }
  } catch (err) {
    if (err instanceof TooDeep) return { status: 'next', reason: err.message };
    throw err;
  }
  const metadata = compact({
    ...facts.metadata,
    author: facts.metadata.author ?? best!.byline,
    description: facts.metadata.description ?? firstParagraph(best!),
  });
  if (best!.text.length < MIN_ARTICLE_CHARS) return { status: 'next', reason: `article text under ${MIN_ARTICLE_CHARS} characters`, metadata };
  return { status: 'success', result: { title, text: best!.text, html: sanitizeHtml(fragmentOf(best!.roots), url, best!.cut), metadata } };
}

export function createArticleExtractor(): Extractor {
  return {
    name: 'article',
    capabilities: ['text', 'metadata', 'preview'],
    matches: (input) => input.html !== undefined,
    run: (input, ctx) => readArticle(ctx.page(), input.url),
  };
}

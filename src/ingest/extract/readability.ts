import { Readability } from '@mozilla/readability';
import { sanitizeHtml } from '../sanitize.js';
import { type DomElement, collectElements, indexMeta, metaContent, oneLine, oversized, textOf } from './dom.js';
import { MIN_ARTICLE_CHARS } from './article.js';
import { trimSiteSuffix } from './article-meta.js';
import { compact } from './metadata.js';
import { speedUpReadability } from './readability-fast.js';
import type { Extractor, PageMetadata } from './types.js';

// Articles by @mozilla/readability over the linkedom DOM (it only needs the DOM Core calls linkedom has):
// the fallback when trove's own article extractor (article.ts) finds no article, and a preview users can ask for.

/**
 * Pages with more elements than this skip readability, whose scoring grows faster than the page. Counted
 * here: readability's own maxElemsToParse counts getElementsByTagName('*'), which linkedom answers empty.
 */
const MAX_ELEMENTS = 40_000;
/** Readability's time grows steeply with nesting (800 nested divs take seconds); real pages nest under 40. */
const MAX_NESTING = 100;

/** Meta tags readability takes a title from as it is, uncut. */
const META_TITLES = ['dc:title', 'dc.title', 'dcterm:title', 'dcterms.title', 'og:title', 'weibo:article:title', 'weibo:webpage:title', 'title', 'twitter:title', 'parsely-title'];

function articleTitle(found: string | null | undefined, docTitle: string, fromMeta: boolean): string {
  const title = oneLine(found);
  return title && !fromMeta && title === docTitle ? trimSiteSuffix(title) : title;
}

export function createReadabilityExtractor(): Extractor {
  return {
    name: 'readability',
    capabilities: ['text', 'metadata', 'preview'],
    matches: (input) => input.html !== undefined,
    run: (input, ctx) => {
      const doc = ctx.takeDocument();
      const docTitle = oneLine(doc.querySelector('title')?.textContent);
      const metas = collectElements(doc, (el) => (el.localName === 'meta' ? 'meta' : undefined)).meta ?? [];
      const fromMeta = metaContent(META_TITLES, indexMeta(metas)) !== undefined;
      const tooBig = oversized(doc, MAX_NESTING, MAX_ELEMENTS);
      if (tooBig) return { status: 'next', reason: tooBig };
      let article: ReturnType<Readability<DomElement>['parse']>;
      try {
        const reader = speedUpReadability(new Readability<DomElement>(doc as never, { serializer: (node) => node as unknown as DomElement }));
        article = reader.parse();
      } catch (err) {
        return { status: 'next', reason: `readability failed: ${(err as Error).message}` };
      }
      if (!article?.content) return { status: 'next', reason: 'readability found no article' };
      const metadata: PageMetadata = compact({
        author: oneLine(article.byline) || undefined,
        description: oneLine(article.excerpt) || undefined,
        site_name: oneLine(article.siteName) || undefined,
        published: oneLine(article.publishedTime) || undefined,
      });
      const text = textOf(article.content);
      if (text.length < MIN_ARTICLE_CHARS) return { status: 'next', reason: `article text under ${MIN_ARTICLE_CHARS} characters`, metadata };
      return {
        status: 'success',
        result: { title: articleTitle(article.title, docTitle, fromMeta), text, html: sanitizeHtml(article.content, input.url), metadata },
      };
    },
  };
}

import { Readability } from '@mozilla/readability';
import { sanitizeHtml } from '../sanitize.js';
import { type DomElement, metaContent, oneLine, oversized, textOf } from './dom.js';
import { compact } from './metadata.js';
import { speedUpReadability } from './readability-fast.js';
import type { Extractor, PageMetadata } from './types.js';

// Articles: @mozilla/readability over the linkedom DOM (it only needs the DOM Core calls linkedom has).

/** Shorter "articles" mean readability found no article (a listing, a home page): the basic extractor keeps more. */
const MIN_ARTICLE_CHARS = 200;
/**
 * Pages with more elements than this skip readability, whose scoring grows faster than the page. Counted
 * here: readability's own maxElemsToParse counts getElementsByTagName('*'), which linkedom answers empty.
 */
const MAX_ELEMENTS = 40_000;
/** Readability's time grows steeply with nesting (800 nested divs take seconds); real pages nest under 40. */
const MAX_NESTING = 100;

const SEPARATOR = / [|\-–—\\/>»] /g;

function words(s: string): number {
  return s.split(/\s+/).filter(Boolean).length;
}

/**
 * Readability cuts a site name off a <title> only after an ASCII separator ("Story - Site");
 * the same for the en and em dashes ("Story – Site"), with its rule that the rest keeps over four words.
 */
export function trimSiteSuffix(title: string): string {
  if (!/ [–—] /.test(title)) return title;
  const cuts = [...title.matchAll(SEPARATOR)];
  const last = cuts[cuts.length - 1];
  if (!last) return title;
  const head = title.slice(0, last.index).trim();
  return words(head) > 4 ? head : title;
}

/** Meta tags readability takes a title from as it is, uncut. */
const META_TITLES = ['dc:title', 'dc.title', 'dcterm:title', 'dcterms.title', 'og:title', 'weibo:article:title', 'weibo:webpage:title', 'title', 'twitter:title', 'parsely-title'];

function articleTitle(found: string | null | undefined, docTitle: string, fromMeta: boolean): string {
  const title = oneLine(found);
  return title && !fromMeta && title === docTitle ? trimSiteSuffix(title) : title;
}

export function createArticleExtractor(): Extractor {
  return {
    name: 'article',
    capabilities: ['text', 'metadata', 'preview'],
    matches: (input) => input.html !== undefined,
    run: (input, ctx) => {
      const doc = ctx.takeDocument();
      const docTitle = oneLine(doc.querySelector('title')?.textContent);
      const fromMeta = metaContent(doc, META_TITLES) !== undefined;
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

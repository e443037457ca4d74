import { type TreeElement, metaContent } from './dom.js';
import type { JsonLdFacts } from './jsonld.js';
import type { PageMetadata } from './types.js';

// The title, byline, excerpt, site name and publication time of an article, read the way readers expect
// them (and the way readability's test expectations name them): schema.org article JSON-LD first, then
// meta tags in a fixed order, then the page's own <title> cut at its separators.

const TITLE_KEYS = ['dc:title', 'dcterm:title', 'og:title', 'weibo:article:title', 'weibo:webpage:title', 'title', 'twitter:title', 'parsely-title'];
const AUTHOR_KEYS = ['dc:creator', 'dcterm:creator', 'author', 'parsely-author'];
const EXCERPT_KEYS = ['dc:description', 'dcterm:description', 'og:description', 'weibo:article:description', 'weibo:webpage:description', 'description', 'twitter:description'];
const PUBLISHED_KEYS = ['article:published_time', 'parsely-pub-date'];

/** The meta names and properties an article's facts come from; a page may name them with '.' or ':' and any case. */
const BY_NAME = /^(?:(?:dc|dcterm|og|twitter|parsely|weibo:(?:article|webpage))\s*[-.:]\s*)?(?:author|creator|pub-date|description|title|site_name)$/;
const BY_PROPERTY = /^(?:article|dc|dcterm|og|twitter)\s*:\s*(?:author|creator|description|published_time|title|site_name)$/;

type ArticleMeta = Map<string, string>;

/** Those metas, keyed in lower case with '.' read as ':', the last one of a key winning. */
export function articleMeta(metas: readonly TreeElement[]): ArticleMeta {
  const out: ArticleMeta = new Map();
  for (const m of metas) {
    const content = (m.getAttribute('content') ?? '').replace(/\s+/g, ' ').trim();
    if (!content) continue;
    for (const token of (m.getAttribute('property') ?? '').toLowerCase().split(/\s+/)) {
      if (BY_PROPERTY.test(token)) out.set(token.replace(/\s+/g, ''), content);
    }
    const name = (m.getAttribute('name') ?? '').toLowerCase().trim();
    if (BY_NAME.test(name)) out.set(name.replace(/\s+/g, '').replace(/\./g, ':'), content);
  }
  return out;
}

/** JSON-LD types whose item describes the article itself. */
const ARTICLE_TYPE = /Article|Posting|^Report$|APIReference/;

function wordCount(s: string): number {
  return s.split(/\s+/).filter(Boolean).length;
}

const SEPARATOR = / [|\-\\/>»] /;
const SEPARATORS = / [|\-\\/>»] /g;
const HIERARCHICAL = / [\\/>»] /;
const DASHES = / [–—] /;

/** "Story – Site" and "Story — Site": the part before the last dash when it keeps more than four words. */
export function trimSiteSuffix(title: string): string {
  if (!DASHES.test(title)) return title;
  const cuts = [...title.matchAll(/ [|\-–—\\/>»] /g)];
  const last = cuts[cuts.length - 1]!;
  const head = title.slice(0, last.index).trim();
  return wordCount(head) > 4 ? head : title;
}

/**
 * The article's title from the page's <title>: a site name after a separator ("Story | Site") is cut, a
 * section before a colon ("Site: Story") too unless a heading repeats the whole title; a title too short or
 * too long gives way to the page's only <h1>. A cut that leaves four words or fewer is undone.
 */
export function titleFromDocument(docTitle: string, h1s: readonly string[], h2s: readonly string[]): string {
  const whole = docTitle.replace(/\s+/g, ' ').trim();
  let title = whole;
  let hierarchical = false;
  if (SEPARATOR.test(whole)) {
    hierarchical = HIERARCHICAL.test(whole);
    const cuts = [...whole.matchAll(SEPARATORS)];
    title = whole.slice(0, cuts[cuts.length - 1]!.index);
    if (wordCount(title) < 3) title = whole.replace(/^[^|\-\\/>»]*[|\-\\/>»]/, '');
  } else if (whole.includes(': ')) {
    const repeated = [...h1s, ...h2s].some((h) => h.trim() === whole);
    if (!repeated) {
      title = whole.slice(whole.lastIndexOf(':') + 1);
      if (wordCount(title) < 3) title = whole.slice(whole.indexOf(':') + 1);
      else if (wordCount(whole.slice(0, whole.indexOf(':'))) > 5) title = whole;
    }
  } else if ((whole.length > 150 || whole.length < 15) && h1s.length === 1) {
    title = h1s[0]!.replace(/\s+/g, ' ');
  }
  title = title.replace(/\s+/g, ' ').trim();
  const words = wordCount(title);
  if (words <= 4 && (!hierarchical || words !== wordCount(whole.replace(/[|\-\\/>»]+/g, '')) - 1)) title = whole;
  return trimSiteSuffix(title);
}

export interface ArticleFacts {
  /** Declared by JSON-LD or a meta tag (kept as it is), else '' (the extractor reads the <title>). */
  declaredTitle: string;
  metadata: PageMetadata;
}

/** What an article declares about itself; the byline and excerpt may still come from its body. */
export function articleFacts(meta: ArticleMeta, ld: JsonLdFacts): ArticleFacts {
  const article = ld.type !== undefined && ARTICLE_TYPE.test(ld.type) ? ld : {};
  const profile = meta.get('article:author');
  return {
    declaredTitle: article.title ?? metaContent(TITLE_KEYS, meta) ?? '',
    metadata: {
      author: article.author ?? metaContent(AUTHOR_KEYS, meta) ?? (profile && !/^https?:\/\//i.test(profile) ? profile : undefined),
      description: article.description ?? metaContent(EXCERPT_KEYS, meta),
      site_name: article.site_name ?? meta.get('og:site_name'),
      published: article.published ?? metaContent(PUBLISHED_KEYS, meta),
    },
  };
}

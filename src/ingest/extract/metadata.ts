import { type MetaIndex, type TreeDocument, type TreeElement, attr, collectElements, indexMeta, metaContent, oneLine } from './dom.js';
import { jsonLdFacts, keepJsonLd, readJsonLd } from './jsonld.js';
import type { Extractor, PageMetadata } from './types.js';

// Metadata enrichment from JSON-LD, OpenGraph, Twitter cards and plain meta tags.
// JSON-LD is the most specific source, then OpenGraph/article:*, then Twitter, then classic meta names.

const LONG_TEXT = 2000;
const SHORT_TEXT = 500;
const MAX_VIDEOS = 20;

const AUTHOR_KEYS = ['author', 'article:author', 'dc.creator', 'dc:creator', 'dcterms.creator', 'dcterm:creator', 'parsely-author', 'sailthru.author', 'byl', 'citation_author'];
const PUBLISHED_KEYS = ['article:published_time', 'og:published_time', 'datepublished', 'parsely-pub-date', 'dc.date', 'dc.date.issued', 'dcterms.date', 'dcterms.created', 'dcterms.issued', 'citation_publication_date', 'publish-date', 'pubdate', 'date', 'sailthru.date'];
const MODIFIED_KEYS = ['article:modified_time', 'og:updated_time', 'datemodified', 'dcterms.modified', 'last-modified'];
const DESCRIPTION_KEYS = ['description', 'og:description', 'twitter:description', 'dc.description', 'dc:description', 'dcterms.description'];
const TITLE_KEYS = ['og:title', 'twitter:title', 'dc.title', 'dc:title', 'dcterms.title', 'parsely-title'];
const IMAGE_KEYS = ['og:image', 'og:image:url', 'og:image:secure_url', 'twitter:image', 'twitter:image:src', 'thumbnailurl'];
const VIDEO_KEYS = ['og:video', 'og:video:url', 'og:video:secure_url', 'twitter:player', 'twitter:player:stream'];

/** Iframes from these hosts are embedded videos. */
const VIDEO_HOSTS = /(^|\.)(youtube\.com|youtube-nocookie\.com|youtu\.be|vimeo\.com|dailymotion\.com|twitch\.tv|ted\.com|archive\.org|bilibili\.com|vk\.com|rumble\.com|streamable\.com|wistia\.(com|net)|loom\.com)$/i;

function clip(v: string | undefined, max: number): string | undefined {
  if (!v) return undefined;
  return v.length > max ? `${v.slice(0, max - 1)}…` : v;
}

/** An http(s) URL resolved against the page, else undefined. */
export function absoluteUrl(raw: string | null | undefined, base: URL): string | undefined {
  if (!raw) return undefined;
  try {
    const u = new URL(raw.trim(), base);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : undefined;
  } catch {
    return undefined;
  }
}

function authorFromMeta(meta: MetaIndex): string | undefined {
  for (const key of AUTHOR_KEYS) {
    const v = meta.get(key);
    // article:author is often a profile URL, which names nobody.
    if (!v || /^https?:\/\//i.test(v)) continue;
    return key === 'byl' ? v.replace(/^by\s+/i, '') : v;
  }
  return undefined;
}

function declaredLanguage(doc: TreeDocument, meta: MetaIndex): string | undefined {
  const lang = attr(doc.documentElement, 'lang') ?? attr(doc.documentElement, 'xml:lang') ?? meta.get('content-language') ?? meta.get('language');
  if (lang) return lang;
  const locale = meta.get('og:locale');
  return locale ? locale.replace('_', '-') : undefined;
}

function embeddedVideos(found: PageElements, meta: MetaIndex, fromJsonLd: string[], base: URL): string[] {
  const raw: Array<string | undefined> = [...VIDEO_KEYS.map((k) => meta.get(k)), ...fromJsonLd];
  for (const frame of found.frame ?? []) {
    const src = absoluteUrl(frame.getAttribute('src') ?? frame.getAttribute('data-src'), base);
    if (src && VIDEO_HOSTS.test(new URL(src).hostname)) raw.push(src);
  }
  for (const v of found.video ?? []) raw.push(v.getAttribute('src') ?? undefined);
  const out = new Set<string>();
  for (const r of raw) {
    const u = absoluteUrl(r, base);
    if (u && out.size < MAX_VIDEOS) out.add(u);
  }
  return [...out];
}

/**
 * What the metadata reads, sorted in one walk; each kind is what a selector picked before:
 * meta: 'meta'; script: 'script[type]'; frame: 'iframe[src], embed[src], iframe[data-src]';
 * video: 'video[src], video source[src]'; imageLink: 'link[rel="image_src"]' (rel compared without case,
 * as selectors do in HTML); time: 'time[pubdate], time[itemprop="datePublished"]'; title: 'title'.
 */
export type PageElementKind = 'meta' | 'script' | 'frame' | 'video' | 'imageLink' | 'time' | 'title';
export type PageElements = Partial<Record<PageElementKind, TreeElement[]>>;

export function pageElements(doc: TreeDocument): PageElements {
  return collectElements<PageElementKind, TreeElement>(doc, kindOf);
}

function inside(el: TreeElement, nodeName: string): boolean {
  for (let up = el.parentNode; up; up = up.parentNode) if (up.nodeName === nodeName) return true;
  return false;
}
const insideVideo = (el: TreeElement) => inside(el, 'VIDEO');
// linkedom names SVG elements in lower case (their XML namespace keeps case); the light tree upper-cases every name.
const insideSvg = (el: TreeElement) => inside(el, 'SVG') || inside(el, 'svg');

function kindOf(el: TreeElement): PageElementKind | undefined {
  switch (el.localName) {
    case 'meta':
      return 'meta';
    case 'script':
      return el.hasAttribute('type') ? 'script' : undefined;
    case 'iframe':
      return el.hasAttribute('src') || el.hasAttribute('data-src') ? 'frame' : undefined;
    case 'embed':
      return el.hasAttribute('src') ? 'frame' : undefined;
    case 'video':
      return el.hasAttribute('src') ? 'video' : undefined;
    case 'source':
      return el.hasAttribute('src') && insideVideo(el) ? 'video' : undefined;
    case 'link':
      return el.getAttribute('rel')?.toLowerCase() === 'image_src' ? 'imageLink' : undefined;
    case 'time':
      return el.hasAttribute('pubdate') || el.getAttribute('itemprop') === 'datePublished' ? 'time' : undefined;
    case 'title':
      return insideSvg(el) ? undefined : 'title';
    default:
      return undefined;
  }
}

export interface PageFacts {
  title: string;
  metadata: PageMetadata;
}

/** Title and metadata a page declares about itself. */
export function pageFacts(doc: TreeDocument, base: URL, found: PageElements = pageElements(doc)): PageFacts {
  const meta = indexMeta(found.meta ?? []);
  const blocks = readJsonLd(found.script ?? []);
  const ld = jsonLdFacts(blocks);
  const imageLink = found.imageLink?.[0]?.getAttribute('href');
  const m: PageMetadata = {
    author: clip(ld.author ?? authorFromMeta(meta), SHORT_TEXT),
    published: clip(ld.published ?? metaContent(PUBLISHED_KEYS, meta) ?? attr(found.time?.[0], 'datetime'), SHORT_TEXT),
    modified: clip(ld.modified ?? metaContent(MODIFIED_KEYS, meta), SHORT_TEXT),
    description: clip(metaContent(DESCRIPTION_KEYS, meta) ?? ld.description, LONG_TEXT),
    site_name: clip(meta.get('og:site_name') ?? ld.site_name ?? meta.get('application-name'), SHORT_TEXT),
    type: clip(ld.type ?? meta.get('og:type'), SHORT_TEXT),
    language: clip(declaredLanguage(doc, meta) ?? ld.language, 64),
    image: absoluteUrl(ld.image ?? metaContent(IMAGE_KEYS, meta) ?? imageLink, base),
    videos: embeddedVideos(found, meta, ld.videos ?? [], base),
    json_ld: keepJsonLd(blocks),
  };
  const title = metaContent(TITLE_KEYS, meta) ?? ld.title ?? oneLine(found.title?.[0]?.textContent);
  return { title: clip(title, LONG_TEXT) ?? '', metadata: compact(m) };
}

/** The metadata without empty values. */
export function compact(m: PageMetadata): PageMetadata {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(m)) {
    if (v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0)) continue;
    out[k] = v;
  }
  return out as PageMetadata;
}

export function createMetadataExtractor(): Extractor {
  return {
    name: 'metadata',
    capabilities: ['metadata'],
    matches: (input) => input.html !== undefined,
    run: (input, ctx) => {
      const { doc, elements } = ctx.page();
      const facts = pageFacts(doc, input.url, elements);
      return { status: 'enrich', metadata: facts.metadata, title: facts.title };
    },
  };
}

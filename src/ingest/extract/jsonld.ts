import { type TreeElement, oneLine } from './dom.js';
import type { PageMetadata } from './types.js';

// JSON-LD blocks of a page (schema.org), and the metadata of its main item.

type Json = Record<string, unknown>;

/** Serialized JSON-LD kept per document at most; a bigger block is left out (the raw HTML still has it). */
const MAX_JSON_LD_CHARS = 32_768;

const ARTICLE_TYPES = /Article|BlogPosting|Posting|Report|Review|Recipe|HowTo|QAPage|Question|Thesis|Book|Movie|Episode|Course|Event|Product|VideoObject|WebPage|CreativeWork/;

function parseBlock(raw: string): unknown {
  const body = raw.replace(/^\s*(<!--|<!\[CDATA\[)/, '').replace(/(-->|\]\]>)\s*$/, '').trim();
  if (!body) return undefined;
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

/** Parsed JSON-LD blocks of the given scripts, unparseable ones skipped. */
export function readJsonLd(scripts: readonly TreeElement[]): unknown[] {
  const out: unknown[] = [];
  for (const script of scripts) {
    if (!/^\s*application\/ld\+json\s*$/i.test(script.getAttribute('type') ?? '')) continue;
    const value = parseBlock(script.textContent ?? '');
    if (value !== undefined && value !== null) out.push(value);
  }
  return out;
}

/** The blocks to store: whole blocks while they fit in the size budget. */
export function keepJsonLd(blocks: unknown[]): unknown[] | undefined {
  const kept: unknown[] = [];
  let size = 0;
  for (const b of blocks) {
    const n = JSON.stringify(b).length;
    if (size + n > MAX_JSON_LD_CHARS) continue;
    kept.push(b);
    size += n;
  }
  return kept.length ? kept : undefined;
}

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Every item of the blocks, @graph members included. */
function items(blocks: unknown[]): Json[] {
  const out: Json[] = [];
  const visit = (v: unknown, depth: number) => {
    if (depth > 4) return;
    if (Array.isArray(v)) for (const x of v) visit(x, depth + 1);
    else if (isObject(v)) {
      out.push(v);
      if (v['@graph'] !== undefined) visit(v['@graph'], depth + 1);
    }
  };
  visit(blocks, 0);
  return out;
}

function typesOf(item: Json): string[] {
  const t = item['@type'];
  return (Array.isArray(t) ? t : [t]).filter((x): x is string => typeof x === 'string');
}

/** A string, or the `name` (or `url`) of an object, or the first of an array. */
function textValue(v: unknown, key = 'name'): string | undefined {
  if (typeof v === 'string') return oneLine(v) || undefined;
  if (typeof v === 'number') return String(v);
  if (Array.isArray(v)) return textValue(v[0], key);
  if (isObject(v)) return textValue(v[key]);
  return undefined;
}

function names(v: unknown): string | undefined {
  const list = (Array.isArray(v) ? v : [v]).map((x) => textValue(x)).filter((x): x is string => !!x);
  return list.length ? [...new Set(list)].join(', ') : undefined;
}

function mainItem(all: Json[]): Json | undefined {
  const typed = all.filter((i) => typesOf(i).length > 0);
  const score = (i: Json) => {
    const types = typesOf(i).join(' ');
    if (/Article|BlogPosting|Posting|Report/.test(types)) return 3;
    if (ARTICLE_TYPES.test(types) && !/^(WebSite|Organization|BreadcrumbList)$/.test(types)) return 2;
    return i['headline'] || i['author'] ? 1 : 0;
  };
  let best: Json | undefined;
  for (const i of typed) if (!best || score(i) > score(best)) best = i;
  return best && score(best) > 0 ? best : undefined;
}

function videoUrls(all: Json[], main: Json | undefined): string[] {
  const out: string[] = [];
  const add = (v: unknown) => {
    for (const x of Array.isArray(v) ? v : [v]) {
      if (!isObject(x)) continue;
      for (const key of ['embedUrl', 'contentUrl']) if (typeof x[key] === 'string') out.push(x[key] as string);
    }
  };
  for (const i of all) if (typesOf(i).includes('VideoObject')) add(i);
  if (main) add(main['video']);
  return out;
}

export interface JsonLdFacts extends PageMetadata {
  title?: string;
}

/** Metadata of the page's main JSON-LD item (an article if there is one), plus every video it names. */
export function jsonLdFacts(blocks: unknown[]): JsonLdFacts {
  const list = items(blocks);
  const main = mainItem(list);
  const facts: JsonLdFacts = {};
  const videos = videoUrls(list, main);
  if (videos.length) facts.videos = videos;
  if (!main) return facts;
  const set = <K extends keyof JsonLdFacts>(key: K, value: JsonLdFacts[K] | undefined) => {
    if (value) facts[key] = value;
  };
  set('title', textValue(main['headline']) ?? textValue(main['name']));
  set('author', names(main['author']) ?? names(main['creator']));
  set('published', textValue(main['datePublished']) ?? textValue(main['dateCreated']));
  set('modified', textValue(main['dateModified']));
  set('description', textValue(main['description']));
  set('site_name', isObject(main['publisher']) ? textValue(main['publisher']) : undefined);
  set('type', typesOf(main)[0]);
  set('language', textValue(main['inLanguage'], 'alternateName'));
  set('image', textValue(main['image'], 'url') ?? textValue(main['thumbnailUrl']));
  return facts;
}

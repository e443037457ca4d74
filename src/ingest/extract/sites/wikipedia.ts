import { sanitizeHtml } from '../../sanitize.js';
import { type DomElement, all, oneLine, textOf } from '../dom.js';
import type { Extractor } from '../types.js';

// Wikipedia and its sister wikis: the article body without edit links, footnote markers, navigation
// boxes, maintenance banners and the reference list, which readability keeps and which drown search.

const HOSTS = /(^|\.)(wikipedia|wiktionary|wikivoyage|wikibooks|wikiquote|wikisource|wikinews|wikiversity)\.org$/i;

const NOISE = [
  '.mw-editsection', 'sup.reference', '.reference', '.mw-cite-backlink', '.navbox', '.vertical-navbox', '.reflist', 'ol.references', '.refbegin',
  '#toc', '.toc', '.mw-jump-link', '.metadata', '.ambox', '.sistersitebox', '.noprint', '.mw-empty-elt', 'style', 'link', '.catlinks', '.authority-control',
].join(', ');

/** A copy of the article body with the noise removed (the shared page stays untouched). */
function cleanBody(body: DomElement): DomElement {
  const copy = body.cloneNode(true);
  for (const el of all(copy, NOISE)) el.remove();
  return copy;
}

export function createWikipediaExtractor(): Extractor {
  return {
    name: 'wikipedia',
    capabilities: ['text', 'metadata', 'preview'],
    matches: (input) => input.html !== undefined && HOSTS.test(input.url.hostname),
    run: (input, ctx) => {
      const doc = ctx.document();
      const body = doc.querySelector('#mw-content-text .mw-parser-output') ?? doc.querySelector('#mw-content-text');
      if (!body) return { status: 'next', reason: 'no #mw-content-text on the page' };
      const clean = cleanBody(body);
      const text = textOf(clean);
      if (!text) return { status: 'next', reason: 'empty article body' };
      const heading = oneLine(doc.querySelector('#firstHeading')?.textContent);
      const lead = all(clean, 'p').map((p) => oneLine(p.textContent)).find((t) => t.length > 40);
      return {
        status: 'success',
        result: {
          // The heading names the article; the page's JSON-LD headline is its short description.
          title: heading || oneLine(doc.querySelector('title')?.textContent) || ctx.title,
          text: heading ? `${heading}\n\n${text}` : text,
          html: sanitizeHtml(clean, input.url),
          metadata: { description: ctx.metadata.description ?? lead },
        },
      };
    },
  };
}

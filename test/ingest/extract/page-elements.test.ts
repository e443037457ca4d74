import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type TreeElement, parseDocument } from '../../../src/ingest/extract/dom.js';
import { parseLight } from '../../../src/ingest/html/tree.js';
import { type PageElementKind, pageElements } from '../../../src/ingest/extract/metadata.js';
import { FIXTURE_PAGES, fixture } from './fixtures.js';

describe('metadata elements from one walk', () => {
  const SELECTORS: Record<PageElementKind, string> = {
    meta: 'meta',
    script: 'script[type]',
    frame: 'iframe[src], embed[src], iframe[data-src]',
    video: 'video[src], video source[src]',
    imageLink: 'link[rel="image_src"]',
    time: 'time[pubdate], time[itemprop="datePublished"]',
    title: 'title',
  };
  const EDGES = `<html><head><meta name="a" content="1"><script>x()</script><script type="text/plain">y</script>
    <link rel="IMAGE_SRC" href="/a.png"><link rel="image_src icon" href="/b.png"></head><body>
    <iframe data-src="https://www.youtube.com/embed/1"></iframe><embed src="/e.swf"><embed><iframe></iframe>
    <picture><source src="/p.webp"></picture><video src="/v.mp4"></video><video><source src="/w.mp4"><source></video>
    <time pubdate datetime="2020">x</time><time itemprop="datepublished">y</time><time itemprop="datePublished">z</time>
    <template><meta name="t" content="2"><iframe src="/t"></iframe></template><meta property="og:x" content="3"></body></html>`;

  test('each kind holds what its selector picks, in the same order', () => {
    for (const html of [...FIXTURE_PAGES.map((p) => fixture(p.file)), EDGES]) {
      for (const keep of [false, true]) {
        const doc = parseDocument(html, { keepInertBlocks: keep });
        const found = pageElements(doc);
        for (const [kind, selector] of Object.entries(SELECTORS) as Array<[PageElementKind, string]>) {
          assert.deepEqual(found[kind] ?? [], Array.from(doc.querySelectorAll(selector)), `${kind} in ${html.slice(0, 60)}`);
        }
      }
    }
  });

  /** What a test can compare across two trees: the name, the attributes and the text. */
  const shape = (el: TreeElement) => {
    const attrs: Record<string, string | null> = {};
    for (const a of ['name', 'property', 'content', 'type', 'src', 'data-src', 'href', 'datetime']) attrs[a] = el.getAttribute(a);
    return { name: el.localName, attrs, text: el.textContent };
  };

  test('the light tree finds the same elements as linkedom', () => {
    for (const html of [...FIXTURE_PAGES.map((p) => fixture(p.file)), EDGES]) {
      const light = pageElements(parseLight(html));
      const dom = pageElements(parseDocument(html, { keepInertBlocks: true }));
      for (const kind of Object.keys(SELECTORS) as PageElementKind[]) {
        assert.deepEqual((light[kind] ?? []).map(shape), (dom[kind] ?? []).map(shape), `${kind} in ${html.slice(0, 60)}`);
      }
    }
  });
});

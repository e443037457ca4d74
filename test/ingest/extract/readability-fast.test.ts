import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Readability } from '@mozilla/readability';
import { createExtractors, extract } from '../../../src/ingest/extract/index.js';
import { parseDocument } from '../../../src/ingest/extract/dom.js';
import { speedUpReadability } from '../../../src/ingest/extract/readability-fast.js';
import { FIXTURE_PAGES, fixture } from './fixtures.js';

// The sped-up helpers must answer exactly as readability's own: whole runs and single calls compared.

type Any = any; // readability's helpers are internal: no types for them

function run(html: string, fast: boolean): unknown {
  const reader = new Readability(parseDocument(html) as never, { serializer: (el: Any) => el.innerHTML });
  return (fast ? speedUpReadability(reader) : reader).parse();
}

const EDGE_CASES = `<html><head><title>Edge cases of the helpers</title></head><body>
  <div class="byline">By <span itemprop="name">Ann Writer</span></div>
  <a rel="author" href="/ann">Ann</a>
  <div id="empty">   </div><section><br><hr></section><h2>\u00a0</h2><div><![CDATA[ ]]></div>
  <div style="display:none">hidden by style</div><div style="visibility: hidden">invisible</div>
  <div hidden>hidden attribute</div><div aria-hidden="true">aria hidden</div>
  <div aria-hidden="true" class="fallback-image">math fallback</div>
  <template><p>template paragraph</p></template>
  <article><P>Upper-case paragraph one, long enough to count as reading text, with commas, and more words.</P>
  <p>Another paragraph, with commas, to give the article a score and some length for readability to keep.</p>
  <p>A third paragraph: readability wants five hundred characters before it stops retrying without its flags,
  so this text goes on for a while about otters, kelp forests, sea urchins and the cold Pacific water.</p></article>
</body></html>`;

describe('readability helpers sped up for linkedom', () => {
  test('whole runs give the same article on every fixture page and on edge cases', () => {
    for (const { file } of FIXTURE_PAGES) assert.deepEqual(run(fixture(file), true), run(fixture(file), false), file);
    assert.deepEqual(run(EDGE_CASES, true), run(EDGE_CASES, false));
  });

  test('each helper answers as readability 0.6 does, element by element', () => {
    for (const html of [...FIXTURE_PAGES.map((p) => fixture(p.file)), EDGE_CASES]) {
      // Parsed whole (templates, scripts and SVG kept), plus elements made the way readability makes them.
      const doc = parseDocument(html, { keepInertBlocks: true }) as Any;
      const made = doc.createElement('P');
      made.appendChild(doc.createTextNode('made by createElement("P")'));
      doc.body.appendChild(made);
      doc.body.appendChild(doc.createElement('DIV'));
      const stock = new Readability(doc) as Any;
      const fast = speedUpReadability(new Readability(doc) as Any);
      const elements = [doc.documentElement, ...doc.querySelectorAll('*')];
      for (const el of elements) {
        const matchString = `${el.className} ${el.id}`;
        const where = `<${el.localName} class="${el.className}">`;
        assert.equal(fast._isValidByline(el, matchString), stock._isValidByline(el, matchString), `byline ${where}`);
        assert.equal(fast._isElementWithoutContent(el), stock._isElementWithoutContent(el), `without content ${where}`);
        assert.equal(Boolean(fast._isProbablyVisible(el)), Boolean(stock._isProbablyVisible(el)), `visible ${where}`);
        for (const tags of [['p'], ['h1', 'h2'], ['img', 'picture', 'figure'], ['template', 'br']]) {
          assert.deepEqual([...fast._getAllNodesWithTag(el, tags)], [...stock._getAllNodesWithTag(el, tags)], `${tags} under ${where}`);
        }
      }
    }
  });

  test('another readability version keeps its own helpers', () => {
    const reader = new Readability(parseDocument(EDGE_CASES) as never) as Any;
    speedUpReadability(reader, '0.7.0');
    assert.equal(Object.hasOwn(reader, '_isValidByline'), false);
    speedUpReadability(reader);
    assert.equal(Object.hasOwn(reader, '_isValidByline'), true, 'installed for the version in node_modules (0.6)');
  });

  test('pages with more elements than readability is given fall back to the basic extractor; the article extractor reads them', async () => {
    const html = `<html><body><h1>Huge</h1>${'<p>row</p>'.repeat(40_001)}</body></html>`;
    const url = new URL('https://huge.example/');
    const r = await extract({ url, html }, createExtractors().filter((e) => e.name !== 'article'));
    assert.equal(r.extractor, 'basic');
    assert.deepEqual(r.skipped, [{ extractor: 'readability', reason: 'more than 40000 elements' }]);
    const own = await extract({ url, html }, createExtractors());
    assert.equal(own.extractor, 'article', 'a linear walk has no element limit');
    assert.equal(own.text.split('\n\n').length, 40_002);
  });
});

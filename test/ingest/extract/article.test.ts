import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { titleFromDocument, trimSiteSuffix } from '../../../src/ingest/extract/article-meta.js';
import { createExtractors, extract } from '../../../src/ingest/extract/index.js';

const URL_ = new URL('https://news.example/2024/river');

const PARAGRAPHS = [
  'The river that runs through the old town rose by two metres overnight, flooding the market square, the school yard and the lower streets.',
  'Residents, shopkeepers and volunteers spent the morning moving stock, furniture and documents to the upper floors, while the fire brigade pumped water from cellars.',
  'Engineers say the embankment, built in 1952, was never meant for rain like this, and that a new wall, a pumping station and wider channels are needed.',
  'The council will meet on Friday to discuss emergency funding, temporary housing for families whose homes are damaged, and how to warn people sooner.',
];

function page(opts: { head?: string; beforeArticle?: string; insideArticle?: string } = {}): string {
  return `<!doctype html><html lang="en"><head><title>River floods the old town after record rain | The Example News</title>${opts.head ?? ''}</head>
<body>
  <nav class="site-nav"><a href="/">Home</a> <a href="/world">World</a> <a href="/sport">Sport</a></nav>
  <div id="page">
    ${opts.beforeArticle ?? ''}
    <div class="main-column">
      <article class="story">
        <h1>River floods the old town after record rain</h1>
        ${PARAGRAPHS.map((p) => `<p>${p}</p>`).join('\n        ')}
        ${opts.insideArticle ?? ''}
      </article>
    </div>
    <aside class="sidebar"><h3>Most read</h3><ul><li><a href="/a">A celebrity did a thing</a></li><li><a href="/b">Ten tips</a></li></ul></aside>
    <div class="comments"><p>First! This is a comment, with commas, that goes on, and on, and on about nothing at all.</p></div>
  </div>
  <footer class="site-footer"><p>Copyright The Example News, all rights reserved, since 1901.</p></footer>
</body></html>`;
}

const run = (html: string) => extract({ url: URL_, html }, createExtractors());

describe('article extractor (light tree)', () => {
  test('keeps the article and leaves navigation, sidebars, comments and footers out', async () => {
    const r = await run(page());
    assert.equal(r.extractor, 'article');
    for (const p of PARAGRAPHS) assert.ok(r.text.includes(p), p.slice(0, 30));
    for (const junk of ['Home', 'Most read', 'celebrity', 'First!', 'Copyright']) assert.ok(!r.text.includes(junk), junk);
    assert.equal(r.title, 'River floods the old town after record rain');
    assert.ok(!r.text.startsWith('River floods'), 'the heading that repeats the title is left out of the text');
    assert.equal(r.metadata.description, PARAGRAPHS[0], 'the first paragraph is the excerpt when the page declares none');
  });

  test('the preview is inert HTML of the same selection', async () => {
    const r = await run(page({ insideArticle: '<p>See <a href="/more" onclick="steal()">more</a>.<script>alert(1)</script><img src="x.png" onerror="x()"></p>' }));
    assert.ok(r.html);
    assert.ok(r.html.includes('<p>The river that runs'), r.html.slice(0, 80));
    assert.ok(r.html.includes('data-href="https://news.example/more"'));
    assert.ok(r.html.includes('data-src="https://news.example/2024/x.png"'));
    for (const bad of ['<script', 'onclick', 'onerror', 'href="/more"', 'Most read', 'site-nav']) assert.ok(!r.html.includes(bad), bad);
  });

  test('a byline in the body names the author and leaves the text; a declared author wins', async () => {
    const byline = '<p class="byline">By Jane Roe</p>';
    const found = await run(page().replace('<h1>', `${byline}<h1>`));
    assert.equal(found.metadata.author, 'By Jane Roe');
    assert.ok(!found.text.includes('Jane Roe'));
    const named = await run(page().replace('<h1>', '<div class="author-box">Written by <span itemprop="name">Jane Roe</span></div><h1>'));
    assert.equal(named.metadata.author, 'Jane Roe', 'the itemprop=name part of a byline');
    const declared = await run(page({ head: '<meta name="author" content="Ann Author">' }).replace('<h1>', `${byline}<h1>`));
    assert.equal(declared.metadata.author, 'Ann Author');
  });

  test('declared metadata: JSON-LD article first, then meta tags in order', async () => {
    const ld = { '@context': 'https://schema.org', '@type': 'NewsArticle', headline: 'Floods: the full story', author: { '@type': 'Person', name: 'Lee Writer' }, datePublished: '2024-05-01T10:00:00Z', publisher: { name: 'Example News' } };
    const r = await run(page({ head: `<script type="application/ld+json">${JSON.stringify(ld)}</script><meta property="og:description" content="What happened in the old town."><meta property="og:site_name" content="Example">` }));
    assert.equal(r.title, 'Floods: the full story');
    assert.equal(r.metadata.author, 'Lee Writer');
    assert.equal(r.metadata.published, '2024-05-01T10:00:00Z');
    assert.equal(r.metadata.site_name, 'Example News');
    assert.equal(r.metadata.description, 'What happened in the old town.');
    const meta = await run(page({ head: '<meta property="og:title" content="OG title"><meta name="twitter:title" content="Twitter title"><meta name="DC.Creator" content="First"><meta name="DC.Creator" content="Last">' }));
    assert.equal(meta.title, 'OG title');
    assert.equal(meta.metadata.author, 'Last', 'of a repeated meta tag the last one counts');
  });

  test('hidden elements are not text', async () => {
    const hidden = '<p style="display: none">HIDDEN-A</p><p hidden>HIDDEN-B</p><p aria-hidden="true">HIDDEN-C</p><p style="visibility:hidden">HIDDEN-D</p>';
    const r = await run(page({ insideArticle: hidden }));
    assert.equal(r.extractor, 'article');
    assert.ok(!/HIDDEN/.test(r.text), r.text);
  });

  test('data tables stay; link lists and short fragments inside the article go', async () => {
    const table = `<table><caption>Water levels</caption><tr><th>Day</th><th>Level</th></tr><tr><td>Monday</td><td>2.1 m</td></tr></table>`;
    const links = '<div class="more"><a href="/1">Other story one</a> <a href="/2">Other story two</a> <a href="/3">Other story three</a></div>';
    const r = await run(page({ insideArticle: `${table}${links}` }));
    assert.ok(r.text.includes('Water levels') && r.text.includes('2.1 m'), r.text);
    assert.ok(!r.text.includes('Other story'), r.text);
  });

  test('nesting deeper than the walk allows falls back to the basic extractor, reasons kept', async () => {
    const html = `<html><body>${'<div>'.repeat(5000)}<p>${PARAGRAPHS.join(' ')}</p>${'</div>'.repeat(5000)}</body></html>`;
    const r = await run(html);
    assert.equal(r.extractor, 'basic');
    assert.deepEqual(r.skipped.map((s) => s.extractor), ['article', 'readability']);
    assert.match(r.skipped[0]!.reason, /nest deeper than 150/);
    assert.ok(r.text.includes(PARAGRAPHS[0]!));
  });

  test('a page with too little text for an article goes to readability, then basic', async () => {
    const r = await run('<html><head><title>Tiny</title></head><body><p>Just a line.</p></body></html>');
    assert.equal(r.extractor, 'basic');
    assert.deepEqual(r.skipped.map((s) => s.extractor), ['article', 'readability']);
    assert.equal(r.text, 'Just a line.');
  });
});

describe('article title from <title>', () => {
  test('a site name after a separator is cut when enough words remain', () => {
    assert.equal(titleFromDocument('How the river changed the town - The Daily Bugle', [], []), 'How the river changed the town');
    assert.equal(titleFromDocument('Short one | Site', [], []), 'Short one | Site', 'a cut leaving too few words is undone');
    assert.equal(titleFromDocument('A story about five long words – Site', [], []), 'A story about five long words', 'en dash');
    assert.equal(trimSiteSuffix('Four words only here — Site'), 'Four words only here — Site');
  });

  test('a section before a colon is cut unless a heading repeats the title', () => {
    assert.equal(titleFromDocument('Gardening: how to grow tomatoes in pots', [], []), 'how to grow tomatoes in pots');
    assert.equal(titleFromDocument('Gardening: how to grow tomatoes in pots', ['Gardening: how to grow tomatoes in pots'], []), 'Gardening: how to grow tomatoes in pots');
  });

  test('a very short title gives way to the only h1', () => {
    assert.equal(titleFromDocument('Hi', ['A much longer headline for this page'], []), 'A much longer headline for this page');
    assert.equal(titleFromDocument('Hi', ['One', 'Two'], []), 'Hi', 'not when there are several');
  });
});

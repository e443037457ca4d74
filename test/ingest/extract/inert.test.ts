import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createExtractors, extract } from '../../../src/ingest/extract/index.js';
import { withoutInertBlocks } from '../../../src/ingest/extract/inert.js';
import { FIXTURE_PAGES, fixture } from './fixtures.js';

describe('cutting inert blocks before parsing', () => {
  test('comments and the bodies of scripts, styles, SVG and templates go; JSON scripts and noscript stay', () => {
    const html = [
      '<head><title>T</title><!-- a comment --><style>p { color: red }</style>',
      '<script>var x = "</p>";</script><script type="application/ld+json">{"@type":"Article","author":"A"}</script>',
      '<script type=application/json id=data>{"a":1}</script></head>',
      '<body><p>one</p><svg viewBox="0 0 1 1"><text>drawn</text></svg><template><p>later</p></template>',
      '<noscript><img src="x.png"></noscript><p>two</p></body>',
    ].join('');
    const lean = withoutInertBlocks(html);
    for (const gone of ['a comment', 'color: red', 'var x', 'drawn', 'later']) assert.ok(!lean.includes(gone), gone);
    for (const kept of ['"author":"A"', '{"a":1}', '<noscript><img src="x.png"></noscript>', '<p>one</p>', '<p>two</p>', '<title>T</title>']) assert.ok(lean.includes(kept), kept);
  });

  test('a self-closing <svg/> is cut alone, not up to a later </svg>', () => {
    const lean = withoutInertBlocks('<p>a</p><svg class="icon" /><p>keep me</p><svg><path/></svg><p>b</p>');
    assert.equal(lean, '<p>a</p><p>keep me</p><p>b</p>');
  });

  test('an unclosed block ends the cutting: the rest of the page stays as it is', () => {
    assert.equal(withoutInertBlocks('<p>a</p><!-- x --><p>b</p><script>never closed <p>c</p>'), '<p>a</p><p>b</p><script>never closed <p>c</p>');
    assert.equal(withoutInertBlocks('<p>a</p><!-- open'), '<p>a</p><!-- open');
  });

  test('a page without blocks comes back unchanged; uppercase tags are cut too', () => {
    const plain = '<html><body><p>Plain page</p></body></html>';
    assert.equal(withoutInertBlocks(plain), plain);
    assert.equal(withoutInertBlocks('<P>x</P><SCRIPT>y()</SCRIPT><STYLE>z</STYLE>'), '<P>x</P>');
  });

  test('hostile openings (no ">", attributes without end) are read once and kept', () => {
    const hostile = `${'<script'.repeat(20_000)}<p>text</p>${'<svg a="'.repeat(5000)}${'x'.repeat(50_000)}`;
    const lean = withoutInertBlocks(hostile);
    assert.ok(lean.includes('<p>text</p>'));
    assert.equal(lean.length, hostile.length);
  });

  test('every fixture page extracts the same with and without the cutting; JSON-LD metadata survives it', async () => {
    const extractors = createExtractors();
    for (const { file, url } of FIXTURE_PAGES) {
      const input = { url: new URL(url), html: fixture(file) };
      const cut = await extract(input, extractors);
      const whole = await extract(input, extractors, { keepInertBlocks: true });
      assert.deepEqual(cut, whole, file);
    }
    const article = await extract({ url: new URL('https://gazette.example.com/2024/otters'), html: fixture('article.html') }, extractors);
    assert.equal(article.metadata.author, 'Jane Marsh', 'from the JSON-LD block');
    assert.equal((article.metadata.json_ld?.[0] as Record<string, unknown>)['@type'], 'NewsArticle');
  });
});

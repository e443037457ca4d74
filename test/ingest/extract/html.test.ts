import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { TroveError } from '../../../src/errors.js';
import { trimSiteSuffix } from '../../../src/ingest/extract/article-meta.js';
import { extractPage, fixture } from './fixtures.js';

describe('article extraction (readability)', () => {
  test('keeps the article, drops navigation, footer, scripts and forms', async () => {
    const r = await extractPage(fixture('article.html'), 'https://gazette.example.com/2024/otters');
    assert.equal(r.extractor, 'article');
    assert.equal(r.title, 'How Otters Keep Warm');
    assert.match(r.text, /densest fur of any animal/);
    assert.match(r.text, /cracking them open on a stone/);
    assert.match(r.text, /\n\n/, 'paragraphs stay apart');
    for (const junk of ['Sport', 'Subscribe', 'All rights reserved', 'tracker', 'background']) assert.ok(!r.text.includes(junk), junk);
  });

  test('metadata from JSON-LD, OpenGraph, Twitter and meta tags', async () => {
    const r = await extractPage(fixture('article.html'), 'https://gazette.example.com/2024/otters');
    const m = r.metadata;
    assert.equal(m.author, 'Jane Marsh', 'the JSON-LD author beats <meta name=author>');
    assert.equal(m.published, '2024-03-01T08:00:00Z');
    assert.equal(m.modified, '2024-03-02T09:30:00Z');
    assert.equal(m.description, 'Sea otters have the densest fur of any animal, and they groom it constantly.');
    assert.equal(m.site_name, 'The River Gazette');
    assert.equal(m.type, 'NewsArticle');
    assert.equal(m.language, 'en-GB');
    assert.equal(m.image, 'https://gazette.example.com/images/otter.jpg', 'resolved against the page');
    assert.deepEqual(m.videos, ['https://videos.example.org/otter.mp4', 'https://www.youtube.com/embed/abc123XYZ']);
    assert.equal((m.json_ld?.[0] as Record<string, unknown>)['@type'], 'NewsArticle');
  });

  test('meta tags alone, when a page has no JSON-LD', async () => {
    const html = `<html lang="fr"><head><title>Page</title>
      <meta name="author" content="Claude Martin"><meta property="og:locale" content="fr_FR">
      <meta name="twitter:description" content="Une description"><meta name="twitter:image" content="https://img.example.fr/a.png">
      <meta name="twitter:player" content="https://player.example.fr/embed/7"><meta name="dcterms.modified" content="2023-01-02">
      <meta name="date" content="2023-01-01"><meta property="og:type" content="article"></head><body><p>Bonjour.</p></body></html>`;
    const m = (await extractPage(html, 'https://exemple.fr/a')).metadata;
    assert.equal(m.author, 'Claude Martin');
    assert.equal(m.description, 'Une description');
    assert.equal(m.image, 'https://img.example.fr/a.png');
    assert.deepEqual(m.videos, ['https://player.example.fr/embed/7']);
    assert.equal(m.published, '2023-01-01');
    assert.equal(m.modified, '2023-01-02');
    assert.equal(m.type, 'article');
    assert.equal(m.language, 'fr');
    assert.equal(m.json_ld, undefined);
  });

  test('a site name after an en or em dash is cut from a bare <title>, as readability does for "-" and "|"', () => {
    assert.equal(trimSiteSuffix('Lorem ipsum dolor sit amet – My website'), 'Lorem ipsum dolor sit amet');
    assert.equal(trimSiteSuffix('Short one — Site'), 'Short one — Site', 'a rest of four words or fewer keeps the whole title');
    assert.equal(trimSiteSuffix('No separator here at all'), 'No separator here at all');
  });
});

describe('basic extraction (pages that are not articles)', () => {
  test('a listing keeps all its reading text, without navigation and footer', async () => {
    const r = await extractPage(fixture('listing.html'), 'https://books.example.com/');
    assert.equal(r.extractor, 'basic');
    assert.deepEqual(r.skipped.map((s) => s.extractor), ['article', 'readability']);
    assert.equal(r.title, 'Bookshelf index');
    assert.equal(r.text, 'Bookshelf\n\nMoby-Dick\n\nMiddlemarch\n\nBeloved');
  });

  test('a fragment without html/body, and bare text, are read too', async () => {
    assert.equal((await extractPage('<p>just a <b>fragment</b></p>', 'https://e.example/')).text, 'just a fragment');
    assert.equal((await extractPage('plain words only', 'https://e.example/')).text, 'plain words only');
    assert.equal((await extractPage('', 'https://e.example/')).text, '');
  });
});

describe('bad HTML', () => {
  test('broken markup gives its text, never an exception', async () => {
    const broken = [
      '<html><body><div><p>unclosed <b>bold <i>italic</div></span></table>text after</body>',
      '<<<>>><p>angle soup</p><//p><!-- unclosed comment',
      '<script>never closed',
      '<svg><svg><p>inside svg</p>',
      `<html>${'<div>'.repeat(5000)}deep text${'</div>'.repeat(10)}`,
      '<table><tr><td>cell<td>cell2</tr><tr>row</table>',
      `<p>${'&amp;'.repeat(10000)}</p>`,
      '\uFEFF<meta charset="utf-8"><title>Only a title</title>',
    ];
    for (const html of broken) {
      const r = await extractPage(html, 'https://broken.example/');
      assert.equal(typeof r.text, 'string');
      assert.ok(r.html === null || !/<script/i.test(r.html));
    }
    const deep = await extractPage(`<html><body>${'<div>'.repeat(5000)}deep text</body></html>`, 'https://broken.example/');
    assert.match(deep.text, /deep text/);
  });

  test('binary content posing as HTML is refused with UNSUPPORTED_TYPE', async () => {
    const bytes = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256));
    for (const body of [bytes.toString('latin1'), new TextDecoder().decode(bytes), 'GIF89a\u0000\u0001\u0002<html>']) {
      await assert.rejects(extractPage(body, 'https://binary.example/'), (err: unknown) => err instanceof TroveError && err.code === 'UNSUPPORTED_TYPE' && /looks binary/.test(err.message));
    }
  });
});

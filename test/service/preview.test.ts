import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { App } from '../../src/app.js';
import { TroveError } from '../../src/errors.js';
import { addContent } from '../../src/service/documents.js';
import { getPreview } from '../../src/service/preview.js';
import { testApp } from '../helpers.js';
import { fixture } from '../ingest/extract/fixtures.js';

const ARTICLE = 'https://gazette.example.com/2024/otters';
const HOSTILE = 'https://hostile.example.org/page';
const NOTE = 'https://notes.example.org/plain.txt';

async function refused(call: Promise<unknown>, code: string): Promise<TroveError> {
  try {
    await call;
  } catch (err) {
    assert.ok(err instanceof TroveError, String(err));
    assert.equal(err.code, code, err.message);
    return err;
  }
  assert.fail(`expected ${code}`);
}

/** Nothing that runs or loads survives a rendered preview. */
function assertInert(html: string): void {
  for (const bad of ['<script', 'onerror', 'onload', 'onclick', 'javascript:', '<iframe', '<form', '<input', ' href=', ' src=', 'style=']) {
    assert.ok(!html.toLowerCase().includes(bad.toLowerCase()), `preview keeps ${bad}: ${html}`);
  }
}

describe('document previews', () => {
  let t: { app: App; dir: string; cleanup: () => Promise<void> };
  let articleId: string;

  before(async () => {
    t = testApp();
    articleId = (await addContent(t.app, { url: ARTICLE, html: fixture('article.html'), source: 'test', capturedAt: Date.UTC(2026, 0, 2) })).document.id;
    await addContent(t.app, { url: HOSTILE, html: fixture('hostile.html'), source: 'test' });
    await addContent(t.app, { url: NOTE, text: 'A plain note about otters, with no markup at all.', source: 'test' });
  });
  after(async () => {
    await t?.cleanup();
  });

  test('the stored preview: title, times, metadata, complete text and sanitized HTML', async () => {
    const p = await getPreview(t.app, { url: ARTICLE });
    assert.deepEqual(Object.keys(p), ['title', 'url', 'added', 'updated', 'metadata', 'text', 'html', 'extractor']);
    assert.equal(p.title, 'How Otters Keep Warm');
    assert.equal(p.url, ARTICLE);
    assert.equal(p.added, '2026-01-02T00:00:00.000Z');
    assert.equal(p.updated, '2026-01-02T00:00:00.000Z');
    assert.equal(p.extractor, 'article');
    assert.equal(p.metadata.author, 'Jane Marsh');
    assert.equal(p.metadata.site_name, 'The River Gazette');
    assert.match(p.text, /densest fur of any animal/);
    assert.match(p.text, /cracking them open on a stone/);
    assert.match(p.html!, /<p>[^<]*densest fur/);
    assert.ok(!p.html!.includes('Copyright The River Gazette'), 'the article extractor leaves the footer out');
    assertInert(p.html!);
  });

  test('a text document has its text and no HTML', async () => {
    const p = await getPreview(t.app, { url: NOTE });
    assert.equal(p.text, 'A plain note about otters, with no markup at all.');
    assert.equal(p.html, null);
    assert.equal(p.extractor, 'text');
  });

  test('the url must match exactly: no normalisation, no ids', async () => {
    for (const url of [`${ARTICLE}/`, ARTICLE.replace('gazette', 'GAZETTE'), `${ARTICLE}?a=1`, 'https://nowhere.example/', articleId]) {
      const err = await refused(getPreview(t.app, { url }), 'NOT_FOUND');
      assert.equal(err.details?.field, 'url');
    }
    await refused(getPreview(t.app, { url: '' }), 'INVALID_ARGUMENT');
    await refused(getPreview(t.app, { url: `https://x.example/${'a'.repeat(8200)}` }), 'INVALID_ARGUMENT');
  });

  test('extractor re-renders the captured HTML with that extractor, sanitized like ingest', async () => {
    const basic = await getPreview(t.app, { url: ARTICLE, extractor: 'basic' });
    assert.equal(basic.extractor, 'basic');
    assert.match(basic.html!, /Copyright The River Gazette/, 'basic keeps the whole body');
    assert.match(basic.text, /densest fur/, 'the text stays the stored text');
    assert.ok(!basic.text.includes('Copyright'), 'the text stays the stored text');
    assertInert(basic.html!);
    const article = await getPreview(t.app, { url: ARTICLE, extractor: 'article' });
    assert.equal(article.html, (await getPreview(t.app, { url: ARTICLE })).html, 'the same extractor renders what ingest stored');
    const hostile = await getPreview(t.app, { url: HOSTILE, extractor: 'basic' });
    assert.match(hostile.html!, /Plain words survive the sanitizer/);
    assert.match(hostile.html!, /data-href="https:\/\/safe\.example\.org\/page"/);
    assertInert(hostile.html!);
    assert.equal((await getPreview(t.app, { url: ARTICLE, extractor: '' })).extractor, 'article', "'' is the stored preview");
  });

  test('an unknown extractor is INVALID_ARGUMENT listing the allowed names, before any lookup', async () => {
    for (const url of [ARTICLE, 'https://nowhere.example/']) {
      for (const extractor of ['nope', 'text', 'metadata', 'binary-guard', 'ARTICLE']) {
        const err = await refused(getPreview(t.app, { url, extractor }), 'INVALID_ARGUMENT');
        assert.equal(err.details?.field, 'extractor');
        const allowed = err.details?.allowed as string[];
        assert.ok(allowed.includes('article') && allowed.includes('basic') && allowed.includes('github'), String(allowed));
        assert.ok(!allowed.includes('text') && !allowed.includes('metadata'), String(allowed));
      }
    }
  });

  test('PREVIEW_UNAVAILABLE without captured HTML or when the extractor declines the page', async () => {
    const none = await refused(getPreview(t.app, { url: NOTE, extractor: 'basic' }), 'PREVIEW_UNAVAILABLE');
    assert.equal(none.details?.reason, 'no_html');
    const foreign = await refused(getPreview(t.app, { url: ARTICLE, extractor: 'github' }), 'PREVIEW_UNAVAILABLE');
    assert.equal(foreign.details?.reason, 'not_applicable');
    const short = await refused(getPreview(t.app, { url: HOSTILE, extractor: 'article' }), 'PREVIEW_UNAVAILABLE');
    assert.equal(short.details?.reason, 'declined');
  });
});

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseDocument } from '../../src/ingest/extract/dom.js';
import { sanitizeHtml } from '../../src/ingest/sanitize.js';
import { fixture } from './extract/fixtures.js';

const BASE = new URL('https://hostile.example.com/dir/page');

function clean(html: string): string {
  const doc = parseDocument(html);
  return sanitizeHtml(doc.body ?? doc, BASE);
}

describe('preview sanitizer', () => {
  test('strips scripts, handlers, styles, forms, frames, objects, embeds, SVG and MathML', () => {
    const out = clean(fixture('hostile.html'));
    for (const banned of ['<script', 'steal', 'onload', 'onclick', 'onerror', 'onmouseover', 'style', '<form', '<input', '<button', '<textarea', 'password', '<iframe', '<object', '<embed', '<svg', '<math', '<noscript', '<base', '<link', '<meta', 'evil.example.net', 'srcset', 'target=', 'formula']) {
      assert.ok(!out.toLowerCase().includes(banned.toLowerCase()), `${banned} in ${out}`);
    }
  });

  test('keeps text, structure, and links and images as inert references', () => {
    const out = clean(fixture('hostile.html'));
    assert.match(out, /<p>Plain words survive the sanitizer\.<\/p>/);
    assert.match(out, /<p>Inside the form<\/p>/, 'a form is unwrapped: its text stays, the form goes');
    assert.match(out, /<a data-href="https:\/\/safe\.example\.org\/page">a safe link<\/a>/);
    assert.match(out, /<a data-href="https:\/\/hostile\.example\.com\/relative\/path">a relative link<\/a>/, 'relative links resolve against the page URL');
    assert.match(out, /<img alt="a cat" data-src="https:\/\/images\.example\.org\/cat\.png">/);
    assert.match(out, /<td colspan="2">cell<\/td>/);
    assert.ok(!/\shref=|\ssrc=/.test(out), 'no live href or src anywhere');
  });

  test('javascript:, data: and other schemes are dropped, however they are spelled', () => {
    const out = clean(`<a href="javascript:alert(1)">a</a><a href=" JaVaScRiPt:alert(2)">b</a><a href="java&#x09;script:alert(3)">c</a>
      <a href="vbscript:x">d</a><a href="data:text/html,<script>alert(4)</script>">e</a><a href="mailto:me@example.org">f</a>
      <img src="javascript:alert(5)"><img src="data:image/png;base64,AAAA"><img src="file:///etc/passwd">`);
    assert.ok(!/script|data:|file:|vbscript/i.test(out), out);
    assert.match(out, /<a data-href="mailto:me@example\.org">f<\/a>/);
    assert.equal((out.match(/<a>/g) ?? []).length, 5);
  });

  test('escapes text and attribute values; unknown elements are unwrapped', () => {
    const out = clean('<custom-card title="a &quot;quoted&quot; &lt;title&gt;"><p title="x&quot; onclick=&quot;y">1 &lt; 2 &amp;&amp; 3 &gt; 2</p><font color="red">red</font></custom-card>');
    assert.equal(out, '<p title="x&quot; onclick=&quot;y">1 &lt; 2 &amp;&amp; 3 &gt; 2</p>red');
  });

  test('hostile nesting does not exhaust the stack', () => {
    const out = clean(`${'<div>'.repeat(20000)}deep${'</div>'.repeat(20000)}`);
    assert.match(out, /deep/);
  });
});

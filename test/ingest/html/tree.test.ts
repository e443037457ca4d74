import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { textOf } from '../../../src/ingest/extract/dom.js';
import { type LightElement, parseLight } from '../../../src/ingest/html/tree.js';

const names = (el: LightElement) => el.childNodes.map((n) => (n.nodeType === 1 ? n.localName : `#${n.data.trim()}`));

describe('light page tree', () => {
  test('a whole page: head content in head, the rest in body, html and body attributes kept', () => {
    const doc = parseLight('<!doctype html><html lang="fr"><head><title>T</title><meta name="a" content="1"></head><body class="b"><p>x</p></body></html>');
    assert.equal(doc.documentElement.getAttribute('lang'), 'fr');
    assert.equal(doc.body.getAttribute('class'), 'b');
    assert.deepEqual(names(doc.head), ['title', 'meta']);
    assert.deepEqual(names(doc.body), ['p']);
    assert.equal(doc.firstElementChild, doc.documentElement);
  });

  test('a fragment lands in the body; text before any tag starts the body', () => {
    const doc = parseLight('hello <b>world</b>');
    assert.deepEqual(names(doc.head), []);
    assert.equal(doc.body.textContent, 'hello world');
    const meta = parseLight('<meta name="x" content="y"><p>after</p>');
    assert.deepEqual(names(meta.head), ['meta']);
    assert.deepEqual(names(meta.body), ['p']);
  });

  test('implied end tags close as a browser closes them', () => {
    const doc = parseLight('<p>one<div>two</div><ul><li>a<li>b</ul><p>three<p>four');
    assert.deepEqual(names(doc.body), ['p', 'div', 'ul', 'p', 'p']);
    const ul = doc.body.childNodes[2] as LightElement;
    assert.deepEqual(names(ul), ['li', 'li']);
    assert.equal(textOf(doc.body), 'one\n\ntwo\n\na\n\nb\n\nthree\n\nfour');
  });

  test('entities are decoded in text and attributes; element siblings are linked', () => {
    const doc = parseLight('<a href="/q?a=1&amp;b=2" title="&quot;x&quot;">Tom &amp; Jerry &eacute;t&#233;</a><i>i</i>');
    const a = doc.body.firstElementChild!;
    assert.equal(a.getAttribute('href'), '/q?a=1&b=2');
    assert.equal(a.getAttribute('title'), '"x"');
    assert.equal(a.textContent, 'Tom & Jerry été');
    assert.equal(a.nextElementSibling?.localName, 'i');
    assert.equal(doc.body.lastElementChild?.localName, 'i');
  });

  test('attribute lookups never reach the object prototype', () => {
    const el = parseLight('<div id="x"></div>').body.firstElementChild!;
    assert.equal(el.getAttribute('constructor'), null);
    assert.equal(el.hasAttribute('toString'), false);
    assert.equal(el.getAttribute('id'), 'x');
  });

  test('script and style bodies stay text of their element; comments are dropped', () => {
    const doc = parseLight('<p>a<!-- hidden <b>not</b> -->b</p><script>if (a < b) x()</script><style>p{}</style>');
    assert.equal(doc.body.firstElementChild!.textContent, 'ab');
    assert.equal(textOf(doc.body), 'ab', 'the text walk skips scripts and styles');
  });

  test('hostile nesting builds and reads without exhausting the stack', () => {
    const depth = 100_000;
    const doc = parseLight(`${'<div>'.repeat(depth)}deep${'</div>'.repeat(depth)}`);
    assert.equal(doc.body.textContent, 'deep');
    assert.equal(textOf(doc.body), 'deep');
  });
});

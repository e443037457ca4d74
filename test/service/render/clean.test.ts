import assert from 'node:assert/strict';
import { deflateSync } from 'node:zlib';
import { describe, test } from 'node:test';
import { canonicalJson, fingerprint } from '../../../src/service/operations/fingerprint.js';
import { normalizeParams } from '../../../src/service/operations/params.js';
import { cleanSnapshotUrls } from '../../../src/service/render/aria.js';
import { cleanNodes } from '../../../src/service/render/dom.js';
import type { RawDomNode } from '../../../src/service/render/dom-script.js';
import { fitCodePoints, fitItems } from '../../../src/service/render/limits.js';
import { pngSize } from '../../../src/service/render/png.js';
import { publicUrl } from '../../../src/service/render/urls.js';

// The pure parts of operations and rendering: fingerprints, URL and attribute cleaning, bounds, PNG headers.

describe('request fingerprints', () => {
  test('canonical JSON sorts keys at every depth and drops undefined members', () => {
    assert.equal(canonicalJson({ b: 1, a: { d: [1, { z: 2, y: undefined, x: 'é' }], c: null } }), '{"a":{"c":null,"d":[1,{"x":"é","z":2}]},"b":1}');
  });

  test('defaults are applied before hashing: omitted and explicit defaults are the same request', () => {
    const omitted = normalizeParams('capture_screenshot', { documentId: 'd' });
    const explicit = normalizeParams('capture_screenshot', { documentId: 'd', width: 1280, height: 800, deviceScaleFactor: 1 });
    assert.equal(fingerprint('capture_screenshot', omitted), fingerprint('capture_screenshot', explicit));
    assert.notEqual(fingerprint('capture_screenshot', omitted), fingerprint('capture_screenshot', normalizeParams('capture_screenshot', { documentId: 'd', deviceScaleFactor: 2 })));
    assert.notEqual(fingerprint('capture_screenshot', omitted), fingerprint('inspect_dom', omitted));
  });
});

describe('URLs shown from pages', () => {
  test('http(s) only, without credentials, query or fragment; relative ones resolved', () => {
    assert.equal(publicUrl('https://user:pw@example.com:8443/a/b?token=1#x'), 'https://example.com:8443/a/b');
    assert.equal(publicUrl('../c?d=1', 'https://example.com/a/b/page'), 'https://example.com/a/c');
    for (const bad of ['javascript:alert(1)', 'data:text/html,x', 'mailto:a@b.c', 'file:///etc/passwd', '//', 'relative']) assert.equal(publicUrl(bad), undefined, bad);
  });

  test('ARIA snapshot /url lines are cleaned or left out', () => {
    const snapshot = ['- link "a":', '  - /url: https://u:p@x.example/p?q=1#f', '- link "b":', '  - /url: javascript:void(0)', '- link "c":', '  - /url: "/rel path?x"'].join('\n');
    assert.equal(cleanSnapshotUrls(snapshot, 'https://base.example/dir/'), ['- link "a":', '  - /url: https://x.example/p', '- link "b":', '- link "c":', '  - /url: https://base.example/rel%20path'].join('\n'));
  });
});

describe('DOM nodes', () => {
  const raw = (attrs: Array<[string, string]>, tag = 'a', text = ''): RawDomNode => ({ index: 0, parentIndex: null, depth: 0, tag, attrs, text, rect: { x: 1.234, y: 0, width: 10.005, height: 2 }, styles: { display: 'block', visibility: 'visible' } });

  test('only allowlisted attributes survive; URL attributes are cleaned', () => {
    const [node] = cleanNodes([raw([['ID', 'x'], ['onclick', 'evil()'], ['style', 'color:red'], ['data-token', 's'], ['value', 'v'], ['aria-label', 'Close'], ['aria-', 'bad'], ['href', 'https://a:b@h.example/p?q#f'], ['src', 'javascript:x']])], undefined).nodes;
    assert.deepEqual(node!.attributes, { id: 'x', 'aria-label': 'Close', href: 'https://h.example/p' });
    assert.deepEqual(node!.rect, { x: 1.23, y: 0, width: 10.01, height: 2 });
  });

  test('textarea, script and style text is never shown; long text is capped and reported', () => {
    assert.equal(cleanNodes([raw([], 'textarea', 'draft')], undefined).nodes[0]!.text, '');
    const long = cleanNodes([raw([], 'p', `  a  ${'b'.repeat(5000)}`)], undefined);
    assert.equal(long.nodes[0]!.text.length, 1024);
    assert.equal(long.truncated, true);
  });
});

describe('bounds', () => {
  test('code-point cuts never split a character and respect the byte budget', () => {
    const text = '😀'.repeat(40_000);
    const r = fitCodePoints(text, 32_768, 60 * 1024);
    assert.equal(r.total, 40_000);
    assert.ok(r.truncated);
    assert.ok(Buffer.byteLength(JSON.stringify(r.text)) <= 60 * 1024);
    assert.equal([...r.text].length, r.kept);
    assert.ok(!/[\uD800-\uDBFF]$/.test(r.text));
    assert.deepEqual(fitCodePoints('short', 100, 60 * 1024), { text: 'short', total: 5, kept: 5, truncated: false });
  });

  test('items are kept while their JSON fits', () => {
    const items = Array.from({ length: 100 }, (_, i) => ({ i, pad: 'x'.repeat(1000) }));
    const r = fitItems(items, 20 * 1024);
    assert.ok(r.truncated);
    assert.ok(Buffer.byteLength(JSON.stringify(r.items)) <= 20 * 1024);
    assert.ok(r.items.length > 10);
  });

  test('PNG dimensions come from the IHDR chunk; anything else is refused', () => {
    const ihdr = Buffer.alloc(13);
    ihdr.writeUInt32BE(640, 0);
    ihdr.writeUInt32BE(480, 4);
    const chunk = Buffer.concat([Buffer.from([0, 0, 0, 13]), Buffer.from('IHDR'), ihdr, Buffer.alloc(4)]);
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk, deflateSync(Buffer.alloc(1))]);
    assert.deepEqual(pngSize(png), { width: 640, height: 480 });
    assert.throws(() => pngSize(Buffer.from('GIF89a not a png at all, long enough')), /not a PNG/);
  });
});

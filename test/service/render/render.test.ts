import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { App } from '../../../src/app.js';
import { OWNER } from '../../../src/service/access.js';
import { addContent } from '../../../src/service/documents.js';
import { cancelOperation, getOperation, readArtifact } from '../../../src/service/operations/service.js';
import { renderCapability } from '../../../src/service/render/host.js';
import { testApp } from '../../helpers.js';
import { codeOf, run, settled, start } from '../operations/helpers.js';

// Stored pages rendered in the real Chromium: dimensions read from the PNG bytes, a hostile page that
// cannot run, navigate or fetch, the DOM allowlist and the ARIA snapshot bounds.

const CHROMIUM = '/usr/bin/chromium';
const skip = existsSync(CHROMIUM) ? false : `no Chromium at ${CHROMIUM} (apt-get install chromium)`;
if (skip) console.log(`# skipping browser tests: ${skip}`);

/** Width and height from the IHDR chunk, read here independently of the code under test. */
function ihdr(png: Buffer): { width: number; height: number } {
  assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG');
  assert.equal(png.subarray(12, 16).toString('latin1'), 'IHDR');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

describe('rendering stored pages', { skip }, () => {
  let app: App;
  let cleanup: () => Promise<void>;
  let canary: Server;
  const hits: string[] = [];
  let connections = 0;
  let hostileId: string;
  let plainId: string;

  before(async () => {
    ({ app, cleanup } = testApp());
    // Every request (or connection) the canary sees is a failure of the rendering policy.
    canary = createServer((req, res) => {
      hits.push(req.url ?? '');
      res.end('x');
    });
    canary.on('connection', () => connections++);
    await new Promise<void>((r) => canary.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(canary.address() as AddressInfo).port}`;
    const origFetch = `${base}/canary`;
    const hostile = `<!doctype html><html><head><title>Original title</title>
      <meta http-equiv="refresh" content="0;url=${origFetch}?refresh">
      <link rel="prefetch" href="${origFetch}?prefetch"><link rel="preconnect" href="${base}"><link rel="dns-prefetch" href="${base}">
      <link rel="stylesheet" href="${origFetch}?css"><style>@import url(${origFetch}?import); body { background: url(${origFetch}?bg) }</style>
      <script src="${origFetch}?script"></script>
      <script>document.title = 'Hacked'; document.documentElement.setAttribute('lang', 'hacked'); fetch('${origFetch}?fetch'); location.href = '${origFetch}?nav';</script>
      </head><body><h1 id="top" class="hero" onclick="steal()" style="color:red" data-secret="s3cret">Hello <b>world</b></h1>
      <img src="${origFetch}?img" alt="pic"><iframe src="${origFetch}?iframe"></iframe><object data="${origFetch}?object"></object>
      <form action="https://user:pw@forms.example/submit?token=abc#x"><input name="q" value="typed secret" autofocus><textarea name="t">draft secret</textarea></form>
      <a id="creds" href="https://user:pw@example.com/path/page?session=123#frag">link</a>
      <a id="relative" href="../docs/intro.html?x=1">relative</a><a id="js" href="javascript:alert(1)">js</a>
      <p id="para">Some   spaced
        text</p>
      <script>document.getElementById('top').textContent = 'Pwned'; document.body.appendChild(document.createElement('marquee')); new Image().src = '${origFetch}?beacon';</script>
      </body></html>`;
    hostileId = (await addContent(app, { url: 'https://render.example/articles/hostile.html', html: hostile, source: 'test' })).document.id;
    const headings = Array.from({ length: 200 }, (_, i) => `<h2>Heading number ${i}</h2><p>paragraph ${i}</p>`).join('');
    plainId = (await addContent(app, { url: 'https://render.example/plain', html: `<html><head><title>Plain</title></head><body><main>${headings}</main></body></html>`, source: 'test' })).document.id;
  });
  after(async () => {
    canary.closeAllConnections();
    await new Promise((r) => canary.close(r));
    await cleanup();
  });

  test('the capability probe finds the configured Chromium', () => {
    assert.deepEqual(renderCapability(app), { available: true });
  });

  test('screenshot PNG dimensions are the viewport times the device scale factor', async () => {
    const d = await run(app, 'capture_screenshot', { documentId: plainId, width: 400, height: 300, deviceScaleFactor: 2 });
    assert.equal(d.view.state, 'completed', JSON.stringify(d.view.error));
    const r = d.result!.trusted;
    const png = readArtifact(app, OWNER, r.artifactId as string).bytes;
    assert.deepEqual(ihdr(png), { width: 800, height: 600 });
    assert.deepEqual({ width: r.width, height: r.height }, { width: 800, height: 600 });
    assert.equal(r.bytes, png.length);
    assert.equal(r.sha256, createHash('sha256').update(png).digest('hex'));
    assert.match(String(r.artifactUri), /^trove:\/\/[0-9A-Z]{26}\/artifacts\/art_/);
    const small = await run(app, 'capture_screenshot', { documentId: plainId, width: 320, height: 240 });
    assert.deepEqual(ihdr(readArtifact(app, OWNER, small.result!.trusted.artifactId as string).bytes), { width: 320, height: 240 });
  });

  test('a hostile page neither runs, navigates nor fetches during capture and inspection', async () => {
    const shot = await run(app, 'capture_screenshot', { documentId: hostileId });
    assert.equal(shot.view.state, 'completed', JSON.stringify(shot.view.error));
    const dom = await run(app, 'inspect_dom', { documentId: hostileId, selector: 'html' });
    assert.equal(dom.view.state, 'completed', JSON.stringify(dom.view.error));
    const nodes = dom.result!.untrusted[0]!.fields.nodes as Array<{ tag: string; text: string; attributes: Record<string, string> }>;
    assert.equal(nodes.find((n) => n.tag === 'title')?.text, 'Original title');
    assert.deepEqual(nodes[0]!.attributes, {}, 'the script did not set lang on the root element');
    assert.ok(!nodes.some((n) => n.tag === 'marquee'), 'the script added no element');
    assert.equal(nodes.find((n) => n.tag === 'h1')?.text, 'Hello');
    assert.ok(!nodes.some((n) => n.tag === 'script'), 'script content is left out');
    const aria = await run(app, 'inspect_accessibility', { documentId: hostileId });
    assert.equal(aria.view.state, 'completed', JSON.stringify(aria.view.error));
    assert.deepEqual(hits, [], 'the canary got no request');
    assert.equal(connections, 0, 'the canary got no connection');
  });

  test('DOM nodes carry allowlisted attributes only, URLs without credentials, query or fragment', async () => {
    const d = await run(app, 'inspect_dom', { documentId: hostileId, selector: 'body' });
    const nodes = d.result!.untrusted[0]!.fields.nodes as Array<{ index: number; parentIndex: number | null; tag: string; text: string; attributes: Record<string, string>; rect: { width: number } }>;
    assert.equal(d.result!.trusted.matched, true);
    assert.equal(nodes[0]!.tag, 'body');
    assert.equal(nodes[0]!.parentIndex, null);
    const h1 = nodes.find((n) => n.tag === 'h1')!;
    assert.deepEqual(h1.attributes, { id: 'top', class: 'hero' });
    assert.ok(h1.rect.width > 0);
    assert.equal(nodes.find((n) => n.tag === 'b')!.parentIndex, h1.index);
    const byId = (id: string) => nodes.find((n) => n.attributes.id === id)!;
    assert.equal(byId('creds').attributes.href, 'https://example.com/path/page');
    assert.equal(byId('relative').attributes.href, 'https://render.example/docs/intro.html');
    assert.equal(byId('js').attributes.href, undefined);
    assert.equal(nodes.find((n) => n.tag === 'form')!.attributes.action, 'https://forms.example/submit');
    const input = nodes.find((n) => n.tag === 'input')!;
    assert.deepEqual(input.attributes, { name: 'q' });
    assert.equal(nodes.find((n) => n.tag === 'textarea')!.text, '');
    assert.equal(byId('para').text, 'Some spaced text');
    assert.ok(!JSON.stringify(nodes).includes('secret'), 'no handler, style, data-* or form value leaks');
  });

  test('maxNodes and maxDepth cut the subtree and say so', async () => {
    const d = await run(app, 'inspect_dom', { documentId: plainId, selector: 'main', maxNodes: 5 });
    assert.equal((d.result!.untrusted[0]!.fields.nodes as unknown[]).length, 5);
    assert.equal(d.result!.trusted.truncated, true);
    const shallow = await run(app, 'inspect_dom', { documentId: plainId, selector: 'body', maxDepth: 0 });
    assert.equal((shallow.result!.untrusted[0]!.fields.nodes as unknown[]).length, 1);
    assert.equal(shallow.result!.trusted.truncated, true);
  });

  test('invalid CSS is INVALID_SELECTOR; no match is matched false with no nodes', async () => {
    const bad = await run(app, 'inspect_dom', { documentId: plainId, selector: 'main >>> [' });
    assert.equal(bad.view.state, 'failed');
    assert.equal(bad.view.error?.code, 'INVALID_SELECTOR');
    const none = await run(app, 'inspect_dom', { documentId: plainId, selector: '#nothing-here' });
    assert.equal(none.result!.trusted.matched, false);
    assert.deepEqual(none.result!.untrusted[0]!.fields.nodes, []);
    const aria = await run(app, 'inspect_accessibility', { documentId: plainId, selector: 'text=Heading' });
    assert.equal(aria.view.error?.code, 'INVALID_SELECTOR', 'Playwright selector syntax is not CSS');
  });

  test('the ARIA snapshot is cut at maxCharacters and reports its whole length', async () => {
    const full = await run(app, 'inspect_accessibility', { documentId: plainId, selector: 'main' });
    assert.equal(full.view.state, 'completed', JSON.stringify(full.view.error));
    const snapshot = full.result!.untrusted[0]!.fields.snapshot as string;
    assert.match(snapshot, /- heading "Heading number 0" \[level=2\]/);
    assert.equal(full.result!.trusted.truncated, false);
    assert.equal(full.result!.trusted.totalCharacters, [...snapshot].length);
    const cut = await run(app, 'inspect_accessibility', { documentId: plainId, selector: 'main', maxCharacters: 100 });
    assert.equal(cut.result!.trusted.truncated, true);
    assert.equal(cut.result!.trusted.totalCharacters, [...snapshot].length);
    assert.equal(cut.result!.untrusted[0]!.fields.snapshot, [...snapshot].slice(0, 100).join(''));
    const links = await run(app, 'inspect_accessibility', { documentId: hostileId });
    const text = links.result!.untrusted[0]!.fields.snapshot as string;
    assert.match(text, /\/url: https:\/\/example\.com\/path\/page$/m);
    assert.doesNotMatch(text, /session=|user:pw|javascript:/);
  });

  test('a PNG over 4 MiB fails RESULT_TOO_LARGE and keeps nothing', async () => {
    const noise = '<html><body style="margin:0"><svg width="4000" height="3000"><filter id="n"><feTurbulence type="fractalNoise" baseFrequency="0.9" numOctaves="4"/></filter><rect width="100%" height="100%" filter="url(#n)"/></svg></body></html>';
    const doc = await addContent(app, { url: 'https://render.example/noise', html: noise, source: 'test' });
    const d = await run(app, 'capture_screenshot', { documentId: doc.document.id, width: 1920, height: 1080, deviceScaleFactor: 2 });
    assert.equal(d.view.state, 'failed');
    assert.equal(d.view.error?.code, 'RESULT_TOO_LARGE');
    assert.deepEqual(d.artifacts, []);
  });

  test('cancelling a running render ends it cancelled', async () => {
    const started = await start(app, 'capture_screenshot', { documentId: plainId });
    assert.equal(started.view.state, 'running');
    assert.equal((await cancelOperation(app, OWNER, started.view.operationId)).state, 'cancelling');
    const d = await settled(app, started.view.operationId);
    assert.equal(d.view.state, 'cancelled');
    assert.deepEqual(d.artifacts, []);
  });

  test('targets are checked before admission', async () => {
    assert.equal(await codeOf(start(app, 'capture_screenshot', { documentId: 'https://render.example/none' })), 'NOT_FOUND');
    assert.equal(await codeOf(start(app, 'capture_screenshot', { documentId: plainId, versionId: 999_999 })), 'NOT_FOUND');
    const text = await addContent(app, { url: 'https://render.example/text', text: 'only text', source: 'test' });
    assert.equal(await codeOf(start(app, 'inspect_dom', { documentId: text.document.id })), 'PREVIEW_UNAVAILABLE');
    const { revision } = await app.store.instanceState();
    assert.equal(await codeOf(start(app, 'capture_screenshot', { documentId: plainId, expectedRevision: revision + 1 })), 'STALE_REVISION');
    const ok = await start(app, 'capture_screenshot', { documentId: plainId, expectedRevision: revision });
    assert.equal((await settled(app, ok.view.operationId)).view.state, 'completed');
    assert.equal((await getOperation(app, OWNER, ok.view.operationId)).result?.trusted.versionId !== undefined, true);
  });
});

describe('without Chromium', () => {
  test('rendering answers CAPABILITY_UNAVAILABLE naming what to install', async () => {
    const t = testApp({ 'render.chromium_path': '/nonexistent/chromium' });
    try {
      const doc = await addContent(t.app, { url: 'https://render.example/p', html: '<p>hi</p>', source: 'test' });
      const cap = renderCapability(t.app);
      assert.equal(cap.available, false);
      assert.match(cap.reason ?? '', /apt-get install chromium/);
      assert.match(cap.reason ?? '', /render\.chromium_path/);
      for (const kind of ['capture_screenshot', 'inspect_dom', 'inspect_accessibility'] as const) {
        assert.equal(await codeOf(start(t.app, kind, { documentId: doc.document.id })), 'CAPABILITY_UNAVAILABLE');
      }
    } finally {
      await t.cleanup();
    }
  });
});

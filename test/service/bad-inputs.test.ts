import assert from 'node:assert/strict';
import { truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import type { App } from '../../src/app.js';
import { TroveError } from '../../src/errors.js';
import { addContent, addTargets, showDocument } from '../../src/service/documents.js';
import { getStatus } from '../../src/service/status.js';
import { cliEnv, parseJson, runCli } from '../cli-run.js';
import { testApp } from '../helpers.js';
import { type PageServer, page, redirect, startPageServer } from '../page-server.js';

// Every bad input gets a clear code and touches nothing else: the store's counts and revision stay as they were.

describe('bad inputs', () => {
  let t: { app: App; dir: string; cleanup: () => Promise<void> };
  let web: PageServer;
  let keep: string;

  before(async () => {
    // Generous enough for a loaded CI machine; the hanging server still fails at the connect timeout.
    t = testApp({ 'indexer.fetch_timeout_ms': '8000', 'indexer.fetch_connect_timeout_ms': '3000', 'indexer.fetch_read_timeout_ms': '3000', 'indexer.fetch_max_bytes': '1048576' });
    const endless: Record<string, ReturnType<typeof redirect>> = {};
    for (let i = 0; i < 50; i++) endless[`/endless/${i}`] = redirect(`/endless/${i + 1}`);
    web = await startPageServer({
      ...endless,
      '/binary': page(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0, 0x08, 0, 0x61, 0x62]), { 'content-type': 'text/plain' }),
      '/invalid-utf8': page(Buffer.concat([Buffer.from('<title>Mixed bytes</title><p>caf'), Buffer.from([0xe9]), Buffer.from(' ol'), Buffer.from([0xe9]), Buffer.from(' and more readable words here</p>')]), { 'content-type': 'text/html; charset=utf-8' }),
      '/gzip-bomb': page(gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20)), { 'content-type': 'text/html', 'content-encoding': 'gzip' }),
      '/to-file': redirect('file:///etc/passwd'),
      '/to-javascript': redirect('javascript:alert(document.cookie)'),
      '/hang': () => undefined,
    });
    keep = (await addContent(t.app, { url: 'https://example.org/keep', text: 'A document that must stay as it is.', source: 'test' })).document.id;
  });
  after(async () => {
    await web?.close();
    await t?.cleanup();
  });

  /** Runs `add`, expects one target refused with `code`, and checks that nothing in the store changed. */
  async function refused(target: string, code: string): Promise<TroveError> {
    const before = await getStatus(t.app);
    const [outcome] = await addTargets(t.app, [target], { source: 'test' });
    assert.equal(outcome?.error?.code, code, `${target}: ${outcome?.error?.message ?? 'stored'}`);
    const now = await getStatus(t.app);
    assert.deepEqual(now.counts, before.counts);
    assert.equal(now.revision, before.revision);
    assert.equal((await showDocument(t.app, keep)).text, 'A document that must stay as it is.');
    return outcome!.error!;
  }

  test('broken HTML is stored as well as it can be read, never a crash', async () => {
    const broken = '<html><head><title>Broken <b>page</title><body><p>Unclosed <div><span>text &amp; more &bogus; <<<>>> </td></tr></table></html></html><script>never closed';
    const r = await addContent(t.app, { url: 'https://example.org/broken', html: broken, source: 'test' });
    assert.equal(r.status, 'added');
    assert.match((await showDocument(t.app, r.document.id)).text, /Unclosed/);
    const deep = `${'<div>'.repeat(20_000)}deeply nested words${'</div>'.repeat(20_000)}`;
    const before = await getStatus(t.app);
    try {
      const d = await addContent(t.app, { url: 'https://example.org/deep', html: deep, source: 'test' });
      assert.match((await showDocument(t.app, d.document.id)).text, /deeply nested words/);
    } catch (err) {
      assert.ok(err instanceof TroveError, `deep nesting must be a clear code, not ${String(err)}`);
      assert.deepEqual((await getStatus(t.app)).counts, before.counts);
    }
  });

  test('binary content posing as text, over HTTP and as a file, is UNSUPPORTED_TYPE', async () => {
    await refused(`${web.base}/binary`, 'UNSUPPORTED_TYPE');
    const file = join(t.dir, 'fake.txt');
    writeFileSync(file, Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0, 0, 0]));
    await refused(file, 'UNSUPPORTED_TYPE');
  });

  test('invalid UTF-8: a fetched page keeps replacement characters; a file is UNSUPPORTED_TYPE', async () => {
    const [outcome] = await addTargets(t.app, [`${web.base}/invalid-utf8`], { source: 'test' });
    assert.equal(outcome?.result?.status, 'added', outcome?.error?.message);
    assert.match((await showDocument(t.app, outcome!.result!.document.id)).text, /caf\ufffd ol\ufffd/);
    const file = join(t.dir, 'latin1.md');
    writeFileSync(file, Buffer.from([0x23, 0x20, 0x43, 0x61, 0x66, 0xe9, 0x0a]));
    await refused(file, 'UNSUPPORTED_TYPE');
  });

  test('a 50 MB file is TOO_LARGE, refused by its size before it is read', async () => {
    const file = join(t.dir, 'huge.txt');
    writeFileSync(file, '');
    truncateSync(file, 50 * 1024 * 1024);
    const err = await refused(file, 'TOO_LARGE');
    assert.equal(err.details?.size, 50 * 1024 * 1024);
  });

  test('a gzip bomb stops at indexer.fetch_max_bytes with TOO_LARGE', async () => {
    const err = await refused(`${web.base}/gzip-bomb`, 'TOO_LARGE');
    assert.equal(err.details?.limit, 1048576);
  });

  test('endless redirects are REDIRECT_LOOP', async () => {
    await refused(`${web.base}/endless/0`, 'REDIRECT_LOOP');
  });

  test('a redirect to file: or javascript: is UNSUPPORTED_SCHEME', async () => {
    await refused(`${web.base}/to-file`, 'UNSUPPORTED_SCHEME');
    await refused(`${web.base}/to-javascript`, 'UNSUPPORTED_SCHEME');
  });

  test('file:, javascript: and data: URLs given to add are UNSUPPORTED_SCHEME', async () => {
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'data:text/html,<b>x</b>']) await refused(url, 'UNSUPPORTED_SCHEME');
  });

  test('a server that accepts and never answers is FETCH_FAILED after the configured timeout', async () => {
    const err = await refused(`${web.base}/hang`, 'FETCH_FAILED');
    assert.equal(err.details?.reason, 'connect_timeout');
  });

  test('`trove add file:///… javascript:…` reports UNSUPPORTED_SCHEME per target and exits 1', async () => {
    const home = join(t.dir, 'cli');
    const r = await runCli(['--data-dir', join(home, 'data'), 'add', 'file:///etc/passwd', 'javascript:alert(1)', '--json'], { env: cliEnv(home) });
    assert.equal(r.code, 1, r.stderr);
    const out = parseJson(r);
    assert.deepEqual(out.results.map((x: any) => x.error.code), ['UNSUPPORTED_SCHEME', 'UNSUPPORTED_SCHEME']);
    assert.deepEqual(out.summary, { added: 0, updated: 0, unchanged: 0, skipped: 0, failed: 2 });
    const human = await runCli(['--data-dir', join(home, 'data'), 'add', 'javascript:alert(1)'], { env: cliEnv(home) });
    assert.equal(human.code, 1);
    assert.match(human.stderr, /^trove: UNSUPPORTED_SCHEME: [^\n]+\n$/);
    const status = parseJson(await runCli(['--data-dir', join(home, 'data'), 'status', '--json'], { env: cliEnv(home) }));
    assert.equal(status.counts.documents, 0);
  });
});

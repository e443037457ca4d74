import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import type { App } from '../../src/app.js';
import { type RunningServer, startServer } from '../../src/http/server.js';
import { addContents } from '../../src/service/documents.js';
import { syncDirectories } from '../../src/service/folders.js';
import { tempDir, testApp } from '../helpers.js';

// The catalog reads over the HTTP API: the same services as the MCP tools, the same codes.

describe('catalog routes', () => {
  let app: App;
  let cleanup: () => Promise<void>;
  let server: RunningServer;
  let files: ReturnType<typeof tempDir>;
  let fileUrl: string;

  before(async () => {
    files = tempDir('trove-http-catalog-');
    const root = join(files.dir, 'docs');
    mkdirSync(root);
    writeFileSync(join(root, 'lines.txt'), 'one\r\ntwo\nthree');
    fileUrl = pathToFileURL(join(root, 'lines.txt')).href;
    ({ app, cleanup } = testApp({ 'indexer.directories': JSON.stringify([{ path: root }]) }));
    await syncDirectories(app);
    await addContents(app, Array.from({ length: 5 }, (_, i) => ({ url: `https://route.example/${i}`, text: `page ${i} \u{1F600}`, source: 'test' })));
    server = await startServer(app, { host: '127.0.0.1', port: 0 });
  });
  after(async () => {
    await server.close();
    await cleanup();
    files.cleanup();
  });

  const get = async (path: string) => {
    const res = await fetch(`${server.url}${path}`);
    return { status: res.status, body: (await res.json()) as any };
  };

  test('GET /api/catalog/documents pages with the cursor; filters may not change under it', async () => {
    const first = await get('/api/catalog/documents?domain=route.example&pageSize=2');
    assert.equal(first.status, 200);
    assert.deepEqual(first.body.documents.map((d: any) => d.url), ['https://route.example/0', 'https://route.example/1']);
    assert.equal(first.body.total, 5);
    const next = await get(`/api/catalog/documents?domain=route.example&pageSize=2&cursor=${encodeURIComponent(first.body.nextCursor)}`);
    assert.deepEqual(next.body.documents.map((d: any) => d.url), ['https://route.example/2', 'https://route.example/3']);
    const changed = await get(`/api/catalog/documents?pageSize=2&cursor=${encodeURIComponent(first.body.nextCursor)}`);
    assert.deepEqual([changed.status, changed.body.error.code], [400, 'INVALID_ARGUMENT']);
    assert.equal((await get('/api/catalog/documents?pageSize=101')).body.error.code, 'INVALID_ARGUMENT');
    assert.equal((await get('/api/catalog/documents?colour=red')).body.error.code, 'INVALID_ARGUMENT');
  });

  test('GET /api/documents/:id/text and /source', async () => {
    const text = await get(`/api/documents/${encodeURIComponent('https://route.example/3')}/text?offset=7&limit=1`);
    assert.equal(text.status, 200);
    assert.equal(text.body.text, '\u{1F600}');
    assert.equal(text.body.sha256, createHash('sha256').update('page 3 \u{1F600}').digest('hex'));
    const source = await get(`/api/documents/${encodeURIComponent(fileUrl)}/source?startLine=2`);
    assert.deepEqual([source.body.text, source.body.totalLines, source.body.startLine], ['two\nthree', 3, 2]);
    const web = await get(`/api/documents/${encodeURIComponent('https://route.example/3')}/source`);
    assert.deepEqual([web.status, web.body.error.code], [422, 'SOURCE_UNAVAILABLE']);
    const stale = await get(`/api/documents/${encodeURIComponent('https://route.example/3')}/text?expectedRevision=0`);
    assert.deepEqual([stale.status, stale.body.error.code], [409, 'STALE_REVISION']);
    assert.equal((await get(`/api/documents/${encodeURIComponent('https://route.example/3')}/text?limit=40000`)).body.error.code, 'INVALID_ARGUMENT');
    assert.equal((await get('/api/documents/nothing-here/text')).status, 404);
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import type { App } from '../../src/app.js';
import { type RunningServer, startServer } from '../../src/http/server.js';
import { catalogUri } from '../../src/service/catalog-uris.js';
import { addContent } from '../../src/service/documents.js';
import { createUser } from '../../src/service/users.js';
import { testApp } from '../helpers.js';
import { call, httpClient } from './client.js';

// Tenancy of the catalog tools and resources: user B never lists or reads user A's personal documents;
// an anonymous caller in public mode sees the global ones only.

describe('catalog tenancy over MCP', () => {
  let app: App;
  let cleanup: () => Promise<void>;
  let server: RunningServer;
  let instanceId: string;
  let diaryId: string;
  const clients: Record<'alice' | 'bob' | 'anonymous', Client | undefined> = { alice: undefined, bob: undefined, anonymous: undefined };

  before(async () => {
    ({ app, cleanup } = testApp({ 'app.user_handling': 'true', 'app.public': 'true', 'app.access_token': 'static-owner-token-0123456789' }));
    const alice = await createUser(app, { name: 'alice', admin: false });
    const bob = await createUser(app, { name: 'bob', admin: false });
    await addContent(app, { url: 'https://tenancy.example/global', title: 'Global page', text: 'for everyone', source: 'test' });
    diaryId = (await addContent(app, { url: 'https://tenancy.example/diary', title: 'Private diary', text: 'alice only', source: 'test', ownerId: (await app.store.getUser('alice'))!.id })).document.id;
    instanceId = (await app.store.instanceState()).instanceId;
    server = await startServer(app, { host: '127.0.0.1', port: 0 });
    clients.alice = await httpClient(`${server.url}/mcp`, 'modern', 'alice', { authorization: `Bearer ${alice.token}` });
    clients.bob = await httpClient(`${server.url}/mcp`, 'legacy', 'bob', { authorization: `Bearer ${bob.token}` });
    clients.anonymous = await httpClient(`${server.url}/mcp`, 'legacy', 'anonymous');
  });
  after(async () => {
    for (const c of Object.values(clients)) await c?.close();
    await server.close();
    await cleanup();
  });

  const urls = async (c: Client) => (await call(c, 'list_documents', {})).untrusted_content.map((u: any) => u.fields.url);

  test('alice sees her diary; bob and anonymous callers see only the global page', async () => {
    assert.deepEqual(await urls(clients.alice!), ['https://tenancy.example/diary', 'https://tenancy.example/global']);
    for (const c of [clients.bob!, clients.anonymous!]) {
      assert.deepEqual(await urls(c), ['https://tenancy.example/global']);
      assert.equal((await call(c, 'list_documents', { query: 'diary' })).trusted.total, 0);
      assert.equal((await call(c, 'get_status', {})).trusted.counts.documents, 1);
    }
    assert.equal((await call(clients.alice!, 'get_status', {})).trusted.counts.documents, 2);
  });

  test("bob reads nothing of alice's diary through tools or resource URIs", async () => {
    assert.equal((await call(clients.alice!, 'read_text', { documentId: diaryId })).untrusted_content[0].fields.text, 'alice only');
    for (const c of [clients.bob!, clients.anonymous!]) {
      for (const documentId of [diaryId, 'https://tenancy.example/diary']) {
        for (const tool of ['get_document', 'read_text', 'read_source']) {
          const r = await call(c, tool, { documentId });
          assert.equal(r.error?.code, 'NOT_FOUND', `${tool} ${documentId}`);
          assert.ok(!JSON.stringify(r).includes('alice only') && !JSON.stringify(r).includes('Private diary'));
        }
      }
      for (const uri of [catalogUri.document(instanceId, diaryId), catalogUri.text(instanceId, diaryId)]) {
        await assert.rejects(c.readResource({ uri }), (e: any) => e.code === -32602 && e.data?.uri === uri && !JSON.stringify(e).includes('alice only'));
      }
    }
    const [text] = (await clients.alice!.readResource({ uri: catalogUri.text(instanceId, diaryId) })).contents as any[];
    assert.equal(text.text, 'alice only');
  });

  test("alice's cursor is refused to bob", async () => {
    const page = await call(clients.alice!, 'list_documents', { pageSize: 1 });
    const r = await call(clients.bob!, 'list_documents', { pageSize: 1, cursor: page.trusted.nextCursor });
    assert.equal(r.error.code, 'INVALID_ARGUMENT');
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { App } from '../../src/app.js';
import { ROUTES } from '../../src/http/routes.js';
import { type RunningServer, startServer } from '../../src/http/server.js';
import { allToolSpecs } from '../../src/mcp/tools.js';
import { addContent } from '../../src/service/documents.js';
import { createUser } from '../../src/service/users.js';
import { testApp } from '../helpers.js';
import { call, httpClient } from '../mcp/client.js';
import { startSearxngServer } from '../providers/searxng-server.js';

// Every HTTP route and every MCP tool x every kind of caller x every auth mode: allowed or denied, and a
// denial tells nothing. The expectations are written from the spec (seed 000's modes), not from the code.

const STATIC = 'static-owner-token-0123456789';
type Mode = 'open' | 'token' | 'users' | 'public';
type Caller = 'anonymous' | 'wrong' | 'static' | 'userA' | 'userB' | 'admin';
// network: the server calls out on the caller's behalf (searxng_search): known callers only.
// memory: reading a bank's memories or the tree of chunks (memory.read); writing them is 'write'.
type Need = 'none' | 'meta' | 'read' | 'history' | 'write' | 'admin' | 'profile' | 'network' | 'memory';
const CALLERS: Caller[] = ['anonymous', 'wrong', 'static', 'userA', 'userB', 'admin'];

const MODES: Record<Mode, Record<string, string>> = {
  open: {},
  token: { 'app.access_token': STATIC },
  users: { 'app.user_handling': 'true' },
  public: { 'app.user_handling': 'true', 'app.public': 'true', 'app.access_token': STATIC },
};

/** What each route needs, by "METHOD path"; a route missing here fails the test (new routes must be classified). */
const ROUTE_NEEDS: Record<string, { need: Need; path: string; body?: unknown }> = {
  'GET /healthz': { need: 'none', path: '/healthz' },
  'GET /api/status': { need: 'admin', path: '/api/status' },
  'GET /api/search': { need: 'read', path: '/api/search?q=pangolin' },
  'POST /api/documents': { need: 'write', path: '/api/documents', body: { url: 'https://matrix.example/new', text: 'a new note about pangolins' } },
  'POST /api/batch': { need: 'write', path: '/api/batch', body: { operations: [{ op: 'add', url: 'https://matrix.example/batch', text: 'batch note' }] } },
  'GET /api/preview': { need: 'read', path: '/api/preview?url=https%3A%2F%2Fmatrix.example%2Fglobal' },
  'GET /api/history': { need: 'history', path: '/api/history?mode=indexed' },
  'POST /api/history/opened': { need: 'write', path: '/api/history/opened', body: { url: 'https://matrix.example/global', query: 'pangolin' } },
  'GET /api/tools': { need: 'meta', path: '/api/tools' },
  'GET /api/tools/:tool_id': { need: 'meta', path: '/api/tools/search' },
  'DELETE /api/documents/:id': { need: 'write', path: '/api/documents/01ARZ3NDEKTSV4RRFFQ69G5FAV' },
  'GET /api/documents/:id': { need: 'read', path: '/api/documents/https%3A%2F%2Fmatrix.example%2Fglobal' },
  'POST /api/profile/token': { need: 'profile', path: '/api/profile/token', body: {} },
  'GET /api/banks': { need: 'memory', path: '/api/banks' },
  'DELETE /api/banks/:bank': { need: 'write', path: '/api/banks/matrix-gone' },
  'POST /api/banks/:bank/memories': { need: 'write', path: '/api/banks/matrix/memories', body: { content: 'a pangolin memory' } },
  'GET /api/banks/:bank/recall': { need: 'memory', path: '/api/banks/matrix/recall?q=pangolin' },
  'GET /api/banks/:bank/reflect': { need: 'memory', path: '/api/banks/matrix/reflect?q=pangolin' },
  'GET /api/catalog/documents': { need: 'read', path: '/api/catalog/documents?query=pangolin' },
  'GET /api/documents/:id/text': { need: 'read', path: '/api/documents/https%3A%2F%2Fmatrix.example%2Fglobal/text' },
  'GET /api/documents/:id/source': { need: 'read', path: '/api/documents/https%3A%2F%2Fmatrix.example%2Fglobal/source' },
};

const TOOL_NEEDS: Record<string, { need: Need; args: Record<string, unknown> }> = {
  searxng_search: { need: 'network', args: { query: 'pangolin' } },
  search: { need: 'read', args: { query: 'pangolin' } },
  get_preview: { need: 'read', args: { url: 'https://matrix.example/global' } },
  get_history: { need: 'history', args: { mode: 'indexed' } },
  retain: { need: 'write', args: { content: 'the user likes pangolins' } },
  recall: { need: 'memory', args: { query: 'pangolins' } },
  reflect: { need: 'memory', args: { query: 'pangolins' } },
  'memory.search': { need: 'memory', args: { query: 'pangolin' } },
  'memory.recall': { need: 'memory', args: { query: 'pangolin' } },
  'tree.read_chunk': { need: 'memory', args: { chunk_id: '4096' } },
  'tree.browse': { need: 'memory', args: {} },
  'tree.top_entities': { need: 'memory', args: {} },
  'tree.list_sources': { need: 'memory', args: {} },
  get_status: { need: 'meta', args: {} },
  list_documents: { need: 'read', args: { query: 'pangolin' } },
  get_document: { need: 'read', args: { documentId: 'https://matrix.example/global' } },
  read_text: { need: 'read', args: { documentId: 'https://matrix.example/global' } },
  read_source: { need: 'read', args: { documentId: 'https://matrix.example/global' } },
  // Operations: arguments that fail after authorization (unknown ids, a bad date) so no work is queued.
  get_operation: { need: 'read', args: { operationId: 'op_0_unknown' } },
  cancel_operation: { need: 'read', args: { operationId: 'op_0_unknown' } },
  import_history: { need: 'admin', args: { requestKey: 'matrix', browser: 'firefox', since: 'not-a-date' } },
  refresh_document: { need: 'write', args: { requestKey: 'matrix', documentId: '01ARZ3NDEKTSV4RRFFQ69G5FAV' } },
  reindex: { need: 'admin', args: { requestKey: 'matrix' } },
  capture_screenshot: { need: 'read', args: { requestKey: 'matrix', documentId: '01ARZ3NDEKTSV4RRFFQ69G5FAV' } },
  inspect_accessibility: { need: 'read', args: { requestKey: 'matrix', documentId: '01ARZ3NDEKTSV4RRFFQ69G5FAV' } },
  inspect_dom: { need: 'read', args: { requestKey: 'matrix', documentId: '01ARZ3NDEKTSV4RRFFQ69G5FAV' } },
};

/** 'allow', or the status a denial answers with. */
function expected(mode: Mode, caller: Caller, need: Need): 'allow' | 401 | 403 {
  if (need === 'none') return 'allow';
  // Open mode: every (loopback) caller is the owner, who has no personal token.
  if (mode === 'open') return need === 'profile' ? 403 : 'allow';
  const known =
    (caller === 'static' && (mode === 'token' || mode === 'public')) ||
    ((caller === 'userA' || caller === 'userB' || caller === 'admin') && (mode === 'users' || mode === 'public'));
  if (caller === 'anonymous' && mode === 'public') return need === 'meta' || need === 'read' ? 'allow' : 401;
  if (!known) return 401;
  if (need === 'admin' && (caller === 'userA' || caller === 'userB')) return 403;
  if (need === 'profile' && caller === 'static') return 403;
  return 'allow';
}

// searxng_search exists only when enabled: every mode enables it against a local SearXNG-speaking server.
const searx = await startSearxngServer();
after(() => searx.close());
const SEARXNG = { 'searxng.enabled': 'true', 'searxng.base_url': searx.url };

const SECRETS = ['Pangolin field notes', 'matrix.example', 'Private pangolin diary'];

function assertLeaksNothing(status: number, text: string, where: string): void {
  const body = JSON.parse(text) as Record<string, any>;
  assert.deepEqual(Object.keys(body), ['error'], where);
  assert.deepEqual(Object.keys(body.error).sort(), ['code', 'message'], where);
  assert.equal(body.error.code, status === 401 ? 'UNAUTHORIZED' : 'FORBIDDEN', where);
  for (const s of SECRETS) assert.ok(!text.includes(s), `${where}: denial mentions ${s}`);
  assert.doesNotMatch(text, /\d{2,}/, `${where}: denial carries numbers`);
}

for (const mode of Object.keys(MODES) as Mode[]) {
  describe(`access in ${mode} mode`, () => {
    let app: App;
    let cleanup: () => Promise<void>;
    let server: RunningServer;
    const tokens: Partial<Record<Caller, string>> = { static: STATIC, wrong: 'trove_wrong-token-that-nobody-has-0000000000000' };

    before(async () => {
      ({ app, cleanup } = testApp({ ...MODES[mode], ...SEARXNG }));
      await addContent(app, { url: 'https://matrix.example/global', title: 'Pangolin field notes', text: 'Pangolins eat ants.', source: 'test' });
      if (mode === 'users' || mode === 'public') {
        tokens.userA = (await createUser(app, { name: 'alice', admin: false })).token;
        tokens.userB = (await createUser(app, { name: 'bob', admin: false })).token;
        tokens.admin = (await createUser(app, { name: 'root', admin: true })).token;
      } else {
        for (const c of ['userA', 'userB', 'admin'] as const) tokens[c] = `trove_${c.padEnd(43, 'x')}`;
      }
      server = await startServer(app, { host: '127.0.0.1', port: 0 });
    });
    after(async () => {
      await server.close();
      await cleanup();
    });

    test('every route is classified', () => {
      for (const r of ROUTES) assert.ok(ROUTE_NEEDS[`${r.method} ${r.path}`], `unclassified route ${r.method} ${r.path}`);
    });

    for (const caller of CALLERS) {
      test(`HTTP routes, ${caller}`, async () => {
        for (const [key, spec] of Object.entries(ROUTE_NEEDS)) {
          const [method] = key.split(' ');
          const headers: Record<string, string> = { 'content-type': 'application/json' };
          if (tokens[caller] && caller !== 'anonymous') headers.authorization = `Bearer ${tokens[caller]}`;
          const res = await fetch(`${server.url}${spec.path}`, { method, headers, body: spec.body === undefined ? undefined : JSON.stringify(spec.body) });
          const text = await res.text();
          const want = expected(mode, caller, spec.need);
          const where = `${mode} ${caller} ${key} -> ${res.status} ${text.slice(0, 200)}`;
          if (want === 'allow') {
            assert.ok(res.status !== 401 && res.status !== 403, where);
            assert.ok(res.status < 500, where);
            if (spec.need === 'profile' && res.ok) tokens[caller] = (JSON.parse(text) as { token: string }).token;
          } else {
            assert.equal(res.status, want, where);
            assertLeaksNothing(res.status, text, where);
            if (want === 401) assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer/, where);
          }
        }
      });

      test(`MCP tools, ${caller}`, async () => {
        const headers: Record<string, string> = caller === 'anonymous' ? {} : { authorization: `Bearer ${tokens[caller]}` };
        const reachable = expected(mode, caller, 'meta') === 'allow';
        if (!reachable) {
          const res = await fetch(`${server.url}/mcp`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' });
          assert.equal(res.status, 401);
          assertLeaksNothing(401, await res.text(), `${mode} ${caller} /mcp`);
          return;
        }
        const client = await httpClient(`${server.url}/mcp`, 'legacy', 'matrix', headers);
        try {
          const listed = (await client.listTools()).tools.map((t) => t.name);
          for (const spec of allToolSpecs()) {
            const need = TOOL_NEEDS[spec.name];
            assert.ok(need, `unclassified tool ${spec.name}`);
            const want = expected(mode, caller, need.need);
            const r = await call(client, spec.name, need.args);
            const where = `${mode} ${caller} ${spec.name}: ${JSON.stringify(r).slice(0, 200)}`;
            if (want === 'allow') {
              assert.ok(listed.includes(spec.name), where);
              assert.ok(!r.isError || !['UNAUTHORIZED', 'FORBIDDEN'].includes(r.error.code), where);
            } else {
              assert.ok(!listed.includes(spec.name), `${where}: a tool the caller may not use is not listed`);
              assert.equal(r.isError, true, where);
              assert.equal(r.error.code, want === 401 ? 'UNAUTHORIZED' : 'FORBIDDEN', where);
              for (const s of SECRETS) assert.ok(!JSON.stringify(r).includes(s), where);
            }
          }
        } finally {
          await client.close();
        }
      });
    }
  });
}

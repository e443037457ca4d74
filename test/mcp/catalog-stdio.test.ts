import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/load.js';
import { createLogger } from '../../src/log.js';
import { catalogUri } from '../../src/service/catalog-uris.js';
import { syncDirectories } from '../../src/service/folders.js';
import { cliEnv } from '../cli-run.js';
import { tempDir } from '../helpers.js';
import { ERAS, call, stdioClient } from './client.js';

// The catalog resources over stdio: `trove mcp` (the CLI's source under tsx) with the SDK's real client.

const MAIN = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
const NOTE = '# Stdio note\r\n\r\nRead over stdio.\r\n';

describe('catalog resources over stdio', () => {
  let t: ReturnType<typeof tempDir>;
  let noteUrl: string;
  let instanceId: string;
  const clients = new Map<string, Client>();

  before(async () => {
    t = tempDir('trove-stdio-catalog-');
    const root = join(t.dir, 'notes');
    mkdirSync(root);
    writeFileSync(join(root, 'stdio note.md'), NOTE);
    noteUrl = pathToFileURL(join(root, 'stdio note.md')).href;
    const directories = JSON.stringify([{ path: root }]);
    const app = createApp(loadConfig({ dataDir: join(t.dir, 'data'), env: { XDG_CONFIG_HOME: t.dir }, overrides: { 'indexer.directories': directories } }), createLogger('silent'), { extractionWorkers: 0 });
    await syncDirectories(app);
    instanceId = (await app.store.instanceState()).instanceId;
    await app.close();
    const env = cliEnv(t.dir, { TROVE_INDEXER_DIRECTORIES: directories }) as Record<string, string>;
    for (const era of ERAS) clients.set(era, await stdioClient(process.execPath, ['--import', 'tsx', MAIN, '--data-dir', join(t.dir, 'data'), 'mcp'], env, era));
  });
  after(async () => {
    for (const c of clients.values()) await c.close();
    t.cleanup();
  });

  for (const era of ERAS) {
    test(`${era} client: templates, status, document, text and source resources`, async () => {
      const c = clients.get(era)!;
      const { resourceTemplates } = await c.listResourceTemplates();
      assert.ok(resourceTemplates.some((r) => r.uriTemplate === `trove://${instanceId}/documents/{documentId}/source{?startLine,lineCount,revision}`));
      const [status] = (await c.readResource({ uri: catalogUri.status(instanceId) })).contents as any[];
      assert.equal(JSON.parse(status.text).trusted.counts.local, 1);
      const doc = await call(c, 'get_document', { documentId: noteUrl });
      const [source] = (await c.readResource({ uri: doc.trusted.uris.source })).contents as any[];
      assert.equal(source.text, NOTE);
      assert.equal(source._meta.sha256, createHash('sha256').update(NOTE).digest('hex'));
      const [page] = (await c.readResource({ uri: catalogUri.source(instanceId, noteUrl, { startLine: 3, lineCount: 1 }) })).contents as any[];
      assert.equal(page.text, 'Read over stdio.\r\n');
      const [text] = (await c.readResource({ uri: doc.trusted.uris.text })).contents as any[];
      assert.match(text.text, /Read over stdio\./);
    });
  }
});

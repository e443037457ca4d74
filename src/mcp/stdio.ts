import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { App } from '../app.js';
import { OWNER } from '../service/access.js';
import { createServerFactory } from './server.js';
import { createToolRegistry } from './tools.js';

/** Serves MCP on stdin/stdout until stdin ends; stdout carries protocol only (logs go to stderr). Memory tools use `bank`. */
export async function runStdio(app: App, bank: string = app.config.mcp.default_bank): Promise<void> {
  const registry = createToolRegistry(app.config);
  // Whoever can start the process can read the store file: the local owner.
  const factory = createServerFactory({ app, registry, defaultPrincipal: OWNER, defaultBank: bank });
  app.log.debug('mcp stdio serving', { tools: registry.listings.length, data_dir: app.config.dataDir });
  await new Promise<void>((resolve) => {
    const done = () => resolve();
    process.stdin.once('end', done);
    process.stdin.once('close', done);
    serveStdio(factory, { onerror: (err) => app.log.debug('mcp stdio', { error: err.message }) });
  });
}

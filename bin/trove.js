#!/usr/bin/env node
// The installed command: runs the compiled CLI (npm install builds it through the prepare script).
import { existsSync } from 'node:fs';

const main = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(main)) {
  process.stderr.write('trove: the compiled CLI is missing; run `npm install` (or `npm run build`) in the trove folder\n');
  process.exit(1);
}
await import(main.href);

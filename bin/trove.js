#!/usr/bin/env node
// The installed command: runs the bundled CLI (npm install builds it through the prepare script),
// else the compiled one.
import { existsSync } from 'node:fs';

const bundled = new URL('../dist/bundle/main.js', import.meta.url);
const compiled = new URL('../dist/cli/main.js', import.meta.url);
const main = existsSync(bundled) ? bundled : compiled;
if (!existsSync(main)) {
  process.stderr.write('trove: the compiled CLI is missing; run `npm install` (or `npm run build`) in the trove folder\n');
  process.exit(1);
}
await import(main.href);

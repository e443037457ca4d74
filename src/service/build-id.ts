import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { VERSION } from '../app.js';

// buildId: immutable per build. The package version and a hash over the code that runs (dist/ when
// installed or built, src/ under tsx): rebuilding changed code changes it, restarting the same build does not.

const CODE = /\.(?:js|mjs|ts)$/;

/** The code root above this module: the nearest ancestor directory named dist or src. */
function codeRoot(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 4; i++) {
    if (basename(dir) === 'dist' || basename(dir) === 'src') return dir;
    dir = dirname(dir);
  }
  return undefined;
}

function codeFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && CODE.test(e.name)) out.push(p);
    }
  };
  walk(root);
  return out.sort();
}

export function computeBuildId(): string {
  const root = codeRoot();
  if (!root) return `${VERSION}+unknown`;
  const hash = createHash('sha256');
  for (const file of codeFiles(root)) hash.update(relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
  return `${VERSION}+${hash.digest('hex').slice(0, 16)}`;
}

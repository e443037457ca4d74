// Glob patterns for folder include/exclude: `**` (any number of path segments), `*` and `?` (within one
// segment), `[abc]` / `[!a-z]` classes, `{a,b}` alternatives (nestable) and `\` escapes. Node 20's
// path.matchesGlob is experimental (it warns) and never matches dot files, so trove has its own.

const SYNTAX = /[\\^$.*+?()[\]{}|/]/;

function literal(c: string): string {
  return SYNTAX.test(c) ? `\\${c}` : c;
}

interface Parsed {
  src: string;
  end: number;
}

/** `[...]` starting at `i`, or undefined when unterminated (then `[` is literal). */
function charClass(p: string, i: number): Parsed | undefined {
  let j = i + 1;
  const negate = p[j] === '!' || p[j] === '^';
  if (negate) j++;
  const start = j;
  if (p[j] === ']') j++;
  while (j < p.length && p[j] !== ']') j++;
  if (j >= p.length) return undefined;
  const body = [...p.slice(start, j)].map((c) => (c === '\\' || c === ']' || c === '[' || c === '^' ? `\\${c}` : c)).join('');
  return { src: negate ? `[^/${body}]` : `[${body}]`, end: j + 1 };
}

/** A run of stars at `i`; `**` alone in its segment crosses directories. */
function stars(p: string, i: number, stop: string): Parsed {
  let j = i;
  while (p[j] === '*') j++;
  const double = j - i >= 2;
  const segmentStart = i === 0 || p[i - 1] === '/' || p[i - 1] === '{' || p[i - 1] === ',';
  const next = p[j];
  if (double && segmentStart && next === '/') return { src: '(?:[^/]*/)*', end: j + 1 };
  if (double && segmentStart && (next === undefined || stop.includes(next))) return { src: '.*', end: j };
  return { src: '[^/]*', end: j };
}

/** `{a,b,...}` starting at `i`, or undefined when unterminated (then `{` is literal). */
function alternatives(p: string, i: number): Parsed | undefined {
  const options: string[] = [];
  let j = i + 1;
  for (;;) {
    const part = sequence(p, j, ',}');
    options.push(part.src);
    if (part.end >= p.length) return undefined;
    j = part.end + 1;
    if (p[part.end] === '}') return { src: `(?:${options.join('|')})`, end: j };
  }
}

/** Translates from `i` until the end or one of the `stop` characters (inside braces). */
function sequence(p: string, i: number, stop: string): Parsed {
  let src = '';
  let j = i;
  while (j < p.length && !stop.includes(p[j]!)) {
    const c = p[j]!;
    let part: Parsed | undefined;
    if (c === '*') part = stars(p, j, stop);
    else if (c === '?') part = { src: '[^/]', end: j + 1 };
    else if (c === '[') part = charClass(p, j);
    else if (c === '{') part = alternatives(p, j);
    else if (c === '\\' && j + 1 < p.length) part = { src: literal(p[j + 1]!), end: j + 2 };
    part ??= { src: literal(c), end: j + 1 };
    src += part.src;
    j = part.end;
  }
  return { src, end: j };
}

/** The whole-string regular expression for one glob. */
export function globToRegExp(pattern: string): RegExp {
  return new RegExp(`^${sequence(pattern, 0, '').src}$`, 'u');
}

export function matchGlob(pattern: string, path: string): boolean {
  return globToRegExp(pattern).test(path);
}

/** Tests a '/'-separated path relative to a folder root; a directory also matches patterns of what lies under it (`drafts/**`). */
export type PathMatcher = (relPath: string, isDirectory?: boolean) => boolean;

/**
 * Matches a path against any of the patterns, gitignore-style: a pattern without `/` matches the last
 * segment at any depth (`*.log`, `node_modules`); one with `/` matches the whole relative path, a
 * leading `/` only anchoring it (`/drafts/**`, `notes/*.md`).
 */
export function pathMatcher(patterns: readonly string[]): PathMatcher {
  const compiled = patterns.map((raw) => {
    const p = raw.replace(/^\.\//, '').replace(/\/+$/, '');
    const anchored = p.includes('/');
    return { re: globToRegExp(anchored ? p.replace(/^\/+/, '') : p), anchored };
  });
  return (relPath, isDirectory = false) => {
    const name = relPath.slice(relPath.lastIndexOf('/') + 1);
    return compiled.some(({ re, anchored }) => (anchored ? re.test(relPath) || (isDirectory && re.test(`${relPath}/`)) : re.test(name)));
  };
}

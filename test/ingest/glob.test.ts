import assert from 'node:assert/strict';
import { test } from 'node:test';
import { globToRegExp, matchGlob, pathMatcher } from '../../src/ingest/glob.js';

function matches(pattern: string, yes: string[], no: string[]): void {
  for (const p of yes) assert.equal(matchGlob(pattern, p), true, `${pattern} should match ${p}`);
  for (const p of no) assert.equal(matchGlob(pattern, p), false, `${pattern} should not match ${p}`);
}

test('* and ? stay inside one path segment', () => {
  matches('*.md', ['a.md', '.md', 'x.y.md'], ['a/b.md', 'a.mdx', 'a.txt']);
  matches('a?c', ['abc', 'a.c'], ['ac', 'a/c', 'abbc']);
  matches('notes/*', ['notes/a', 'notes/.x'], ['notes', 'notes/a/b']);
});

test('** crosses directories only as a whole segment', () => {
  matches('**/*.md', ['a.md', 'x/a.md', 'x/y/z/a.md'], ['a.txt', 'x/a.txt']);
  matches('a/**/b', ['a/b', 'a/x/b', 'a/x/y/b'], ['b', 'a/xb', 'ab']);
  matches('drafts/**', ['drafts/a', 'drafts/x/y.md'], ['drafts', 'other/drafts/a']);
  matches('**', ['a', 'a/b/c'], []);
  matches('a**b', ['ab', 'axxb'], ['a/b']);
});

test('{a,b} alternatives, nested, and [classes]', () => {
  matches('*.{md,txt}', ['a.md', 'b.txt'], ['c.html', 'd.{md,txt}']);
  matches('{a,b{c,d}}/x', ['a/x', 'bc/x', 'bd/x'], ['b/x', 'e/x']);
  matches('{src/**/*.md,README.md}', ['README.md', 'src/a.md', 'src/x/b.md'], ['docs/README.md']);
  matches('file[0-9].md', ['file1.md'], ['filex.md', 'file10.md']);
  matches('[!a-c]*', ['d', 'zebra'], ['a', 'cat', '/x']);
  matches('[]x]', [']', 'x'], ['y']);
});

test('special characters are literal, escapes work, unterminated groups are literal', () => {
  matches('a.b+(c)|$^', ['a.b+(c)|$^'], ['axb+(c)|$^']);
  matches('\\*.md', ['*.md'], ['a.md']);
  matches('{a,b', ['{a,b'], ['a']);
  matches('[ab', ['[ab'], ['a']);
  matches('naïve ✓.md', ['naïve ✓.md'], ['naive ✓.md']);
  assert.ok(globToRegExp('x').flags.includes('u'));
});

test('path matcher: globs without / match the name at any depth, with / the whole path', () => {
  const m = pathMatcher(['*.log', 'node_modules', '/top.md', 'docs/*.md', './build/']);
  assert.equal(m('a/b/c.log'), true);
  assert.equal(m('x/node_modules'), true);
  assert.equal(m('top.md'), true);
  assert.equal(m('sub/top.md'), false);
  assert.equal(m('docs/a.md'), true);
  assert.equal(m('sub/docs/a.md'), false);
  assert.equal(m('build'), true);
  assert.equal(m('readme.md'), false);
  assert.equal(pathMatcher([])('anything'), false);
});

test('path matcher: a directory matches patterns for what lies under it', () => {
  const m = pathMatcher(['drafts/**']);
  assert.equal(m('drafts', true), true);
  assert.equal(m('drafts', false), false);
  assert.equal(m('drafts/a.md'), true);
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createProgress } from '../../src/cli/progress.js';

function stream(isTTY: boolean): { isTTY: boolean; out: string[]; write(s: string): boolean } {
  const out: string[] = [];
  return { isTTY, out, write: (s) => out.push(s) > 0 };
}

test('on a terminal: one redrawn bar per phase, ended with a newline', () => {
  const s = stream(true);
  const p = createProgress(s);
  p.update('visits', 0, 200);
  p.update('visits', 100, 200); // within the redraw interval: skipped
  p.update('visits', 200, 200);
  p.update('fetch', 1, 2);
  p.finish();
  assert.equal(s.out[0], `\rvisits    [${'.'.repeat(30)}]   0% 0/200\x1b[K`);
  assert.equal(s.out[1], `\rvisits    [${'#'.repeat(30)}] 100% 200/200\x1b[K`);
  assert.equal(s.out[2], '\n');
  assert.match(s.out[3]!, /^\rfetch +\[#{15}\.{15}\] +50% 1\/2\x1b\[K$/);
  assert.equal(s.out[4], '\n');
  assert.equal(s.out.length, 5);
});

test('elsewhere: a plain line at the start, every tenth of the way and at the end', () => {
  const s = stream(false);
  const p = createProgress(s);
  for (let i = 0; i <= 1000; i += 50) p.update('visits', i, 1000);
  p.update('fetch', 0, 0);
  p.finish();
  assert.deepEqual(s.out, [
    ...[0, 100, 200, 300, 400, 500, 600, 700, 800, 900, 1000].map((i) => `trove: visits ${i}/1000\n`),
    'trove: fetch 0/0\n',
  ]);
});

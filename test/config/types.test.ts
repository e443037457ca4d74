import assert from 'node:assert/strict';
import { test } from 'node:test';
import { coerceValue } from '../../src/config/load.js';
import type { KeySpec } from '../../src/config/schema.js';
import { TroveError } from '../../src/errors.js';

const strings: KeySpec = { type: 'strings', default: [], doc: '' };
const tables: KeySpec = {
  type: 'tables',
  default: [],
  doc: '',
  fields: {
    path: { type: 'string', default: '', doc: '', required: true },
    max: { type: 'integer', default: 5, min: 1, max: 10, doc: '' },
  },
};

function code(fn: () => unknown): { code: string; key: unknown } {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof TroveError);
    return { code: err.code, key: err.details?.key };
  }
  assert.fail('expected an error');
}

test('string lists from TOML arrays, JSON and comma-separated text', () => {
  assert.deepEqual(coerceValue('s.k', strings, ['a', 'b'], false), ['a', 'b']);
  assert.deepEqual(coerceValue('s.k', strings, '["a,1", "b"]', true), ['a,1', 'b']);
  assert.deepEqual(coerceValue('s.k', strings, ' a, b ,,c ', true), ['a', 'b', 'c']);
  assert.deepEqual(coerceValue('s.k', strings, '', true), []);
  assert.deepEqual(code(() => coerceValue('s.k', strings, ['a', 1], false)), { code: 'INVALID_CONFIG', key: 's.k' });
  assert.deepEqual(code(() => coerceValue('s.k', strings, 'a', false)), { code: 'INVALID_CONFIG', key: 's.k' });
  assert.deepEqual(code(() => coerceValue('s.k', strings, '[broken', true)), { code: 'INVALID_CONFIG', key: 's.k' });
});

test('table lists check every field, fill defaults and name the bad entry', () => {
  assert.deepEqual(coerceValue('s.t', tables, [{ path: '/x' }, { path: '/y', max: 7 }], false), [{ path: '/x', max: 5 }, { path: '/y', max: 7 }]);
  assert.deepEqual(coerceValue('s.t', tables, '[{"path":"/z"}]', true), [{ path: '/z', max: 5 }]);
  assert.deepEqual(code(() => coerceValue('s.t', tables, [{ path: '/x', nope: 1 }], false)), { code: 'INVALID_CONFIG', key: 's.t[0].nope' });
  assert.deepEqual(code(() => coerceValue('s.t', tables, [{ path: '/x' }, { max: 2 }], false)), { code: 'INVALID_CONFIG', key: 's.t[1].path' });
  assert.deepEqual(code(() => coerceValue('s.t', tables, [{ path: '/x', max: 11 }], false)), { code: 'INVALID_CONFIG', key: 's.t[0].max' });
  assert.deepEqual(code(() => coerceValue('s.t', tables, ['x'], false)), { code: 'INVALID_CONFIG', key: 's.t[0]' });
});

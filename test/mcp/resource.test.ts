import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isTroveError } from '../../src/errors.js';
import { compileTemplate, defineResource, listedTemplate, queryInteger } from '../../src/mcp/resource.js';
import { ResourceTable, allResourceSpecs } from '../../src/mcp/resources.js';
import { encodeComponent, troveUri } from '../../src/service/catalog-uris.js';

// The resource table: templates, exact ids in URIs, and strict query keys.

const INSTANCE = '01ARZ3NDEKTSV4RRFFQ69G5FAV';
const table = new ResourceTable();
const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return isTroveError(e) ? e.code : 'not a TroveError';
  }
  return 'no error';
};

test('ids survive encoding into one segment and decoding back, dot-only ones included', () => {
  for (const id of ['.', '..', '...', 'a b/c%2Fd?e#f&g=h', 'Ünïcödé 😀', '%2e%2e', './..']) {
    const { spec, match } = table.match(troveUri(INSTANCE, ['documents', id, 'text'], { offset: 3 }), INSTANCE);
    assert.equal(spec.name, 'document_text');
    assert.deepEqual(match.params, { documentId: id });
    assert.deepEqual(match.query, { offset: '3' });
  }
  assert.equal(encodeComponent('..'), '%2E%2E');
  assert.equal(encodeComponent('a.b'), 'a.b');
});

test('unknown, repeated and malformed query keys are INVALID_ARGUMENT; other instances and paths NOT_FOUND', () => {
  const base = troveUri(INSTANCE, ['documents', 'x', 'source']);
  assert.equal(code(() => table.match(`${base}?startLine=1&startLine=2`, INSTANCE)), 'INVALID_ARGUMENT');
  assert.equal(code(() => table.match(`${base}?offset=1`, INSTANCE)), 'INVALID_ARGUMENT');
  assert.equal(code(() => table.match(`${base}?startLine`, INSTANCE)), 'INVALID_ARGUMENT');
  assert.equal(code(() => table.match(`${base}#top`, INSTANCE)), 'INVALID_ARGUMENT');
  assert.equal(code(() => table.match(`trove://${INSTANCE}/documents/%E0%A4%A/text`, INSTANCE)), 'INVALID_ARGUMENT');
  assert.equal(code(() => table.match(troveUri('01BX5ZZKBKACTAV9WEVGEMMVRZ', ['status']), INSTANCE)), 'NOT_FOUND');
  assert.equal(code(() => table.match(`trove://${INSTANCE}/documents//text`, INSTANCE)), 'NOT_FOUND');
  assert.equal(code(() => table.match(`trove://${INSTANCE}/documents/a/b/text`, INSTANCE)), 'NOT_FOUND');
  assert.equal(code(() => table.match(`file:///etc/passwd`, INSTANCE)), 'NOT_FOUND');
  assert.equal(code(() => queryInteger({ limit: '1e3' }, 'limit', { min: 1, max: 10 })), 'INVALID_ARGUMENT');
  assert.equal(code(() => queryInteger({ limit: '11' }, 'limit', { min: 1, max: 10 })), 'INVALID_ARGUMENT');
  assert.equal(queryInteger({ limit: '10' }, 'limit', { min: 1, max: 10 }), 10);
});

test('templates are listed with the instance filled in; malformed templates and duplicate names are refused', () => {
  const listed = table.templates(INSTANCE).map((t) => t.uriTemplate);
  assert.ok(listed.includes(`trove://${INSTANCE}/documents/{documentId}/text{?offset,limit,versionId,revision}`));
  assert.deepEqual(table.listed(INSTANCE).map((r) => r.uri), [`trove://${INSTANCE}/status`]);
  assert.deepEqual(compileTemplate('trove://{instanceId}/operations/{operationId}{?offset,limit}').queryKeys, ['offset', 'limit']);
  assert.throws(() => compileTemplate('trove://x/status'));
  assert.throws(() => compileTemplate('trove://{instanceId}/a//b'));
  const spec = allResourceSpecs()[0]!;
  assert.throws(() => new ResourceTable([spec, defineResource({ ...spec })]), /duplicate/);
  assert.equal(listedTemplate(spec, INSTANCE), `trove://${INSTANCE}/status`);
});

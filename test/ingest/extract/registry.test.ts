import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { TroveError } from '../../../src/errors.js';
import { createExtractors, extract } from '../../../src/ingest/extract/index.js';
import type { ExtractInput, Extractor, Outcome } from '../../../src/ingest/extract/types.js';

const URL_ = new URL('https://example.org/page');

/** A registry entry that records its calls and answers as told. */
function entry(name: string, answer: (input: ExtractInput) => Outcome, calls: string[], matches = true): Extractor {
  return {
    name,
    capabilities: ['text', 'metadata'],
    matches: () => matches,
    run: (input) => {
      calls.push(name);
      return answer(input);
    },
  };
}

describe('extractor registry', () => {
  test('the default order: guard, metadata, site-aware, article, readability, basic, then files', () => {
    assert.deepEqual(createExtractors().map((e) => e.name), ['binary-guard', 'metadata', 'github', 'wikipedia', 'stackexchange', 'article', 'readability', 'basic', 'pdf', 'code', 'markdown', 'text']);
    for (const e of createExtractors()) for (const c of e.capabilities) assert.ok(['text', 'metadata', 'preview'].includes(c), `${e.name}: ${c}`);
  });

  test('runs in order until a success; falls back past "next"; skips entries that do not match', async () => {
    const calls: string[] = [];
    const result = await extract({ url: URL_, text: 'x' }, [
      entry('unmatched', () => assert.fail('must not run'), calls, false),
      entry('declines', () => ({ status: 'next', reason: 'not mine' }), calls),
      entry('wins', () => ({ status: 'success', result: { text: 'won', title: 'T' } }), calls),
      entry('never', () => assert.fail('must not run after a success'), calls),
    ]);
    assert.deepEqual(calls, ['declines', 'wins']);
    assert.equal(result.extractor, 'wins');
    assert.equal(result.text, 'won');
    assert.equal(result.html, null);
    assert.deepEqual(result.skipped, [{ extractor: 'declines', reason: 'not mine' }]);
  });

  test('metadata accumulates across enrich, next and success, later values overriding earlier ones', async () => {
    const calls: string[] = [];
    const result = await extract({ url: URL_, text: 'x' }, [
      entry('enricher', () => ({ status: 'enrich', metadata: { author: 'A', description: 'first' }, title: 'Enriched title' }), calls),
      entry('partial', () => ({ status: 'next', reason: 'too short', metadata: { description: 'second', site_name: 'S' } }), calls),
      entry('final', () => ({ status: 'success', result: { text: 'body', metadata: { author: 'B' } } }), calls),
    ]);
    assert.deepEqual(result.metadata, { author: 'B', description: 'second', site_name: 'S' });
    assert.equal(result.title, 'Enriched title', 'the enricher title stands in for a success without one');
  });

  test('abort: a TroveError stops the run and reaches the caller', async () => {
    const calls: string[] = [];
    await assert.rejects(
      extract({ url: URL_, text: 'x' }, [
        entry('aborts', () => {
          throw new TroveError('UNSUPPORTED_TYPE', 'refused');
        }, calls),
        entry('after', () => ({ status: 'success', result: { text: 'no' } }), calls),
      ]),
      (err: unknown) => err instanceof TroveError && err.code === 'UNSUPPORTED_TYPE',
    );
    assert.deepEqual(calls, ['aborts']);
  });

  test('an unexpected exception in an extractor falls back instead of failing the input', async () => {
    const calls: string[] = [];
    const result = await extract({ url: URL_, text: 'x' }, [
      entry('buggy', () => {
        throw new RangeError('boom');
      }, calls),
      entry('next', () => ({ status: 'success', result: { text: 'ok' } }), calls),
    ]);
    assert.equal(result.extractor, 'next');
    assert.deepEqual(result.skipped, [{ extractor: 'buggy', reason: 'failed: boom' }]);
  });

  test('no extractor for the input is UNSUPPORTED_TYPE', async () => {
    await assert.rejects(extract({ url: URL_, bytes: new Uint8Array([1, 2, 3]), contentType: 'image/png' }, createExtractors()), (err: unknown) => err instanceof TroveError && err.code === 'UNSUPPORTED_TYPE');
  });

  test('extractors share one parse of the page; one that takes it leaves a fresh parse for the next', async () => {
    const seen: unknown[] = [];
    const reader = (name: string, take: boolean): Extractor => ({
      name,
      capabilities: ['metadata'],
      matches: () => true,
      run: (_input, ctx) => {
        seen.push(take ? ctx.takeDocument() : ctx.document());
        return { status: 'enrich', metadata: {} };
      },
    });
    await extract({ url: URL_, html: '<p>hello</p>' }, [reader('a', false), reader('b', true), reader('c', false), reader('d', false), { ...reader('e', false), capabilities: ['text'], run: () => ({ status: 'success', result: { text: '' } }) }]);
    assert.equal(seen[0], seen[1], 'shared until taken');
    assert.notEqual(seen[1], seen[2], 'a taken page is parsed again for the next reader');
    assert.equal(seen[2], seen[3]);
  });
});

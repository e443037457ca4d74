import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { TroveError } from '../../../src/errors.js';
import { createExtractors, extract } from '../../../src/ingest/extract/index.js';
import { type ExtractionPool, createExtractionPool } from '../../../src/ingest/extract/pool.js';
import { startWorker } from '../../../src/ingest/extract/wire.js';
import { FIXTURE_PAGES, fixture } from './fixtures.js';

const pages = () => FIXTURE_PAGES.map(({ file, url }) => ({ url: new URL(url), html: fixture(file) }));
const BINARY = `<html>${'\u0000\u0001\u0002'.repeat(200)}</html>`;

async function withPool(options: Parameters<typeof createExtractionPool>[0], fn: (pool: ExtractionPool) => Promise<void>): Promise<void> {
  const pool = createExtractionPool(options);
  try {
    await fn(pool);
  } finally {
    await pool.close();
  }
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await sleep(10);
}

/** The rejection of `promise`, or a failure when it resolves. */
async function rejection(promise: Promise<unknown>): Promise<TroveError> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof TroveError, `a TroveError, got ${String(err)}`);
    return err;
  }
  assert.fail('expected a rejection');
}

describe('extraction worker pool', () => {
  test('a batch on workers gives what extracting in-process gives, page for page', async () => {
    await withPool({ size: 2 }, async (pool) => {
      assert.equal(pool.workers, 0, 'no thread before the first batch');
      const inputs = pages();
      const pooled = await Promise.all(inputs.map((input) => pool.extract(input)));
      assert.ok(pool.workers > 0 && pool.workers <= 2, `workers: ${pool.workers}`);
      const extractors = createExtractors();
      for (const [i, input] of inputs.entries()) assert.deepEqual(pooled[i], await extract(input, extractors), input.url.href);
    });
  });

  test('a lone page, text and size 1 are extracted in-process: no thread starts', async () => {
    await withPool({ size: 2 }, async (pool) => {
      const [first] = pages();
      assert.equal((await pool.extract(first!)).extractor, 'article');
      assert.equal((await pool.extract({ url: new URL('file:///n.txt'), text: 'a note', extension: '.txt' })).text, 'a note');
      await Promise.all([1, 2, 3].map((n) => pool.extract({ url: new URL(`file:///${n}.md`), text: `# Note ${n}`, extension: '.md' })));
      assert.equal(pool.workers, 0);
    });
    await withPool({ size: 1 }, async (pool) => {
      await Promise.all(pages().map((input) => pool.extract(input)));
      assert.equal(pool.workers, 0);
    });
  });

  test('refusals arrive as the same TroveError, code, message and details, and only fail their page', async () => {
    const input = { url: new URL('https://binary.example/'), html: BINARY };
    const local = await rejection(extract(input, createExtractors()));
    await withPool({ size: 2 }, async (pool) => {
      const batch = [...pages(), input].map((i) => pool.extract(i));
      const remote = await rejection(batch[batch.length - 1]!);
      assert.ok(pool.workers > 0, 'it went through a worker');
      assert.equal(remote.code, 'UNSUPPORTED_TYPE');
      assert.equal(remote.message, local.message);
      assert.deepEqual(remote.details, local.details);
      assert.equal((await Promise.all(batch.slice(0, -1))).length, FIXTURE_PAGES.length, 'the other pages are extracted');
    });
  });

  test('close() stops the threads and fails what waits; later extractions run in-process', async () => {
    const pool = createExtractionPool({ size: 2 });
    const inputs = [...pages(), ...pages(), ...pages()];
    const waiting = inputs.map((input) => pool.extract(input).then(() => 'done', (err: TroveError) => err.code));
    await until(() => pool.workers > 0);
    await pool.close();
    assert.equal(pool.workers, 0);
    const outcomes = await Promise.all(waiting);
    assert.ok(outcomes.every((o) => o === 'done' || o === 'INTERNAL'), outcomes.join());
    assert.ok(outcomes.includes('INTERNAL'), 'the queue was not drained before closing');
    assert.equal((await pool.extract(pages()[0]!)).extractor, 'article');
    assert.equal(pool.workers, 0);
  });

  test('idle workers stop after idleMs', async () => {
    await withPool({ size: 2, idleMs: 20 }, async (pool) => {
      await Promise.all(pages().map((input) => pool.extract(input)));
      assert.ok(pool.workers > 0);
      await until(() => pool.workers === 0);
    });
  });

  test('a worker dying on a page fails that page with INTERNAL and is replaced', async () => {
    let started = 0;
    // The first thread dies on its first task; the ones after it are real workers.
    const spawn = () =>
      ++started === 1 ? new Worker("const { parentPort } = require('node:worker_threads'); parentPort.postMessage({ ready: true }); parentPort.on('message', () => process.exit(3));", { eval: true }) : startWorker();
    await withPool({ size: 2, spawn }, async (pool) => {
      const outcomes = await Promise.all(pages().map((input) => pool.extract(input).then((r) => r.extractor, (err: TroveError) => err.code)));
      assert.equal(outcomes.filter((o) => o === 'INTERNAL').length, 1, outcomes.join());
      assert.ok(started >= 2, 'a replacement started');
    });
  });

  test('when workers cannot start, every page is extracted in-process', async () => {
    const spawn = () => new Worker('throw new Error("no worker here")', { eval: true });
    await withPool({ size: 2, spawn }, async (pool) => {
      const inputs = pages();
      const results = await Promise.all(inputs.map((input) => pool.extract(input)));
      const extractors = createExtractors();
      for (const [i, input] of inputs.entries()) assert.deepEqual(results[i], await extract(input, extractors), input.url.href);
      assert.equal(pool.workers, 0);
    });
  });
});

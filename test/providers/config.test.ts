import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { describeConfig, loadConfig } from '../../src/config/load.js';
import { TroveError } from '../../src/errors.js';
import { tempDir } from '../helpers.js';

// [semantic], [llm] and [searxng]: seed 001's SearXNG keys exactly, TROVE_* env, secrets masked.

const isolated = { XDG_CONFIG_HOME: '/nonexistent' };

test('[searxng] has seed 001 keys and defaults', () => {
  const c = loadConfig({ dataDir: '/nonexistent', env: isolated });
  assert.deepEqual(c.searxng, { enabled: false, base_url: 'http://localhost:8080', max_results: 10, default_language: 'en', timeout_seconds: 10 });
  assert.equal(c.semantic.enabled, false);
  assert.equal(c.semantic.base_url, 'http://localhost:11434');
  assert.equal(c.semantic.dimensions, 0);
  assert.equal(c.semantic.batch_size, 32);
  assert.equal(c.llm.enabled, false);
});

test('the seed 001 example, as a file and as TROVE_SEARXNG_* environment variables', () => {
  const t = tempDir();
  try {
    const file = join(t.dir, 'config.toml');
    writeFileSync(file, '[searxng]\nenabled = true\nbase_url = "http://localhost:8080"\nmax_results = 10\ndefault_language = "en"\ntimeout_seconds = 10\n');
    assert.equal(loadConfig({ configPath: file, dataDir: t.dir, env: isolated }).searxng.enabled, true);
    const env = {
      ...isolated, TROVE_SEARXNG_ENABLED: 'true', TROVE_SEARXNG_BASE_URL: 'http://search.lan:8888', TROVE_SEARXNG_MAX_RESULTS: '25',
      TROVE_SEARXNG_DEFAULT_LANGUAGE: 'de', TROVE_SEARXNG_TIMEOUT_SECONDS: '3',
    };
    assert.deepEqual(loadConfig({ dataDir: t.dir, env }).searxng, { enabled: true, base_url: 'http://search.lan:8888', max_results: 25, default_language: 'de', timeout_seconds: 3 });
  } finally {
    t.cleanup();
  }
});

test('out-of-range and malformed values are INVALID_CONFIG', () => {
  for (const env of [{ TROVE_SEARXNG_MAX_RESULTS: '51' }, { TROVE_SEARXNG_MAX_RESULTS: '0' }, { TROVE_SEMANTIC_BATCH_SIZE: '0' }, { TROVE_SEMANTIC_DIMENSIONS: '-1' }, { TROVE_LLM_BASE_URL: 'ftp://x' }, { TROVE_SEARXNG_BASE_URL: 'localhost:8080' }]) {
    assert.throws(() => loadConfig({ dataDir: '/nonexistent', env: { ...isolated, ...env } }), (e: unknown) => e instanceof TroveError && e.code === 'INVALID_CONFIG', JSON.stringify(env));
  }
});

test('API keys are secrets: `config show` masks them', () => {
  const env = { ...isolated, TROVE_SEMANTIC_API_KEY: 'sk-sem-123456', TROVE_LLM_API_KEY: 'sk-llm-654321' };
  const shown = JSON.stringify(describeConfig(loadConfig({ dataDir: '/nonexistent', env })));
  assert.ok(!shown.includes('sk-sem-123456') && !shown.includes('sk-llm-654321'));
  assert.match(shown, /"api_key":"\*{8}"/);
});

import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/load.js';
import { TroveError } from '../../src/errors.js';
import { checkIndexable, createSkipRules, normalizeDomain, skipReason } from '../../src/ingest/skip.js';
import { createLogger } from '../../src/log.js';
import { addContent, addTargets } from '../../src/service/documents.js';
import { getStatus } from '../../src/service/status.js';
import { cliEnv, parseJson, runCli } from '../cli-run.js';
import { suiteDirs, testApp } from '../helpers.js';

const dirs = suiteDirs('trove-skip-');

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof TroveError, String(err));
    return err.code;
  }
  return undefined;
}

describe('skip rules', () => {
  const rules = createSkipRules(['bank.example', '*.Mail.Example.', 'bücher.de'], ['/[?&]session=/i', '^https://docs\\.example/private/']);
  const reason = (url: string) => skipReason(rules, new URL(url));

  test('domains are normalized: wildcard and trailing dot dropped, lower case, punycode', () => {
    assert.deepEqual(rules.domains, ['bank.example', 'mail.example', 'xn--bcher-kva.de']);
    assert.equal(normalizeDomain('.Example.ORG'), 'example.org');
  });

  test('a domain matches itself and its subdomains, never a mere suffix', () => {
    assert.equal(reason('https://bank.example/login'), 'indexer.skip_domains: bank.example');
    assert.equal(reason('http://www.online.bank.example./'), 'indexer.skip_domains: bank.example');
    assert.equal(reason('https://MAIL.example/inbox'), 'indexer.skip_domains: mail.example');
    assert.equal(reason('https://bücher.de/'), 'indexer.skip_domains: xn--bcher-kva.de');
    assert.equal(reason('https://notbank.example/'), undefined);
    assert.equal(reason('https://bank.example.org/'), undefined);
  });

  test('patterns are tested against the whole URL, with their flags', () => {
    assert.equal(reason('https://shop.example/cart?SESSION=abc'), 'indexer.skip_patterns: /[?&]session=/i');
    assert.equal(reason('https://docs.example/private/plan'), 'indexer.skip_patterns: ^https://docs\\.example/private/');
    assert.equal(reason('https://docs.example/public/plan'), undefined);
    const local = createSkipRules(['home'], ['^file:///home/me/private/']);
    assert.equal(skipReason(local, new URL('file:///home/me/private/a.txt')), 'indexer.skip_patterns: ^file:///home/me/private/');
    assert.equal(skipReason(local, new URL('file:///home/me/a.txt')), undefined, 'domains apply to web pages only');
  });

  test('checkIndexable: SKIPPED for a rule, UNSUPPORTED_SCHEME for schemes never stored, nothing for the rest', () => {
    assert.equal(codeOf(() => checkIndexable(rules, 'https://bank.example/')), 'SKIPPED');
    for (const url of ['javascript:alert(1)', 'data:text/html,hi', 'vbscript:x', 'about:blank', 'blob:https://a/b', 'chrome://settings']) {
      assert.equal(codeOf(() => checkIndexable(rules, url)), 'UNSUPPORTED_SCHEME', url);
    }
    for (const url of ['https://example.org/', 'file:///tmp/a.txt', 'memory:default/1', 'not a url']) assert.equal(codeOf(() => checkIndexable(rules, url)), undefined, url);
  });

  test('a skipped URL with a password is reported without it', () => {
    try {
      checkIndexable(rules, 'https://me:pw123@bank.example/');
      assert.fail('not skipped');
    } catch (err) {
      assert.ok(!(err as Error).message.includes('pw123'));
      assert.ok(!JSON.stringify((err as TroveError).details).includes('pw123'));
    }
  });
});

describe('invalid rules in the config are INVALID_CONFIG naming the key', () => {
  const load = (overrides: Record<string, string>) => loadConfig({ dataDir: dirs.fresh(), env: { XDG_CONFIG_HOME: dirs.fresh() }, overrides });
  const keyOf = (fn: () => unknown) => {
    try {
      fn();
    } catch (err) {
      assert.ok(err instanceof TroveError);
      assert.equal(err.code, 'INVALID_CONFIG');
      return err.details?.key;
    }
    assert.fail('accepted');
  };

  test('a regex that does not compile, or a flag that is not allowed', () => {
    assert.equal(keyOf(() => load({ 'indexer.skip_patterns': '["ok", "(unclosed"]' })), 'indexer.skip_patterns[1]');
    assert.equal(keyOf(() => load({ 'redact.patterns': '["[z-a]"]' })), 'redact.patterns[0]');
    assert.equal(keyOf(() => load({ 'redact.patterns': '["/x/g"]' })), 'redact.patterns[0]');
    assert.equal(keyOf(() => load({ 'redact.patterns': '[""]' })), 'redact.patterns[0]');
  });

  test('a domain that is not a host name, an unknown built-in', () => {
    assert.equal(keyOf(() => load({ 'indexer.skip_domains': '["https://bank.example/"]' })), 'indexer.skip_domains[0]');
    assert.equal(keyOf(() => load({ 'redact.builtins': 'aws,stripe' })), 'redact.builtins[1]');
  });

  test('from a config file, the key is named too', () => {
    const path = join(dirs.fresh(), 'config.toml');
    writeFileSync(path, '[indexer]\nskip_patterns = ["fine", "a{2,1}"]\n');
    assert.equal(keyOf(() => loadConfig({ configPath: path, dataDir: dirs.fresh(), env: {} })), 'indexer.skip_patterns[1]');
  });

  test('createApp refuses a config that skipped validation', () => {
    const config = load({});
    const broken = { ...config, indexer: { ...config.indexer, skip_patterns: ['(('] } };
    assert.equal(keyOf(() => createApp(broken, createLogger('silent'))), 'indexer.skip_patterns');
  });

  test('the CLI exits 78 on an invalid pattern', async () => {
    const home = dirs.fresh();
    const r = await runCli(['--data-dir', join(home, 'data'), '--set', 'indexer.skip_patterns=["(("]', 'status'], { env: cliEnv(home) });
    assert.equal(r.code, 78);
    assert.match(r.stderr, /^trove: INVALID_CONFIG: config indexer\.skip_patterns\[0\]: /);
  });
});

describe('skipped inputs are refused and counted as skipped', () => {
  test('adding content of a skipped site is SKIPPED and stores nothing', async () => {
    const t = testApp({ 'indexer.skip_domains': 'bank.example', 'indexer.skip_patterns': '["/\\\\/private\\\\//"]' });
    try {
      const before = await getStatus(t.app);
      for (const url of ['https://bank.example/statement', 'https://www.bank.example/', 'https://ok.example/private/notes']) {
        await assert.rejects(addContent(t.app, { url, text: 'balance 42', source: 'test' }), (e: TroveError) => e.code === 'SKIPPED', url);
      }
      assert.deepEqual((await getStatus(t.app)).counts, before.counts);
      assert.equal((await addContent(t.app, { url: 'https://ok.example/public', text: 'fine', source: 'test' })).status, 'added');
    } finally {
      await t.cleanup();
    }
  });

  test('`trove add` does not fetch a skipped URL, reports it as skipped and exits 0', async () => {
    const home = dirs.fresh();
    const note = join(home, 'note.txt');
    writeFileSync(note, 'a note about herons');
    // Nothing listens at bank.example: a fetch would fail; a skip never fetches.
    const trove = (...args: string[]) => runCli(['--data-dir', join(home, 'data'), '--set', 'indexer.skip_domains=bank.example', ...args], { env: cliEnv(home) });
    const human = await trove('add', 'https://bank.example/statement', note);
    assert.equal(human.code, 0, human.stderr);
    assert.equal(human.stderr, '');
    const lines = human.stdout.trim().split('\n');
    assert.equal(lines[0], 'skipped   https://bank.example/statement  (indexer.skip_domains: bank.example)');
    assert.match(lines[1]!, /^added {5}\S+ {2}file:\/\/\S+note\.txt$/);
    const json = parseJson(await trove('add', 'https://www.bank.example/', note, '--json'));
    assert.deepEqual(json.results[0], { target: 'https://www.bank.example/', status: 'skipped', rule: 'indexer.skip_domains: bank.example' });
    assert.deepEqual(json.summary, { added: 0, updated: 0, unchanged: 1, skipped: 1, failed: 0 });
  });

  test('addTargets answers SKIPPED per target without stopping the others', async () => {
    const t = testApp({ 'indexer.skip_patterns': '["\\\\.secret\\\\.txt$"]' });
    try {
      const a = join(t.dir, 'plans.secret.txt');
      const b = join(t.dir, 'plans.txt');
      writeFileSync(a, 'hidden');
      writeFileSync(b, 'visible');
      const out = await addTargets(t.app, [a, b], { source: 'test' });
      assert.deepEqual(out.map((o) => o.result?.status ?? o.error?.code), ['SKIPPED', 'added']);
    } finally {
      await t.cleanup();
    }
  });
});

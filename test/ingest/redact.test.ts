import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { BUILTIN_REDACTIONS } from '../../src/config/schema.js';
import { URL_PASSWORD, createRedactor, redactDeep, redactText, redactUrl } from '../../src/ingest/redact.js';
import { addContent, showDocument } from '../../src/service/documents.js';
import { searchDocuments } from '../../src/service/search.js';
import { testApp } from '../helpers.js';
import { FIXTURE_PAGES, fixture } from './extract/fixtures.js';

// Fake secrets are assembled at run time so that no scanner mistakes this file for a leak.
const AWS_KEY = `AKIA${'ABCDEFGHIJKLMNOP'}`;
const AWS_TEMP_KEY = `ASIA${'Q'.repeat(16)}`;
const AWS_SECRET = `wJalrXUtnFEMI/K7MDENG/${'bPxRfiCY'}EXAMPLEKEY`;
const GITHUB = `ghp_${'a1B2c3D4e5'.repeat(3)}xyzXYZ`;
const GITHUB_FINE = `github_pat_${'11ABCDEFG0'.repeat(3)}_${'x'.repeat(20)}`;
const GITLAB = `glpat-${'Ab3-_'.repeat(4)}`;
const SLACK = `xoxb-${'1234567890'}-${'abcdefABCDEF'}`;
const OPENAI = `sk-proj-${'Zx9_'.repeat(8)}`;
const OPENAI_LEGACY = `sk-${'T3BlbkFJ'.repeat(6)}`;
const KEY_BODY = 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\nVJTUt9Us8cKjMzEfYyjiWA4R4/M2bS1GB4t7NXp98C3SC6dVMvDuictGeurT8jNb\n';
const PRIVATE_KEY = `-----BEGIN PRIVATE KEY-----\n${KEY_BODY}-----END PRIVATE KEY-----`;
const RSA_KEY = `-----BEGIN RSA PRIVATE KEY-----\n${KEY_BODY}-----END RSA PRIVATE KEY-----`;
const PGP_KEY = `-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n${KEY_BODY}=abcd\n-----END PGP PRIVATE KEY BLOCK-----`;

const all = createRedactor(BUILTIN_REDACTIONS, []);
const redact = (text: string) => redactText(all, text);

describe('built-in detectors', () => {
  test('AWS access key ids and secret keys next to their name', () => {
    assert.equal(redact(`id ${AWS_KEY} and ${AWS_TEMP_KEY}.`), 'id [REDACTED:aws-access-key] and [REDACTED:aws-access-key].');
    assert.equal(redact(`aws_secret_access_key = ${AWS_SECRET}`), 'aws_secret_access_key = [REDACTED:aws-secret-key]');
    assert.equal(redact(`AWS_SECRET_ACCESS_KEY=${AWS_SECRET}\n`), 'AWS_SECRET_ACCESS_KEY=[REDACTED:aws-secret-key]\n');
    assert.equal(redact(`{"SecretAccessKey": "${AWS_SECRET}"}`), '{"SecretAccessKey": "[REDACTED:aws-secret-key]"}');
    assert.equal(redact(`a random 40-char word ${AWS_SECRET} alone stays`), `a random 40-char word ${AWS_SECRET} alone stays`);
  });

  test('private key blocks, whole, of every flavour; a truncated block loses its body', () => {
    for (const block of [PRIVATE_KEY, RSA_KEY, PGP_KEY, `-----BEGIN OPENSSH PRIVATE KEY-----\n${KEY_BODY}-----END OPENSSH PRIVATE KEY-----`]) {
      assert.equal(redact(`before\n${block}\nafter`), 'before\n[REDACTED:private-key]\nafter', block.slice(0, 40));
    }
    const htmlLines = KEY_BODY.trim().split('\n').join('<br>');
    assert.equal(redact(`<pre>-----BEGIN EC PRIVATE KEY-----<br>${htmlLines}<br>-----END EC PRIVATE KEY-----</pre>`), '<pre>[REDACTED:private-key]</pre>');
    assert.equal(redact(`<pre>-----BEGIN EC PRIVATE KEY-----<br>${htmlLines}<br/></pre>`), '<pre>[REDACTED:private-key]</pre>');
    assert.equal(redact(`-----BEGIN PRIVATE KEY-----\n${KEY_BODY}<p>next`), '[REDACTED:private-key]<p>next');
    const publicKey = `-----BEGIN PUBLIC KEY-----\n${KEY_BODY}-----END PUBLIC KEY-----`;
    assert.equal(redact(publicKey), publicKey);
  });

  test('GitHub, GitLab, Slack and OpenAI-style tokens', () => {
    assert.equal(redact(`token: ${GITHUB}`), 'token: [REDACTED:github-token]');
    for (const prefix of ['gho_', 'ghu_', 'ghs_', 'ghr_']) assert.equal(redact(GITHUB.replace('ghp_', prefix)), '[REDACTED:github-token]');
    assert.equal(redact(`(${GITHUB_FINE})`), '([REDACTED:github-token])');
    assert.equal(redact(`git clone https://oauth2:${GITLAB}@gitlab.example/x.git`), 'git clone https://oauth2:[REDACTED:url-password]@gitlab.example/x.git');
    assert.equal(redact(`PRIVATE-TOKEN: ${GITLAB}`), 'PRIVATE-TOKEN: [REDACTED:gitlab-token]');
    assert.equal(redact(`SLACK_TOKEN="${SLACK}"`), 'SLACK_TOKEN="[REDACTED:slack-token]"');
    assert.equal(redact(`OPENAI_API_KEY=${OPENAI} ${OPENAI_LEGACY}`), 'OPENAI_API_KEY=[REDACTED:api-key] [REDACTED:api-key]');
  });

  test('passwords inside URLs', () => {
    assert.equal(redact('see https://alice:hunter2@example.org/x and ftp://bob:pw@host'), 'see https://alice:[REDACTED:url-password]@example.org/x and ftp://bob:[REDACTED:url-password]@host');
    assert.equal(redact('<a href="postgres://app:p%40ss@db:5432/main">'), '<a href="postgres://app:[REDACTED:url-password]@db:5432/main">');
  });

  test('ordinary text is left alone', () => {
    const prose = [
      'The task-force met at https://example.org:8080/path@x and http://user@host/ (no password).',
      'sk-learn and sk-the-quick-brown-fox-jumps-over are words; ghp_short is too short; AKIA1234 is not a key.',
      'A task-oriented desk-1234567890123456789012345 label. xoxb- alone. glpat-short.',
      '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----',
    ].join('\n');
    assert.equal(redact(prose), prose);
  });

  test('redaction is stable: the same text always gives the same result, and redacting twice changes nothing', () => {
    const text = `k=${AWS_KEY} ${GITHUB} https://u:p@h/ ${PRIVATE_KEY}`;
    const once = redact(text);
    assert.equal(redact(text), once);
    assert.equal(redact(once), once);
  });

  test('a hostile page cannot make redaction slow (every detector is linear)', { timeout: 20_000 }, () => {
    const n = 200_000;
    for (const piece of ['-----BEGIN PRIVATE KEY-----.', 'sk-', 'a.', 'x://a', 'ghp_aaaa', 'aws_secret_key=']) {
      const hostile = piece.repeat(n / piece.length + 1);
      assert.equal(typeof redact(hostile), 'string');
    }
  });
});

describe('URL passwords, found only near "://"', () => {
  const urlOnly = createRedactor(['url-password'], []);
  /** What redacting with a plain global scan of the regex gives. */
  function byGlobalScan(text: string): string {
    const regex = new RegExp(URL_PASSWORD, 'gdi');
    let out = '';
    let done = 0;
    for (let m = regex.exec(text); m !== null; m = regex.exec(text)) {
      const [start, end] = m.indices!.groups!['secret']!;
      out += `${text.slice(done, start)}[REDACTED:url-password]`;
      done = end;
    }
    return out + text.slice(done);
  }

  test('the same spans as scanning the whole text, on pages and on random URL soup', () => {
    const texts = FIXTURE_PAGES.map((p) => fixture(p.file));
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const pieces = ['://', ':', '@', '/', 'a', 'B', '9', '+', '.', '-', ' ', '"', 'http', 'x:y', 'user:pw@', '\n', '?', '#', 'é'];
    for (let i = 0; i < 400; i++) texts.push(Array.from({ length: 20 + Math.floor(random() * 200) }, () => pieces[Math.floor(random() * pieces.length)]).join(''));
    texts.push(`${'a'.repeat(40)}://u:p@h ${'s'.repeat(31)}://u:p@h ${'s'.repeat(30)}://u:p@h https://a:b@c://d:e@f`);
    for (const text of texts) assert.equal(redactText(urlOnly, text), byGlobalScan(text), text.slice(0, 200));
  });
});

describe('configuration', () => {
  test('built-ins can be turned off one by one or all together', () => {
    const text = `${AWS_KEY} ${GITHUB} https://u:p@h/`;
    assert.equal(redactText(createRedactor(['github'], []), text), `${AWS_KEY} [REDACTED:github-token] https://u:p@h/`);
    assert.equal(redactText(createRedactor([], []), text), text);
    assert.equal(createRedactor([], []).detectors.length, 0);
  });

  test('user patterns: plain, with flags, with a (?<secret>) group', () => {
    const r = createRedactor([], ['EMP-\\d{6}', '/password\\s*[:=]\\s*(?<secret>\\S+)/i']);
    assert.equal(redactText(r, 'badge EMP-123456; PASSWORD = tr0ub4dor&3 ok'), 'badge [REDACTED:custom]; PASSWORD = [REDACTED:custom] ok');
  });

  test('a user pattern that matches the empty string does not loop', () => {
    assert.equal(redactText(createRedactor([], ['x*']), 'axxb'), 'a[REDACTED:custom]b');
  });
});

describe('URLs and structured values', () => {
  test('a URL keeps its shape: the password becomes REDACTED, query secrets are marked', () => {
    assert.equal(redactUrl(all, 'https://alice:hunter2@example.org/p?q=1'), 'https://alice:REDACTED@example.org/p?q=1');
    assert.equal(redactUrl(all, `https://example.org/cb?token=${GITHUB}`), 'https://example.org/cb?token=[REDACTED:github-token]');
    assert.equal(redactUrl(createRedactor(['github'], []), 'https://alice:hunter2@example.org/'), 'https://alice:hunter2@example.org/');
    assert.equal(redactUrl(all, 'https://example.org/plain'), 'https://example.org/plain');
  });

  test('strings deep inside metadata are redacted, other values kept', () => {
    const meta = { description: `key ${AWS_KEY}`, count: 3, ok: true, none: null, json_ld: [{ '@type': 'Thing', token: GITHUB }] };
    assert.deepEqual(redactDeep(all, meta), { description: 'key [REDACTED:aws-access-key]', count: 3, ok: true, none: null, json_ld: [{ '@type': 'Thing', token: '[REDACTED:github-token]' }] });
  });
});

describe('redaction before anything is stored or indexed', () => {
  const distinct = 'Qv7Zr2Lm9Tx4Wp8Ks3Nd6Hy1';
  const token = `ghp_${distinct}abcdefghijkl`;

  test('title, text, url password, raw HTML and metadata never reach the store or the index', async () => {
    const t = testApp();
    try {
      const html = `<html><head><title>Deploy ${token}</title><meta name="description" content="uses ${AWS_KEY}"></head><body><p>Our key is ${token} and</p><pre>${PRIVATE_KEY}</pre></body></html>`;
      const r = await addContent(t.app, { url: `https://deploy:hunter2pass@intranet.example/${distinct}?k=${token}`, html, source: 'test' });
      const d = await showDocument(t.app, r.document.id);
      assert.equal(d.document.url, 'https://deploy:REDACTED@intranet.example/Qv7Zr2Lm9Tx4Wp8Ks3Nd6Hy1?k=[REDACTED:github-token]');
      assert.equal(d.document.title, 'Deploy [REDACTED:github-token]');
      assert.match(d.text, /Our key is \[REDACTED:github-token\] and/);
      assert.match(d.text, /\[REDACTED:private-key\]/);
      assert.equal(d.document.metadata.description, 'uses [REDACTED:aws-access-key]');
      assert.equal((await searchDocuments(t.app, { query: `${distinct}abcdefghijkl` })).total, 0);
      assert.equal((await searchDocuments(t.app, { query: 'hunter2pass' })).total, 0);
      await t.app.close();
      const db = new Database(join(t.dir, 'trove.db'), { readonly: true });
      const raw = db.prepare('SELECT raw_html FROM versions').all() as Array<{ raw_html: Buffer }>;
      db.close();
      const rawHtml = brotliDecompressSync(raw[0]!.raw_html).toString('utf8');
      assert.match(rawHtml, /<title>Deploy \[REDACTED:github-token\]<\/title>/);
      const bytes = readFileSync(join(t.dir, 'trove.db')).toString('latin1') + rawHtml;
      for (const secret of [token, AWS_KEY, 'hunter2pass', 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7']) assert.ok(!bytes.includes(secret), `${secret} was stored`);
    } finally {
      await t.cleanup();
    }
  });

  test('redaction is configurable through the config', async () => {
    const t = testApp({ 'redact.builtins': '[]', 'redact.patterns': '["/internal-\\\\d+/i"]' });
    try {
      const r = await addContent(t.app, { url: 'https://example.org/n', text: `INTERNAL-42 and ${AWS_KEY}`, source: 'test' });
      assert.equal((await showDocument(t.app, r.document.id)).text, `[REDACTED:custom] and ${AWS_KEY}`);
    } finally {
      await t.cleanup();
    }
  });

  test('re-adding the same secret-bearing content adds no version', async () => {
    const t = testApp();
    try {
      const input = { url: 'https://example.org/same', text: `deploy with ${token}`, source: 'test' };
      await addContent(t.app, input);
      const again = await addContent(t.app, input);
      assert.equal(again.status, 'unchanged');
    } finally {
      await t.cleanup();
    }
  });
});

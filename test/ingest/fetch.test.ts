import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { TroveError } from '../../src/errors.js';
import { type FetchOptions, fetchPage } from '../../src/ingest/fetch.js';
import { type PageServer, page, redirect, startPageServer } from '../page-server.js';

const OPTS: FetchOptions = { timeoutMs: 5000, connectTimeoutMs: 2000, readTimeoutMs: 2000, maxBytes: 64 * 1024, maxRedirects: 5, userAgent: 'trove-test/1.0' };
const MiB = 1024 * 1024;

/** Resolves with the TroveError `promise` rejects with. */
async function failure(promise: Promise<unknown>): Promise<TroveError> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof TroveError, `expected a TroveError, got ${String(err)}`);
    return err;
  }
  assert.fail('expected a failure');
}

const hang = () => undefined;
const stall = (_req: IncomingMessage, res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'text/html' });
  res.write('<p>first words and then nothing');
};
const trickle = (_req: IncomingMessage, res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'text/plain' });
  const timer = setInterval(() => res.write('x'), 50);
  res.on('close', () => clearInterval(timer));
};
const streamed = (bytes: number) => (_req: IncomingMessage, res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'text/plain' });
  const chunk = Buffer.alloc(16 * 1024, 0x61);
  let sent = 0;
  const push = () => {
    while (sent < bytes) {
      sent += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', push);
    }
    res.end();
  };
  res.on('error', () => undefined);
  push();
};
const echoHeaders = (req: IncomingMessage, res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'text/plain' });
  res.end(`ua=${req.headers['user-agent']} auth=${req.headers.authorization ?? 'none'}`);
};

describe('fetchPage', () => {
  let web: PageServer;
  let other: PageServer;
  const url = (path: string) => `${web.base}${path}`;

  before(async () => {
    other = await startPageServer({ '/echo': echoHeaders });
    const chain: Record<string, ReturnType<typeof redirect>> = {};
    for (let i = 1; i <= 10; i++) chain[`/chain/${i}`] = redirect(i === 1 ? '/page' : `/chain/${i - 1}`);
    web = await startPageServer({
      ...chain,
      '/page': page('<!doctype html><title>Hello</title><p>Plain page.</p>'),
      '/latin1': page(Buffer.from([0x63, 0x61, 0x66, 0xe9]), { 'content-type': 'text/plain; charset=ISO-8859-1' }),
      '/quoted-charset': page(Buffer.from([0x63, 0x61, 0x66, 0xe9]), { 'content-type': 'text/plain; charset="windows-1252"' }),
      '/meta-charset': page(Buffer.concat([Buffer.from('<html><head><meta charset="windows-1252"><title>Q</title></head><body>'), Buffer.from([0x93, 0x68, 0x69, 0x94])]), { 'content-type': 'text/html' }),
      '/meta-http-equiv': page(Buffer.concat([Buffer.from('<meta http-equiv="Content-Type" content="text/html; charset=koi8-r"><p>'), Buffer.from([0xf0, 0xd2, 0xc9, 0xd7, 0xc5, 0xd4])]), { 'content-type': 'text/html' }),
      '/header-beats-meta': page(Buffer.concat([Buffer.from('<meta charset="koi8-r"><p>'), Buffer.from('café')]), { 'content-type': 'text/html; charset=utf-8' }),
      '/utf16-bom': page(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('wide text', 'utf16le')]), { 'content-type': 'text/plain' }),
      '/invalid-utf8': page(Buffer.from([0x61, 0xff, 0xfe, 0x62, 0xc3]), { 'content-type': 'text/plain; charset=utf-8' }),
      '/unknown-charset': page(Buffer.from('plain ascii'), { 'content-type': 'text/plain; charset=x-no-such-thing' }),
      '/markdown': page('# Title\n\nbody', { 'content-type': 'text/markdown; charset=utf-8' }),
      '/xhtml': page('<html xmlns="http://www.w3.org/1999/xhtml"><body><p>x</p></body></html>', { 'content-type': 'application/xhtml+xml' }),
      '/binary-as-html': page(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]), { 'content-type': 'text/html' }),
      '/image': page(Buffer.alloc(32), { 'content-type': 'image/png' }),
      '/json': page('{}', { 'content-type': 'application/json' }),
      '/untyped': (_req, res) => res.end('no type'),
      '/gzip': page(gzipSync('<p>compressed page</p>'), { 'content-type': 'text/html', 'content-encoding': 'gzip' }),
      '/gzip-bomb': page(gzipSync(Buffer.alloc(50 * MiB, 0x61)), { 'content-type': 'text/html', 'content-encoding': 'gzip' }),
      '/declared-large': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html', 'content-length': String(20 * MiB) });
        res.write('<p>');
      },
      '/streamed-large': streamed(4 * MiB),
      '/at-cap': streamed(64 * 1024),
      '/loop-a': redirect('/loop-b', 301),
      '/loop-b': redirect('/loop-a', 308),
      '/self': redirect('/self', 307),
      '/relative/start': redirect('../page', 303),
      '/to-file': redirect('file:///etc/passwd'),
      '/to-javascript': redirect('javascript:alert(1)'),
      '/to-data': redirect('data:text/html,<script>alert(1)</script>'),
      '/no-location': page('', {}, 302),
      '/bad-location': redirect('http://[nope'),
      '/gone': page('<p>gone</p>', { 'content-type': 'text/html' }, 410),
      '/broken': page('<p>oops</p>', { 'content-type': 'text/html' }, 500),
      '/hang': hang,
      '/stall': stall,
      '/trickle': trickle,
      '/echo': echoHeaders,
      '/to-other-origin': redirect(`${other.base}/echo`),
      '/protected': (req, res) => {
        const ok = req.headers.authorization === `Basic ${Buffer.from('alice:s3cret pw').toString('base64')}`;
        res.writeHead(ok ? 200 : 401, { 'content-type': 'text/plain' });
        res.end(ok ? 'members only' : 'who are you');
      },
    });
  });
  after(async () => {
    await web?.close();
    await other?.close();
  });

  test('an HTML page: body, final URL without fragment, media type', async () => {
    const p = await fetchPage(url('/page#section'), OPTS);
    assert.equal(p.url, url('/page'));
    assert.equal(p.contentType, 'html');
    assert.equal(p.mediaType, 'text/html');
    assert.equal(p.charset, 'utf-8');
    assert.match(p.body, /Plain page/);
    assert.equal((await fetchPage(url('/xhtml'), OPTS)).contentType, 'html');
    const md = await fetchPage(url('/markdown'), OPTS);
    assert.equal(md.contentType, 'text');
    assert.equal(md.mediaType, 'text/markdown');
  });

  test('charset: header, quoted header, <meta charset>, <meta http-equiv>, header over meta, BOM, unknown label', async () => {
    assert.equal((await fetchPage(url('/latin1'), OPTS)).body, 'café');
    assert.equal((await fetchPage(url('/quoted-charset'), OPTS)).body, 'café');
    const meta = await fetchPage(url('/meta-charset'), OPTS);
    assert.equal(meta.charset, 'windows-1252');
    assert.match(meta.body, /\u201chi\u201d/);
    const equiv = await fetchPage(url('/meta-http-equiv'), OPTS);
    assert.equal(equiv.charset, 'koi8-r');
    assert.match(equiv.body, /Привет/);
    assert.match((await fetchPage(url('/header-beats-meta'), OPTS)).body, /café/);
    const wide = await fetchPage(url('/utf16-bom'), OPTS);
    assert.equal(wide.charset, 'utf-16le');
    assert.equal(wide.body, 'wide text');
    assert.equal((await fetchPage(url('/unknown-charset'), OPTS)).body, 'plain ascii');
  });

  test('invalid UTF-8 becomes replacement characters, not a failure', async () => {
    assert.equal((await fetchPage(url('/invalid-utf8'), OPTS)).body, 'a\ufffd\ufffdb\ufffd');
  });

  test('binary content posing as HTML is UNSUPPORTED_TYPE', async () => {
    assert.equal((await failure(fetchPage(url('/binary-as-html'), OPTS))).code, 'UNSUPPORTED_TYPE');
  });

  test('types other than HTML and plain text, or none, are UNSUPPORTED_TYPE', async () => {
    for (const path of ['/image', '/json', '/untyped']) {
      const err = await failure(fetchPage(url(path), OPTS));
      assert.equal(err.code, 'UNSUPPORTED_TYPE', path);
    }
  });

  test('gzip is decoded; a gzip bomb stops at the cap with TOO_LARGE', async () => {
    assert.match((await fetchPage(url('/gzip'), OPTS)).body, /compressed page/);
    const err = await failure(fetchPage(url('/gzip-bomb'), { ...OPTS, maxBytes: MiB }));
    assert.equal(err.code, 'TOO_LARGE');
    assert.equal(err.details?.limit, MiB);
  });

  test('size cap: a declared Content-Length over it and a streamed body over it are TOO_LARGE; exactly the cap passes', async () => {
    const declared = await failure(fetchPage(url('/declared-large'), OPTS));
    assert.equal(declared.code, 'TOO_LARGE');
    assert.equal(declared.details?.size, 20 * MiB);
    assert.equal((await failure(fetchPage(url('/streamed-large'), OPTS))).code, 'TOO_LARGE');
    assert.equal((await fetchPage(url('/at-cap'), OPTS)).body.length, 64 * 1024);
  });

  test('redirects: relative ones are resolved; up to the limit is followed, one more is REDIRECT_LOOP', async () => {
    assert.equal((await fetchPage(url('/relative/start'), OPTS)).url, url('/page'));
    assert.equal((await fetchPage(url('/chain/5'), OPTS)).url, url('/page'));
    const err = await failure(fetchPage(url('/chain/6'), OPTS));
    assert.equal(err.code, 'REDIRECT_LOOP');
    assert.equal(err.details?.limit, 5);
    assert.equal((await fetchPage(url('/chain/2'), { ...OPTS, maxRedirects: 2 })).url, url('/page'));
    assert.equal((await failure(fetchPage(url('/chain/1'), { ...OPTS, maxRedirects: 0 }))).code, 'REDIRECT_LOOP');
  });

  test('a redirect loop is REDIRECT_LOOP as soon as a URL comes back', async () => {
    const err = await failure(fetchPage(url('/loop-a'), OPTS));
    assert.equal(err.code, 'REDIRECT_LOOP');
    assert.deepEqual(err.details?.chain, [url('/loop-a'), url('/loop-b'), url('/loop-a')]);
    assert.equal((await failure(fetchPage(url('/self'), OPTS))).code, 'REDIRECT_LOOP');
  });

  test('a redirect to file:, javascript: or data: is UNSUPPORTED_SCHEME', async () => {
    for (const path of ['/to-file', '/to-javascript', '/to-data']) {
      const err = await failure(fetchPage(url(path), OPTS));
      assert.equal(err.code, 'UNSUPPORTED_SCHEME', path);
      assert.equal(err.details?.redirected_from, url(path));
    }
  });

  test('a redirect without a usable Location is FETCH_FAILED', async () => {
    assert.equal((await failure(fetchPage(url('/no-location'), OPTS))).details?.status, 302);
    assert.equal((await failure(fetchPage(url('/bad-location'), OPTS))).code, 'FETCH_FAILED');
  });

  test('only http and https URLs are fetched', async () => {
    for (const target of ['file:///etc/passwd', 'javascript:alert(1)', 'data:text/html,hi', 'ftp://example.org/x', 'about:blank']) {
      assert.equal((await failure(fetchPage(target, OPTS))).code, 'UNSUPPORTED_SCHEME', target);
    }
    assert.equal((await failure(fetchPage('not a url', OPTS))).code, 'INVALID_ARGUMENT');
  });

  test('HTTP errors are FETCH_FAILED with details.status', async () => {
    assert.equal((await failure(fetchPage(url('/gone'), OPTS))).details?.status, 410);
    const err = await failure(fetchPage(url('/broken'), OPTS));
    assert.equal(err.code, 'FETCH_FAILED');
    assert.equal(err.details?.status, 500);
  });

  test('timeouts: no headers (connect), a stalled body (read), a trickling body (total)', async () => {
    const short = { ...OPTS, timeoutMs: 1500, connectTimeoutMs: 300, readTimeoutMs: 300 };
    const hung = await failure(fetchPage(url('/hang'), short));
    assert.equal(hung.code, 'FETCH_FAILED');
    assert.equal(hung.details?.reason, 'connect_timeout');
    assert.equal((await failure(fetchPage(url('/stall'), short))).details?.reason, 'read_timeout');
    const slow = await failure(fetchPage(url('/trickle'), { ...short, maxBytes: MiB }));
    assert.equal(slow.code, 'FETCH_FAILED');
    assert.equal(slow.details?.reason, 'total_timeout');
  });

  test('the configured user agent is sent', async () => {
    assert.equal((await fetchPage(url('/echo'), OPTS)).body, 'ua=trove-test/1.0 auth=none');
  });

  test('credentials in the URL become Basic auth for that origin only, never for a redirect elsewhere', async () => {
    const base = new URL(web.base);
    const withCreds = `http://alice:s3cret%20pw@${base.host}`;
    const p = await fetchPage(`${withCreds}/protected`, OPTS);
    assert.equal(p.body, 'members only');
    assert.equal(p.url, `${withCreds}/protected`, 'the caller redacts the password before storing');
    const moved = await fetchPage(`${withCreds}/to-other-origin`, OPTS);
    assert.equal(moved.url, `${other.base}/echo`);
    assert.equal(moved.body, 'ua=trove-test/1.0 auth=none');
  });
});

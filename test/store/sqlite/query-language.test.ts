import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { App } from '../../../src/app.js';
import { TroveError } from '../../../src/errors.js';
import { addContent } from '../../../src/service/documents.js';
import { type SearchResponse, searchDocuments } from '../../../src/service/search.js';
import { testApp } from '../../helpers.js';
import { ALL_URLS, DAY, NOW, URLS as U, loadCorpus, matches, search, sorted, urls } from './corpus.js';

const except = (...excluded: string[]): string[] => sorted(ALL_URLS.filter((u) => !excluded.includes(u)));
const set = (...list: string[]): string[] => sorted(list);
/** Every document, newest first. */
const BY_DATE = [U.meeting, U.memory, U.rust, U.gist, U.pydocs, U.cafe, U.pages, U.intl, U.lookalike, U.sky];
/** Web documents by domain: docs.python.org, example.net, example.org, gist.github.com, github.com, news.example.com, notgithub.com, octocat.github.io. */
const BY_DOMAIN = [U.pydocs, U.intl, U.cafe, U.gist, U.rust, U.sky, U.lookalike, U.pages];

async function rejectsWithCode(promise: Promise<unknown>, code: string): Promise<TroveError> {
  let caught: unknown;
  await assert.rejects(promise, (err: unknown) => {
    caught = err;
    return err instanceof TroveError && err.code === code;
  });
  return caught as TroveError;
}

describe('query language on a fixture corpus', () => {
  let app: App;
  let cleanup: () => Promise<void>;
  const is = async (query: string, expected: string[]) => assert.deepEqual(await matches(app, query), sorted(expected), query);

  before(async () => {
    ({ app, cleanup } = testApp());
    await loadCorpus(app);
  });
  after(() => cleanup());

  describe('bare terms', () => {
    test('a term matches the documents that contain it and no others', async () => {
      await is('rust', [U.rust, U.memory]);
      await is('jekyll', [U.pages]);
      await is('zebra', []);
    });

    test('terms are AND-ed across title, domain, url and text', async () => {
      await is('python asyncio', [U.gist, U.pydocs]); // gist: both in title; pydocs: python in domain, asyncio in text
      await is('github rust', [U.rust]); // domain + title
      await is('rust jekyll', []);
    });

    test('stemming: inflected forms find each other', async () => {
      await is('running', [U.rust, U.pydocs]); // "Running", "run"
      await is('errors', [U.rust]); // "Error" in the title, "errors" in the text
      await is('coroutine', [U.gist, U.pydocs]);
      await is('runner', []);
    });

    test('diacritics are folded for Latin letters', async () => {
      for (const q of ['cafe', 'café', 'CAFÉ', 'Cafe\u0301']) await is(q, [U.cafe]);
      await is('caffe', []);
    });

    test('non-Latin scripts match as the index tokenizes them', async () => {
      for (const q of ['йогурт', 'ЙОГУРТ', 'ёжик', '한국어', 'がっこう', 'ガイド', 'हिन्दी', 'Ωμέγα', 'ελληνικά']) await is(q, [U.intl]);
      await is('한국', []);
    });

    test('the query is case-insensitive', async () => {
      await is('RUST', [U.rust, U.memory]);
      await is('PyThOn AsYnCiO', [U.gist, U.pydocs]);
    });

    test('a lone * matches every document; with other clauses it adds nothing', async () => {
      const all = await search(app, '*');
      assert.equal(all.total, ALL_URLS.length);
      assert.deepEqual(sorted(all.results.map((r) => r.url)), sorted(ALL_URLS));
      await is('* type:local', [U.meeting]);
      assert.deepEqual(await urls(app, 'rust *'), await urls(app, 'rust'));
    });

    test('words without letters or digits match nothing on their own and are ignored beside others', async () => {
      for (const q of ['!!!', '"?!"', '💩', 'title:---', '-!!!']) assert.deepEqual(await urls(app, q), [], q);
      assert.deepEqual(await urls(app, 'rust !!!'), await urls(app, 'rust'));
      assert.equal((await search(app, '!!! *')).total, ALL_URLS.length);
    });

    test('words are matched per passage, but title words count in every passage', async () => {
      const t = testApp({ 'indexer.chunk_chars': '200' });
      try {
        const filler = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(5);
        await addContent(t.app, { url: 'https://example.com/long', title: 'Long report', text: `Alpha findings. ${filler}\n\n${filler}Omega conclusions.`, source: 'test', capturedAt: NOW - DAY });
        await addContent(t.app, { url: 'https://example.com/short', title: 'Short note', text: 'Alpha and omega together.', source: 'test', capturedAt: NOW - DAY });
        const full = (q: string) => matches(t.app, q);
        assert.deepEqual(await full('alpha'), ['https://example.com/long', 'https://example.com/short']);
        assert.deepEqual(await full('omega'), ['https://example.com/long', 'https://example.com/short']);
        assert.deepEqual(await full('alpha omega'), ['https://example.com/short']);
        assert.deepEqual(await full('report omega'), ['https://example.com/long']);
        // Negation is document-level: omega in another passage still excludes the document.
        assert.deepEqual(await urls(t.app, 'alpha -omega'), []);
        assert.deepEqual(await urls(t.app, 'alpha -conclusions'), ['https://example.com/short']);
        assert.equal((await search(t.app, 'lorem')).total, 1);
      } finally {
        await t.cleanup();
      }
    });
  });

  describe('phrases', () => {
    test('"exact phrase" needs the words adjacent and in order', async () => {
      await is('"event loop"', [U.gist]);
      await is('"EVENT LOOP"', [U.gist]);
      await is('"loop event"', []);
      await is('"question mark operator"', [U.rust]);
    });

    test('a phrase in a field looks only there', async () => {
      await is('title:"error handling"', [U.rust]);
      await is('text:"error handling"', []);
      await is('text:"question mark"', [U.rust]);
      await is('title:"question mark"', []);
    });
  });

  describe('full-text fields', () => {
    test('title: matches titles only', async () => {
      await is('title:rust', [U.rust]);
      await is('title:python', [U.gist]);
      await is('title:jekyll rust', []);
    });

    test('text: matches body text only', async () => {
      await is('text:rust', [U.memory]);
      await is('text:python', [U.memory]);
      await is('text:lookalike', []);
    });

    test('url: matches url words only', async () => {
      await is('url:lang', [U.rust]);
      await is('url:asyncio', [U.gist, U.pydocs]);
      await is('url:notes', [U.meeting]);
      await is('url:jekyll', []);
    });
  });

  describe('keyword fields', () => {
    test('domain: an exact domain matches itself and its subdomains only', async () => {
      await is('domain:github.com', [U.rust, U.gist]);
      await is('domain:GitHub.COM', [U.rust, U.gist]);
      await is('domain:example.com', [U.sky]);
      await is('domain:hub.com', []);
    });

    test('domain: a dot-free value matches a whole label', async () => {
      await is('domain:github', [U.rust, U.gist, U.pages]); // not notgithub.com
      await is('domain:example', [U.cafe, U.intl, U.sky]);
      await is('domain:thub', []);
    });

    test('domain: wildcards become patterns', async () => {
      await is('domain:*.io', [U.pages]);
      await is('domain:git*', [U.rust]);
      await is('domain:*github*', [U.rust, U.gist, U.pages, U.lookalike]);
      await is('domain:*.dev', []);
    });

    test('label: case-insensitive exact, with wildcards and alternation', async () => {
      await is('label:work', [U.rust]);
      await is('label:WORK', [U.rust]);
      await is('label:wor', []);
      await is('label:re*', [U.gist, U.pages]);
      await is('label:(travel|hobby)', [U.cafe, U.sky]);
      await is('label:Über', [U.intl]);
      await is('label:über', [U.intl]);
      await is('label:ÜB*', [U.intl]);
    });

    test('language: exact, case-insensitive, with wildcards', async () => {
      await is('language:en', [U.rust, U.gist, U.pydocs]);
      await is('language:EN', [U.rust, U.gist, U.pydocs]);
      await is('language:pt-br', [U.cafe]);
      await is('language:PT-BR', [U.cafe]);
      await is('language:pt', []);
      await is('language:pt*', [U.cafe]);
      await is('language:e*', [U.rust, U.gist, U.pydocs]);
      await is('language:english', []);
    });

    test('type: web, local or memory', async () => {
      await is('type:local', [U.meeting]);
      await is('type:memory', [U.memory]);
      await is('type:WEB', except(U.meeting, U.memory));
      await is('type:(local|memory)', [U.meeting, U.memory]);
      await rejectsWithCode(search(app, 'type:pdf'), 'INVALID_QUERY');
    });

    test('metadata.KEY: case-insensitive exact value of that key', async () => {
      await is('metadata.author:alice', [U.gist]);
      await is('metadata.author:ALICE', [U.gist]);
      await is('metadata.author:ali', []);
      await is('metadata.author:"ferris crab"', [U.rust]);
      await is('metadata.author:ferris*', [U.rust, U.sky]);
      await is('metadata.author:(psf|alice)', [U.pydocs, U.gist]);
      await is('metadata.topic:rust', [U.rust]);
      await is('metadata.site_name:"Example Guides"', [U.cafe]);
      await is('metadata.missing:alice', []);
    });
  });

  describe('wildcards', () => {
    test('prefix: term*', async () => {
      await is('asyn*', [U.gist, U.pydocs]);
      await is('jek*', [U.pages]);
      await is('rust*', [U.rust, U.memory]);
      await is('йог*', [U.intl]);
      await is('zzz*', []);
    });

    test('infix: *term*', async () => {
      await is('*sync*', [U.gist, U.pydocs]);
      await is('*ynchron*', [U.pydocs]);
      await is('*xyz*', []);
    });

    test('suffix: *term', async () => {
      await is('*sync', [U.pydocs]); // async, not asyncio
      await is('*kyll', [U.pages]);
      await is('*jek', []);
    });

    test('wildcards in fields and next to other terms', async () => {
      await is('title:asyn*', [U.gist, U.pydocs]);
      await is('text:asyn*', [U.pydocs]);
      await is('asyn* notes', [U.gist]);
    });
  });

  describe('alternation', () => {
    test('(a|b) matches documents with any option', async () => {
      await is('(jekyll|espresso)', [U.pages, U.cafe]);
      await is('(jekyll|zzzz)', [U.pages]);
      await is('("event loop"|espresso)', [U.gist, U.cafe]);
      await is('(asyn*|jek*)', [U.gist, U.pydocs, U.pages]);
      await is('(zzzz|yyyy)', []);
    });

    test('a group is AND-ed with the other clauses', async () => {
      await is('(jekyll|espresso) strong', [U.cafe]);
    });

    test('field:(a|b) alternates within the field', async () => {
      await is('title:(rust|jekyll)', [U.rust, U.pages]); // not the memory with Rust in its text
      await is('domain:(github.io|example.org)', [U.pages, U.cafe]);
    });
  });

  describe('negation', () => {
    test('-term', async () => {
      await is('python -rust', [U.gist, U.pydocs]);
      await is('-rust', except(U.rust, U.memory));
    });

    test('-"phrase" excludes only the exact phrase', async () => {
      await is('python -"quick scripting"', [U.gist, U.pydocs]);
      await is('python -"scripting quick"', [U.gist, U.pydocs, U.memory]);
    });

    test('-field:value', async () => {
      await is('python -title:asyncio', [U.memory]);
      await is('-domain:github *', except(U.rust, U.gist, U.pages));
      await is('-label:work *', except(U.rust)); // documents without a label are kept
      await is('-metadata.author:alice *', except(U.gist));
      await is('-type:web *', [U.meeting, U.memory]);
      await is('-added:7d *', [U.pydocs, U.cafe, U.pages, U.intl, U.lookalike, U.sky]);
    });

    test('field:-value', async () => {
      await is('python title:-asyncio', [U.memory]);
      await is('label:-reading', except(U.gist, U.pages));
      await is('domain:-github', except(U.rust, U.gist, U.pages));
      await is('added:-7d', [U.pydocs, U.cafe, U.pages, U.intl, U.lookalike, U.sky]);
    });

    test('-(a|b) excludes every option', async () => {
      await is('-(jekyll|espresso) *', except(U.pages, U.cafe));
    });
  });

  describe('dates', () => {
    test('relative ages: added:>7d is within the last 7 days, added:<7d before that', async () => {
      await is('added:>7d', [U.meeting, U.memory, U.rust, U.gist]);
      await is('added:7d', [U.meeting, U.memory, U.rust, U.gist]);
      await is('added:<7d', [U.pydocs, U.cafe, U.pages, U.intl, U.lookalike, U.sky]);
      await is('added:>12h', [U.meeting, U.memory]);
      await is('added:<2w', [U.pydocs, U.cafe, U.pages, U.intl, U.lookalike, U.sky]);
      await is('added:>2w added:<2d', [U.gist]);
    });

    test('ages name an exact instant: > is strict, >= includes it', async () => {
      await is('added:>2h', [U.meeting]); // the memory was added exactly 2h ago
      await is('added:>=2h', [U.meeting, U.memory]);
      await is('added:>30m', []); // the meeting notes were added exactly 30m ago
      await is('added:>=30m', [U.meeting]);
      await is('added:<30m', except(U.meeting));
      await is('added:<=30m', ALL_URLS);
    });

    test('a bare date is that whole UTC day', async () => {
      await is('updated:2026-06-01', [U.pydocs]);
      await is('updated:2026-06-02', []);
      await is('updated:2025-12-31', [U.sky]); // 23:59:59
      await is('updated:2026-01-01', []);
    });

    test('a compared date is midnight UTC', async () => {
      await is('updated:<2026-01-01', [U.sky]);
      await is('updated:>=2026-06-14', [U.rust, U.meeting, U.memory]);
      await is('updated:>2026-06-14', [U.rust, U.meeting, U.memory]);
      await is('updated:<=2026-06-12', [U.pydocs, U.cafe, U.pages, U.intl, U.lookalike, U.sky]); // not the gist at 12:00 that day
      await is('updated:>2026-06-15', [U.meeting, U.memory]);
    });

    test('dates combine with words', async () => {
      await is('python added:>7d', [U.gist, U.memory]);
      await is('python added:<7d', [U.pydocs]);
    });
  });

  describe('sort', () => {
    test('sort:date is newest first, sort:-date oldest first', async () => {
      assert.deepEqual(await urls(app, 'sort:date *'), BY_DATE);
      assert.deepEqual(await urls(app, '* sort:-date'), [...BY_DATE].reverse());
      assert.deepEqual(await urls(app, 'sort:date python'), [U.memory, U.gist, U.pydocs]);
      assert.deepEqual(await urls(app, 'sort:-date python'), [U.pydocs, U.gist, U.memory]);
    });

    test('sort:domain is by domain, sort:-domain reversed', async () => {
      assert.deepEqual(await urls(app, 'sort:domain type:web'), BY_DOMAIN);
      assert.deepEqual(await urls(app, 'sort:-domain type:web'), [...BY_DOMAIN].reverse());
      assert.deepEqual(await urls(app, 'sort:domain asyncio'), [U.pydocs, U.gist]);
      assert.deepEqual(await urls(app, 'sort:-domain asyncio'), [U.gist, U.pydocs]);
    });

    test('relevance is the default; without words it falls back to recency', async () => {
      const relevance = await urls(app, 'python');
      assert.deepEqual(sorted(relevance), sorted([U.memory, U.gist, U.pydocs]));
      assert.notDeepEqual(relevance, [U.memory, U.gist, U.pydocs], 'the fixture must rank differently by relevance and by date');
      assert.deepEqual(await urls(app, 'sort:relevance python'), relevance);
      assert.deepEqual(await urls(app, 'sort:-relevance python'), [...relevance].reverse());
      assert.deepEqual(await urls(app, '*'), BY_DATE);
    });

    test('the last sort wins', async () => {
      assert.deepEqual(await urls(app, 'sort:date sort:relevance python'), await urls(app, 'python'));
      assert.deepEqual(await urls(app, 'sort:relevance python sort:date'), [U.memory, U.gist, U.pydocs]);
      assert.deepEqual(await urls(app, 'sort:-date * sort:domain type:web'), BY_DOMAIN);
    });

    test('quoted "sort:date" is plain text', async () => {
      await is('"sort:date"', [U.lookalike]);
      assert.deepEqual(await urls(app, '"sort:date" *'), [U.lookalike]);
    });

    test('sort keys are case-insensitive', async () => {
      assert.deepEqual(await urls(app, 'SORT:-DATE *'), [...BY_DATE].reverse());
    });
  });

  describe('case-insensitivity of fields and operators', () => {
    test('field names, values and keywords in any case', async () => {
      await is('TITLE:RUST', [U.rust]);
      await is('DoMaIn:GitHub.Com', [U.rust, U.gist]);
      await is('LABEL:Travel', [U.cafe]);
      await is('Type:Local', [U.meeting]);
      await is('METADATA.author:alice', [U.gist]);
      await is('ADDED:>7D', [U.meeting, U.memory, U.rust, U.gist]);
    });
  });

  describe('search parameters', () => {
    test('date_from/date_to filter on updated, date_to inclusive through the end of its day', async () => {
      await is('*', ALL_URLS);
      assert.deepEqual(await matches(app, '*', { dateFrom: '2026-06-12', dateTo: '2026-06-14' }), set(U.gist, U.rust));
      assert.deepEqual(await matches(app, '*', { dateTo: '2025-12-31' }), [U.sky]);
      assert.deepEqual(await matches(app, '*', { dateFrom: '2026-06-15' }), set(U.meeting, U.memory));
      assert.deepEqual(await matches(app, 'python', { dateFrom: '2026-06-01', dateTo: '2026-06-12' }), set(U.gist, U.pydocs));
      assert.deepEqual(await matches(app, '*', { dateFrom: '', dateTo: '' }), sorted(ALL_URLS));
    });

    test('a bad date_from/date_to is INVALID_ARGUMENT naming the field', async () => {
      assert.deepEqual((await rejectsWithCode(search(app, '*', { dateFrom: '2026-6-1' }), 'INVALID_ARGUMENT')).details, { field: 'date_from' });
      assert.deepEqual((await rejectsWithCode(search(app, '*', { dateTo: '2026-02-30' }), 'INVALID_ARGUMENT')).details, { field: 'date_to' });
      assert.deepEqual((await rejectsWithCode(search(app, '*', { dateFrom: '2026-06-02', dateTo: '2026-06-01' }), 'INVALID_ARGUMENT')).details, { field: 'date_to' });
    });

    test('a malformed query is INVALID_QUERY with a position', async () => {
      const err = await rejectsWithCode(search(app, 'rust "error'), 'INVALID_QUERY');
      assert.deepEqual(err.details, { position: 5 });
    });
  });

  describe('partial matches', () => {
    test('fill up after every full match; total counts full matches only', async () => {
      const res = await search(app, 'python rust quick');
      assert.equal(res.total, 1);
      assert.deepEqual(res.results.map((r) => [r.url, r.match]).slice(0, 1), [[U.memory, 'full']]);
      assert.deepEqual(sorted(res.results.slice(1).map((r) => r.url)), set(U.rust, U.pydocs, U.gist));
      assert.ok(res.results.slice(1).every((r) => r.match === 'partial'));
    });

    test('stop words alone do not make a partial match', async () => {
      const res = await search(app, 'the user prefers rust jekyll');
      assert.equal(res.total, 0);
      assert.deepEqual(sorted(res.results.map((r) => r.url)), set(U.memory, U.pages, U.rust));
      assert.ok(res.results.every((r) => r.match === 'partial'));
    });

    test('partial matches still satisfy the non-word conditions', async () => {
      const web = await search(app, 'python rust quick type:web');
      assert.equal(web.total, 0);
      assert.deepEqual(sorted(web.results.map((r) => r.url)), set(U.rust, U.pydocs, U.gist));
      assert.deepEqual(await urls(app, 'python rust quick -title:asyncio'), [U.memory, U.rust]);
    });

    test('only up to the limit, and none when full matches fill it or the sort is not relevance', async () => {
      const two = await search(app, 'python rust quick', { limit: 2 });
      assert.deepEqual(two.results.map((r) => r.match), ['full', 'partial']);
      assert.equal(two.total, 1);
      assert.deepEqual(await urls(app, 'python rust quick', { limit: 1 }), [U.memory]);
      assert.deepEqual(await urls(app, 'sort:date python rust quick'), [U.memory]);
    });

    test('a single-word query has no partial matches', async () => {
      assert.deepEqual(await urls(app, 'zzzz'), []);
      const res = await search(app, 'rust zzzz');
      assert.equal(res.total, 0);
      assert.deepEqual(sorted(res.results.map((r) => r.url)), set(U.rust, U.memory));
    });
  });
});

describe('relevance', () => {
  test('field weights: a title match outranks a body match', async () => {
    const { app, cleanup } = testApp();
    try {
      await loadCorpus(app);
      assert.deepEqual(await urls(app, 'rust'), [U.rust, U.memory]);
      assert.deepEqual(await urls(app, 'jekyll blog'), [U.pages]);
    } finally {
      await cleanup();
    }
  });

  // Each boost is checked by flipping it on and off over the same documents: the order must flip with it.
  async function order(overrides: Record<string, string>, docs: Array<{ url: string; title: string; text: string }>, query: string): Promise<string[]> {
    const { app, cleanup } = testApp(overrides);
    try {
      for (const d of docs) await addContent(app, { ...d, source: 'test', capturedAt: NOW - DAY });
      return await urls(app, query);
    } finally {
      await cleanup();
    }
  }

  test('the exact phrase of a multi-word query is boosted', async () => {
    const docs = [
      { url: 'https://example.com/apart', title: 'Notes', text: 'Handling the error.' },
      { url: 'https://example.com/phrase', title: 'Notes', text: 'Error handling, as explained in the long and winding chapter seven of the book.' },
    ];
    assert.deepEqual(await order({ 'search.phrase_boost': '1' }, docs, 'error handling'), ['https://example.com/apart', 'https://example.com/phrase']);
    assert.deepEqual(await order({ 'search.phrase_boost': '10' }, docs, 'error handling'), ['https://example.com/phrase', 'https://example.com/apart']);
  });

  test('a bare term naming the domain is boosted', async () => {
    const docs = [
      { url: 'https://example.com/about-github', title: 'All about GitHub', text: 'GitHub, GitHub and more GitHub.' },
      { url: 'https://github.com/features', title: 'Features', text: 'Code review on github.' },
    ];
    assert.deepEqual(await order({ 'search.domain_boost': '1' }, docs, 'github'), ['https://example.com/about-github', 'https://github.com/features']);
    assert.deepEqual(await order({ 'search.domain_boost': '10' }, docs, 'github'), ['https://github.com/features', 'https://example.com/about-github']);
  });
});

describe('partial matches rank after full ones even when they score higher', () => {
  test('a weak full match comes before a strong partial match', async () => {
    const { app, cleanup } = testApp();
    try {
      const filler = 'Nothing to see in this long and rambling paragraph about the weather and the sea. '.repeat(5);
      await addContent(app, { url: 'https://example.com/weak', title: 'Weather diary', text: `${filler} alpha ${filler} beta ${filler}`, source: 'test', capturedAt: NOW - DAY });
      await addContent(app, { url: 'https://alpha.example.com/strong', title: 'Alpha alpha alpha', text: 'Alpha is the first letter: alpha.', source: 'test', capturedAt: NOW - DAY });
      const res = await search(app, 'alpha beta');
      assert.deepEqual(res.results.map((r) => [r.url, r.match]), [['https://example.com/weak', 'full'], ['https://alpha.example.com/strong', 'partial']]);
      assert.ok(res.results[1]!.score > res.results[0]!.score, 'the fixture needs the partial match to score higher');
      assert.equal(res.total, 1);
    } finally {
      await cleanup();
    }
  });
});

describe('limit', () => {
  test('outside 1..50 the configured default is used', async () => {
    const { app, cleanup } = testApp({ 'search.default_limit': '3' });
    try {
      await loadCorpus(app);
      const count = async (limit: number | undefined) => (await searchWith(app, limit)).results.length;
      for (const bad of [0, -1, 51, 1000, 2.5, Number.NaN, undefined]) assert.equal(await count(bad), 3, `limit ${bad}`);
      assert.equal(await count(1), 1);
      assert.equal(await count(5), 5);
      assert.equal(await count(50), ALL_URLS.length);
      assert.equal((await searchWith(app, 0)).total, ALL_URLS.length);
    } finally {
      await cleanup();
    }
  });

  test('the default default is 10', async () => {
    const { app, cleanup } = testApp();
    try {
      await loadCorpus(app);
      for (const n of [1, 2, 3]) await addContent(app, { url: `https://example.com/extra${n}`, title: `Extra ${n}`, text: 'filler', source: 'test', capturedAt: NOW - n * DAY });
      assert.equal((await searchWith(app, 0)).results.length, 10);
      assert.equal((await searchWith(app, 51)).results.length, 10);
      assert.equal((await searchWith(app, 11)).results.length, 11);
      assert.equal((await searchWith(app, 0)).total, ALL_URLS.length + 3);
    } finally {
      await cleanup();
    }
  });
});

function searchWith(app: App, limit: number | undefined): Promise<SearchResponse> {
  return searchDocuments(app, { query: '*', limit, now: NOW });
}

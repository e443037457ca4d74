import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { importBrowserHistory } from '../../../src/service/import.js';
import { searchDocuments } from '../../../src/service/search.js';
import { testApp } from '../../helpers.js';

describe('the real browser databases in ../shared/data/browser-history', () => {
  const dir = join(import.meta.dirname, '..', '..', '..', '..', 'shared', 'data', 'browser-history');
  // One known visit per file, its time converted by hand from the raw column value.
  const files: Array<{ file: string; browser: 'chrome' | 'firefox'; url: string; title: string; first: string }> = [
    // visits.visit_time 12946651391000000 (µs since 1601)
    { file: 'chrome_History', browser: 'chrome', url: 'http://start.ubuntu.com/10.04/Google/', title: 'Ubuntu Start Page', first: '2011-04-07T12:03:11.000Z' },
    // moz_historyvisits.visit_date 1309518981371935 (µs since 1970)
    { file: 'firefox_places.sqlite', browser: 'firefox', url: 'http://news.google.com/', title: 'Google News', first: '2011-07-01T11:16:21.371Z' },
    // moz_historyvisits.visit_date 1716565337883336
    { file: 'firefox_places_2024_reduced.sqlite', browser: 'firefox', url: 'https://duckduckgo.com/', title: 'DuckDuckGo — Privacy, simplified.', first: '2024-05-24T15:42:17.883Z' },
  ];
  for (const { file, browser, url, title, first } of files) {
    test(file, async (t) => {
      const path = join(dir, file);
      if (!existsSync(path)) return t.skip(`${path} is not present`);
      const { app, cleanup } = testApp();
      try {
        const s = await importBrowserHistory(app, browser, { profile: path });
        assert.ok(s.visits_read > 0 && s.visits_new === s.visits_read, JSON.stringify(s));
        assert.ok(s.documents_created > 0 && s.documents_created === s.urls);
        const found = await searchDocuments(app, { query: '*', limit: 50 });
        assert.ok(found.results.some((r) => r.title && r.title !== r.url), 'titles present');
        for (const r of found.results) assert.ok(/^https?:\/\//.test(r.url));
        const [known] = await app.store.listVisits(url);
        assert.equal(known!.title, title);
        assert.equal(new Date(known!.firstVisitAt).toISOString(), first);
        const again = await importBrowserHistory(app, browser, { profile: path });
        assert.equal(again.visits_new, 0);
      } finally {
        await cleanup();
      }
    });
  }
});

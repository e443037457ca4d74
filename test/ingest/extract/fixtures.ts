import { readFileSync } from 'node:fs';
import { createExtractors, extract } from '../../../src/ingest/extract/index.js';
import type { ExtractionResult } from '../../../src/ingest/extract/types.js';

const dir = new URL('../../fixtures/extract/', import.meta.url);

/** A hand-written page from test/fixtures/extract. */
export function fixture(name: string): string {
  return readFileSync(new URL(name, dir), 'utf8');
}

/** Runs the default extractors over an HTML page as if captured from `url`. */
export function extractPage(html: string, url: string): Promise<ExtractionResult> {
  return extract({ url: new URL(url), html }, createExtractors());
}

/** Every fixture page with the URL its tests capture it from (site-aware extractors go by the host). */
export const FIXTURE_PAGES: ReadonlyArray<{ file: string; url: string }> = [
  { file: 'article.html', url: 'https://gazette.example.com/2024/otters' },
  { file: 'listing.html', url: 'https://books.example.com/' },
  { file: 'hostile.html', url: 'https://hostile.example/' },
  { file: 'github-repo.html', url: 'https://github.com/octo/widget' },
  { file: 'github-issue.html', url: 'https://github.com/octo/widget/issues/42' },
  { file: 'wikipedia.html', url: 'https://en.wikipedia.org/wiki/Sea_otter' },
  { file: 'stackoverflow.html', url: 'https://stackoverflow.com/questions/11409895/how-do-i-clamp' },
];

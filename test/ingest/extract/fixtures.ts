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

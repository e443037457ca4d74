// Entity extraction cost on real pages (../shared/data/readability-pages): extractEntities over every chunk of
// each page's extracted text, next to the extraction of that text from the HTML, one thread for both.
import { existsSync } from 'node:fs';
import { chunkText } from '../src/engine/chunk.js';
import { extractEntities } from '../src/engine/entities.js';
import { createExtractors, extract } from '../src/ingest/extract/index.js';
import { readTarGz } from './extraction.js';

const PAGES = new URL('../../shared/data/readability-pages/pages.tar.gz', import.meta.url).pathname;

export interface EntitiesReport {
  pages: number;
  chunks: number;
  characters: number;
  entities_per_page: number;
  extraction_ms_per_page: number;
  entities_ms_per_page: number;
  /** Entity time as a share of extraction time. */
  ratio: number;
  mb_per_s: number;
}

export async function runEntitiesBench(opts: { quick: boolean }): Promise<EntitiesReport | { skipped: string }> {
  if (!existsSync(PAGES)) return { skipped: `${PAGES} is absent` };
  process.stderr.write('entity extraction over readability-pages\n');
  const pages = [...readTarGz(PAGES)].filter(([path]) => path.endsWith('/source.html'));
  const extractors = createExtractors();
  const rounds = opts.quick ? 1 : 3;
  let extractMs = 0;
  const texts: string[] = [];
  for (let round = 0; round <= rounds; round++) {
    for (const [path, html] of pages) {
      const url = new URL(`http://fakehost/${path.split('/').at(-2)}/`);
      const started = performance.now();
      const r = await extract({ url, html: html.toString('utf8') }, extractors);
      if (round > 0) extractMs += performance.now() - started;
      else texts.push(`${r.title}\n${r.text}`);
    }
  }
  const chunks = texts.flatMap((t) => chunkText(t, { size: 2000, maxChunks: 2000 }).map((c) => c.text));
  let entities = 0;
  for (const c of chunks) entities += extractEntities(c).length;
  const started = performance.now();
  for (let round = 0; round < rounds; round++) for (const c of chunks) extractEntities(c);
  const entitiesMs = performance.now() - started;
  const characters = chunks.reduce((n, c) => n + c.length, 0);
  const perPage = (ms: number) => Number((ms / rounds / pages.length).toFixed(3));
  return {
    pages: pages.length,
    chunks: chunks.length,
    characters,
    entities_per_page: Math.round(entities / pages.length),
    extraction_ms_per_page: perPage(extractMs),
    entities_ms_per_page: perPage(entitiesMs),
    ratio: Number((entitiesMs / extractMs).toFixed(3)),
    mb_per_s: Number(((characters * rounds) / 1e6 / (entitiesMs / 1000)).toFixed(1)),
  };
}

export function entitiesMarkdown(r: EntitiesReport | { skipped: string }): string {
  if ('skipped' in r) return `Entity extraction skipped: ${r.skipped}.\n`;
  return [
    `Entity extraction over the ${r.pages} readability pages (${r.chunks} chunks, ${r.characters} characters, one thread):`,
    `${r.entities_ms_per_page} ms per page against ${r.extraction_ms_per_page} ms to extract the page's text (ratio ${r.ratio}),`,
    `${r.mb_per_s} M characters/s, ${r.entities_per_page} distinct entities per page.`,
    '',
  ].join(' ').replace(/ \n?$/, '\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const report = await runEntitiesBench({ quick: process.argv.includes('--quick') });
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n${entitiesMarkdown(report)}`);
}

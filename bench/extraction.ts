// Extraction report over ../shared/data/readability-pages (80 real pages with the metadata readability's
// own test suite expects), and ingest throughput on those pages through addContents into a real store.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config/load.js';
import { createExtractors, extract } from '../src/ingest/extract/index.js';
import { createExtractionPool, defaultPoolSize } from '../src/ingest/extract/pool.js';
import { textOf } from '../src/ingest/extract/dom.js';
import type { ExtractionResult } from '../src/ingest/extract/types.js';
import { parseLight } from '../src/ingest/html/tree.js';
import { createLanguageDetector, declaredCode } from '../src/ingest/language.js';
import { createLogger } from '../src/log.js';
import { ADD_BATCH, type AddResult, type ContentInput, createIngestTools, queueContents } from '../src/service/documents.js';
import { wordF1 } from './text-agreement.js';

const PAGES = new URL('../../shared/data/readability-pages/pages.tar.gz', import.meta.url).pathname;

/** Expected field -> where trove keeps it. */
const FIELDS = {
  title: (r: ExtractionResult) => r.title,
  byline: (r: ExtractionResult) => r.metadata.author,
  excerpt: (r: ExtractionResult) => r.metadata.description,
  siteName: (r: ExtractionResult) => r.metadata.site_name,
  publishedTime: (r: ExtractionResult) => r.metadata.published,
  lang: (r: ExtractionResult) => r.metadata.language,
} as const;
type Field = keyof typeof FIELDS;

interface Page {
  name: string;
  url: string;
  html: string;
  expected: Record<string, unknown>;
  /** Reading text of readability's expected.html for the page. */
  expectedText: string;
}

export interface TextAgreement {
  mean: number;
  /** Pages at F1 >= 0.9. */
  close: number;
  /** Milliseconds per page, one thread, whole extraction chain. */
  ms_per_page: number;
}

export interface FieldScore {
  exact: number;
  compared: number;
  percent: number;
}

export interface ExtractionReport {
  pages: number;
  comparison: string;
  fields: Record<Field, FieldScore>;
  /** document.language (detected, declared lang as a hint) against the primary subtag of the expected lang. */
  detected_language: FieldScore;
  extractors: Record<string, number>;
  mismatches: Array<{ page: string; field: Field; got: string; expected: string }>;
  /** Word F1 of the extracted text against readability's expected article text: trove's chain, and readability in its place. */
  text_agreement: {
    trove: TextAgreement;
    readability: TextAgreement;
  };
  throughput: {
    pages: number;
    /** Worker threads extracting, in both figures below. */
    workers: number;
    /** Every page handed to the app's extraction pool at once; parse, metadata, extractors, readability. */
    extraction_pages_per_s: number;
    /** Extraction, language, chunks, hashing, redaction and the SQLite writes (raw HTML compressed), batches of ADD_BATCH, one stored while the next extracts. */
    ingest_pages_per_s: number;
    ratio: number;
    /** One thread, no pool: what a core does alone. */
    in_process_pages_per_s: number;
    cores: number;
  };
}

/** Files of a gzipped ustar archive (regular files only; names with their ustar prefix). */
export function readTarGz(path: string): Map<string, Buffer> {
  const tar = gunzipSync(readFileSync(path));
  const files = new Map<string, Buffer>();
  const text = (from: number, len: number) => tar.toString('utf8', from, from + len).replace(/\0.*$/s, '');
  for (let at = 0; at + 512 <= tar.length; ) {
    const name = text(at, 100);
    if (!name) break;
    const size = Number.parseInt(text(at + 124, 12).trim() || '0', 8);
    const type = String.fromCharCode(tar[at + 156]!);
    const prefix = text(at + 257, 6).startsWith('ustar') ? text(at + 345, 155) : '';
    if (type === '0' || type === '\0') files.set(prefix ? `${prefix}/${name}` : name, tar.subarray(at + 512, at + 512 + size));
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}

/**
 * The URL a page was captured from: its canonical link or og:url when it declares one (so that site-aware
 * extractors see the real host), else the placeholder host readability's tests use.
 */
function pageUrl(name: string, html: string): string {
  const declared = /<link[^>]+rel=["']?canonical["']?[^>]*href=["']([^"']+)/i.exec(html)?.[1] ?? /<meta[^>]+property=["']og:url["'][^>]*content=["']([^"']+)/i.exec(html)?.[1];
  try {
    const u = new URL(declared ?? '');
    if (u.protocol === 'http:' || u.protocol === 'https:') return u.href;
  } catch {
    // no usable declared URL
  }
  return `http://fakehost/${name}/`;
}

function loadPages(): Page[] {
  const files = readTarGz(PAGES);
  const pages: Page[] = [];
  for (const [path, bytes] of files) {
    const m = /^(?:\.\/)?([^/]+)\/source\.html$/.exec(path);
    const expected = m && files.get(path.replace(/source\.html$/, 'expected-metadata.json'));
    const expectedHtml = m && files.get(path.replace(/source\.html$/, 'expected.html'));
    if (!m || !expected || !expectedHtml) continue;
    const html = bytes.toString('utf8');
    const expectedText = textOf(parseLight(expectedHtml.toString('utf8')).body);
    pages.push({ name: m[1]!, url: pageUrl(m[1]!, html), html, expected: JSON.parse(expected.toString('utf8')), expectedText });
  }
  return pages.sort((a, b) => a.name.localeCompare(b.name));
}

/** Whitespace collapsed and trimmed; null, undefined and '' are all "none". */
function norm(v: unknown): string {
  return typeof v === 'string' ? v.replace(/\s+/g, ' ').trim() : '';
}

function score(pages: Page[], results: ExtractionResult[]): Pick<ExtractionReport, 'fields' | 'mismatches' | 'extractors'> {
  const fields = {} as Record<Field, FieldScore>;
  const mismatches: ExtractionReport['mismatches'] = [];
  const extractors: Record<string, number> = {};
  for (const r of results) extractors[r.extractor] = (extractors[r.extractor] ?? 0) + 1;
  for (const field of Object.keys(FIELDS) as Field[]) {
    let exact = 0;
    let compared = 0;
    pages.forEach((page, i) => {
      if (!(field in page.expected)) return;
      compared++;
      const got = norm(FIELDS[field](results[i]!));
      const want = norm(page.expected[field]);
      if (got === want) exact++;
      else mismatches.push({ page: page.name, field, got: got.slice(0, 120), expected: want.slice(0, 120) });
    });
    fields[field] = { exact, compared, percent: compared ? Number(((100 * exact) / compared).toFixed(1)) : 0 };
  }
  return { fields, mismatches, extractors };
}

/** Every page through `extractors`, with the text's agreement with the expected article and the time taken. */
async function extractAll(pages: Page[], extractors: ReturnType<typeof createExtractors>): Promise<{ results: ExtractionResult[]; agreement: TextAgreement }> {
  const results: ExtractionResult[] = [];
  const started = performance.now();
  for (const p of pages) results.push(await extract({ url: new URL(p.url), html: p.html }, extractors));
  const ms = performance.now() - started;
  const f1 = pages.map((p, i) => wordF1(results[i]!.text, p.expectedText));
  const mean = f1.reduce((a, b) => a + b, 0) / Math.max(1, f1.length);
  return { results, agreement: { mean: Number(mean.toFixed(3)), close: f1.filter((x) => x >= 0.9).length, ms_per_page: Number((ms / Math.max(1, pages.length)).toFixed(1)) } };
}

/** Copies of the pages under distinct URLs (copy -1 is the warm-up). */
function copiesOf(pages: Page[], from: number, copies: number): Page[] {
  const out: Page[] = [];
  for (let c = from; c < from + copies; c++) {
    for (const p of pages) {
      const url = new URL(p.url);
      url.searchParams.set('trove-copy', String(c));
      out.push({ ...p, url: url.href });
    }
  }
  return out;
}

/** Pages per second of `run` over `copies` copies of the pages, after one untimed warm-up copy (threads started, code compiled). */
async function rate(pages: Page[], copies: number, run: (list: Page[]) => Promise<unknown>): Promise<number> {
  await run(copiesOf(pages, -1, 1));
  const timed = copiesOf(pages, 0, copies);
  const started = performance.now();
  await run(timed);
  return timed.length / ((performance.now() - started) / 1000);
}

/** One thread, no pool: what one core extracts. */
async function inProcessRate(pages: Page[], copies: number): Promise<number> {
  const extractors = createExtractors();
  return rate(pages, copies, async (list) => {
    for (const p of list) await extract({ url: new URL(p.url), html: p.html }, extractors);
  });
}

/** Extraction alone on the pool the app would use: every page queued at once. */
async function extractionRate(pages: Page[], copies: number, workers: number): Promise<number> {
  const pool = createExtractionPool({ size: workers });
  try {
    return await rate(pages, copies, (list) => Promise.all(list.map((p) => pool.extract({ url: new URL(p.url), html: p.html }))));
  } finally {
    await pool.close();
  }
}

/** Ingest as a folder sync does it: batches of ADD_BATCH in one transaction each, the next one extracting while one is stored. */
async function ingestRate(pages: Page[], copies: number, workers: number): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'trove-bench-extract-'));
  const app = createApp(loadConfig({ dataDir: dir, env: { XDG_CONFIG_HOME: dir } }), createLogger('warn'), { extractionWorkers: workers });
  try {
    const tools = await createIngestTools(app);
    return await rate(pages, copies, async (list) => {
      const inputs: ContentInput[] = list.map((p) => ({ url: p.url, html: p.html, source: 'bench' }));
      let storing: Promise<AddResult[]> = Promise.resolve([]);
      for (let i = 0; i < inputs.length; i += ADD_BATCH) {
        const queued = queueContents(app, inputs.slice(i, i + ADD_BATCH), tools);
        await storing;
        storing = queued();
      }
      await storing;
    });
  } finally {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The report, or the reason it was skipped (the data set is absent). */
export async function runExtractionBench(opts: { quick: boolean; cores: number }): Promise<ExtractionReport | { skipped: string }> {
  if (!existsSync(PAGES)) return { skipped: `${PAGES} is absent` };
  process.stderr.write('extraction report over readability-pages\n');
  const pages = loadPages();
  const extractors = createExtractors();
  const { results, agreement: trove } = await extractAll(pages, extractors);
  const { agreement: readability } = await extractAll(pages, extractors.filter((e) => e.name !== 'article'));
  const detector = await createLanguageDetector();
  const detected = pages.filter((p) => declaredCode(p.expected['lang'] as string | undefined));
  const agree = detected.filter((p) => {
    const r = results[pages.indexOf(p)]!;
    return detector.detect(`${r.title}\n${r.text}`, r.metadata.language) === declaredCode(p.expected['lang'] as string);
  }).length;
  const copies = opts.quick ? 2 : 4;
  const workers = defaultPoolSize();
  const inProcess = await inProcessRate(pages, copies);
  const extraction = await extractionRate(pages, copies, workers);
  const ingest = await ingestRate(pages, copies, workers);
  return {
    pages: pages.length,
    comparison: 'exact string equality after collapsing whitespace and trimming; null, missing and empty are equal; a field counts only on pages whose expected-metadata.json has it',
    ...score(pages, results),
    text_agreement: { trove, readability },
    detected_language: { exact: agree, compared: detected.length, percent: Number(((100 * agree) / Math.max(1, detected.length)).toFixed(1)) },
    throughput: {
      pages: pages.length * copies,
      workers,
      extraction_pages_per_s: Math.round(extraction),
      ingest_pages_per_s: Math.round(ingest),
      ratio: Number((ingest / extraction).toFixed(2)),
      in_process_pages_per_s: Math.round(inProcess),
      cores: opts.cores,
    },
  };
}

function agreementRows(report: ExtractionReport): string[] {
  const row = (name: string, a: TextAgreement) => `| ${name} | ${a.mean} | ${a.close} / ${report.pages} | ${a.ms_per_page} |`;
  return [
    'Article text against readability\'s expected.html (word F1; first run, one thread, cold):',
    '',
    '| chain | mean F1 | pages at F1 >= 0.9 | ms per page |',
    '|---|---:|---:|---:|',
    row('trove (article extractor, readability as its fallback)', report.text_agreement.trove),
    row('readability in its place', report.text_agreement.readability),
  ];
}

export function extractionMarkdown(report: ExtractionReport | { skipped: string }): string {
  if ('skipped' in report) return `Extraction report skipped: ${report.skipped}.\n`;
  const rows = (Object.entries(report.fields) as Array<[Field, FieldScore]>).map(([f, s]) => `| ${f} | ${s.exact} / ${s.compared} | ${s.percent}% |`);
  const t = report.throughput;
  return [
    `Extraction over ${report.pages} readability test pages (${report.comparison}):`,
    '',
    '| field | exact | % |',
    '|---|---:|---:|',
    ...rows,
    `| lang, detected code (document.language) | ${report.detected_language.exact} / ${report.detected_language.compared} | ${report.detected_language.percent}% |`,
    '',
    `Extractors used: ${Object.entries(report.extractors).map(([k, v]) => `${k} ${v}`).join(', ')}.`,
    '',
    ...agreementRows(report),
    '',
    `Throughput on ${t.pages} pages (${t.cores} cores, ${t.workers} extraction workers in both figures): extraction alone ${t.extraction_pages_per_s} pages/s, ingest into SQLite (batches of ${ADD_BATCH}, one stored while the next extracts) ${t.ingest_pages_per_s} pages/s, ratio ${t.ratio}; one thread without workers extracts ${t.in_process_pages_per_s} pages/s.`,
    '',
  ].join('\n');
}

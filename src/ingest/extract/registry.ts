import { TroveError } from '../../errors.js';
import { createArticleExtractor } from './article.js';
import { createBasicHtmlExtractor } from './basic.js';
import { createCodeExtractor } from './code.js';
import { parseLight } from '../html/tree.js';
import { type DomDocument, type ParseOptions, parseDocument } from './dom.js';
import { createBinaryGuard } from './guard.js';
import { compact, createMetadataExtractor, pageElements } from './metadata.js';
import { createPdfExtractor } from './pdf.js';
import { createReadabilityExtractor } from './readability.js';
import { createGithubExtractor } from './sites/github.js';
import { createStackExchangeExtractor } from './sites/stackexchange.js';
import { createWikipediaExtractor } from './sites/wikipedia.js';
import { createMarkdownExtractor, createPlainTextExtractor } from './text.js';
import type { ExtractContext, ExtractInput, ExtractionResult, Extractor, LightPage, Outcome, PageMetadata } from './types.js';

/**
 * The default extractors, in the order they are tried: the binary guard, metadata enrichment (before
 * anything may change the parsed page), site-aware extractors, trove's article extractor, readability
 * (when that finds no article), the basic HTML fallback, then PDF, source code, Markdown and plain text.
 */
export function createExtractors(): Extractor[] {
  return [
    createBinaryGuard(),
    createMetadataExtractor(),
    createGithubExtractor(),
    createWikipediaExtractor(),
    createStackExchangeExtractor(),
    createArticleExtractor(),
    createReadabilityExtractor(),
    createBasicHtmlExtractor(),
    createPdfExtractor(),
    createCodeExtractor(),
    createMarkdownExtractor(),
    createPlainTextExtractor(),
  ];
}

interface Run extends ExtractContext {
  metadata: PageMetadata;
  title: string;
}

function startRun(html: string | undefined, options: ParseOptions): Run {
  let doc: DomDocument | undefined;
  let page: LightPage | undefined;
  const document = () => (doc ??= parseDocument(html ?? '', options));
  return {
    metadata: {},
    title: '',
    page: () => {
      if (!page) {
        const light = parseLight(html ?? '');
        page = { doc: light, elements: pageElements(light) };
      }
      return page;
    },
    document,
    takeDocument: () => {
      const taken = document();
      doc = undefined;
      return taken;
    },
  };
}

function describe(input: ExtractInput): string {
  const kind = input.html !== undefined ? 'HTML' : input.text !== undefined ? 'text' : (input.contentType ?? input.extension ?? 'binary content');
  return `${kind} from ${input.url.href}`;
}

/** An extractor's outcome; an unexpected failure (a bug, a parser choking) falls back instead of failing the input. */
async function runOne(extractor: Extractor, input: ExtractInput, run: Run): Promise<Outcome> {
  try {
    return await extractor.run(input, run);
  } catch (err) {
    if (err instanceof TroveError) throw err;
    return { status: 'next', reason: `failed: ${(err as Error)?.message ?? String(err)}` };
  }
}

/**
 * Runs the matching extractors in order until one produces the text. Metadata from every extractor that ran
 * accumulates, later ones overriding earlier ones. An extractor aborts the run by throwing a TroveError.
 */
export async function extract(input: ExtractInput, extractors: readonly Extractor[], options: ParseOptions = {}): Promise<ExtractionResult> {
  const run = startRun(input.html, options);
  const skipped: ExtractionResult['skipped'] = [];
  for (const extractor of extractors) {
    if (!extractor.matches(input)) continue;
    const outcome = await runOne(extractor, input, run);
    if (outcome.status === 'success') {
      const { title, text, html, metadata, codeLanguage, verbatim } = outcome.result;
      return {
        extractor: extractor.name,
        skipped,
        title: title || run.title,
        text,
        html: html ?? null,
        metadata: { ...run.metadata, ...compact(metadata ?? {}) },
        ...(codeLanguage ? { codeLanguage } : {}),
        ...(verbatim ? { verbatim } : {}),
      };
    }
    if (outcome.metadata) run.metadata = { ...run.metadata, ...compact(outcome.metadata) };
    if (outcome.status === 'enrich') run.title ||= outcome.title ?? '';
    else if (extractor.capabilities.includes('text')) skipped.push({ extractor: extractor.name, reason: outcome.reason });
  }
  throw new TroveError('UNSUPPORTED_TYPE', `no extractor handles ${describe(input)}`, { url: input.url.href, skipped });
}

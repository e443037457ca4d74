import type { LightDocument } from '../html/tree.js';
import type { DomDocument } from './dom.js';
import type { PageElements } from './metadata.js';

/** What an extractor may contribute. */
export type Capability = 'text' | 'metadata' | 'preview';

/** One thing to extract: a page (html), a text file (text), or a binary document (bytes). */
export interface ExtractInput {
  url: URL;
  html?: string | undefined;
  text?: string | undefined;
  bytes?: Uint8Array | undefined;
  /** MIME type without parameters, when known (e.g. from a fetch). */
  contentType?: string | undefined;
  /** File extension with its dot, lower-case (e.g. '.md'), when the input is a file. */
  extension?: string | undefined;
}

/** Page metadata; the key names are part of the stored document's metadata contract. */
export interface PageMetadata {
  author?: string;
  published?: string;
  modified?: string;
  description?: string;
  site_name?: string;
  type?: string;
  /** The language the page declares (e.g. 'en-US'); the detected code goes to document.language. */
  language?: string;
  image?: string;
  videos?: string[];
  json_ld?: unknown[];
}

export interface Extracted {
  title: string;
  text: string;
  /** Sanitized preview HTML, or null when the extractor renders none. */
  html: string | null;
  metadata: PageMetadata;
  /** Programming language of source code, which replaces natural-language detection. */
  codeLanguage?: string;
  /** Keep the text's lines and spacing exactly (source code). */
  verbatim?: boolean;
}

/**
 * - success: the extractor produced the text; the run stops.
 * - enrich: metadata (and maybe a title) for later extractors to build on; the run continues.
 * - next: this extractor cannot handle the input; fall back to the next one.
 * Aborting is throwing a TroveError: the input is refused, no later extractor runs.
 */
export type Outcome =
  | { status: 'success'; result: Partial<Extracted> & { text: string } }
  | { status: 'enrich'; metadata: PageMetadata; title?: string | undefined }
  | { status: 'next'; reason: string; metadata?: PageMetadata | undefined };

/** A page in the light tree, with the elements the metadata readers look at. */
export interface LightPage {
  doc: LightDocument;
  elements: PageElements;
}

/** Shared state of one run: one parse of the page for every extractor that reads it. */
export interface ExtractContext {
  /** The page in the light tree, parsed once and shared: read it, never change it. */
  page(): LightPage;
  /** The page in a full DOM (linkedom), parsed on first use, shared: read it, do not change it. */
  document(): DomDocument;
  /** The parsed page for an extractor that changes it; later readers get a fresh parse. */
  takeDocument(): DomDocument;
  /** Metadata gathered so far by earlier extractors. */
  readonly metadata: PageMetadata;
  /** A title found so far by earlier extractors ('' when none). */
  readonly title: string;
}

export interface Extractor {
  name: string;
  capabilities: readonly Capability[];
  matches(input: ExtractInput): boolean;
  run(input: ExtractInput, ctx: ExtractContext): Outcome | Promise<Outcome>;
}

/** What a run produced, and which extractor produced the text. */
export interface ExtractionResult extends Extracted {
  extractor: string;
  /** Text extractors that fell back, with their reasons, in order. */
  skipped: Array<{ extractor: string; reason: string }>;
}

export { createExtractors, extract } from './registry.js';
export type { Capability, ExtractContext, ExtractInput, Extracted, ExtractionResult, Extractor, Outcome, PageMetadata } from './types.js';

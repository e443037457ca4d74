import type { TroveConfig } from '../config/schema.js';
import { TroveError } from '../errors.js';
import { type Redactor, createRedactor } from './redact.js';
import { type SkipRules, createSkipRules } from './skip.js';

/** What every input passes before it is stored: skip rules, then redaction. Built once per app. */
export interface IngestRules {
  skip: SkipRules;
  redactor: Redactor;
}

/** Compiles the rules; a pattern that does not compile is INVALID_CONFIG naming its key (loadConfig checks first). */
export function createIngestRules(config: TroveConfig): IngestRules {
  return {
    skip: compiled('indexer.skip_patterns', () => createSkipRules(config.indexer.skip_domains, config.indexer.skip_patterns)),
    redactor: compiled('redact.patterns', () => createRedactor(config.redact.builtins, config.redact.patterns)),
  };
}

function compiled<T>(key: string, build: () => T): T {
  try {
    return build();
  } catch (err) {
    throw new TroveError('INVALID_CONFIG', `config ${key}: ${(err as Error).message}`, { key });
  }
}

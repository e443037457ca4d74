import type { TroveConfig } from '../config/schema.js';
import { TroveError } from '../errors.js';
import { OpenAiChat } from './chat.js';
import { OpenAiEmbeddings } from './embeddings.js';
import { SearxngClient } from './searxng.js';
import type { ChatProvider, EmbeddingsProvider } from './types.js';

export interface Providers {
  embeddings?: EmbeddingsProvider | undefined;
  llm?: ChatProvider | undefined;
  searxng?: SearxngClient | undefined;
}

function needModel(section: string, model: string): void {
  if (!model.trim()) throw new TroveError('INVALID_CONFIG', `config ${section}.model: a model name is needed when ${section}.enabled is true`, { key: `${section}.model` });
}

/** The remote services the config turns on; nothing is contacted until first use. */
export function createProviders(config: TroveConfig): Providers {
  const out: Providers = {};
  const { semantic, llm, searxng } = config;
  if (semantic.enabled) {
    needModel('semantic', semantic.model);
    out.embeddings = new OpenAiEmbeddings({
      baseUrl: semantic.base_url, model: semantic.model, dimensions: semantic.dimensions,
      batchSize: semantic.batch_size, apiKey: semantic.api_key || undefined, timeoutMs: semantic.timeout_ms,
    });
  }
  if (llm.enabled) {
    needModel('llm', llm.model);
    out.llm = new OpenAiChat({ baseUrl: llm.base_url, model: llm.model, apiKey: llm.api_key || undefined, timeoutMs: llm.timeout_ms });
  }
  if (searxng.enabled) out.searxng = new SearxngClient({ baseUrl: searxng.base_url, timeoutMs: searxng.timeout_seconds * 1000 });
  return out;
}

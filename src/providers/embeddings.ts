import { type HttpTarget, exchangeJson, invalidAnswer, openAiUrl } from './http.js';
import type { EmbedOptions, EmbeddingsProvider } from './types.js';

// POST {base_url}/v1/embeddings {model, input: string[], dimensions?} -> data[].embedding by index.

export interface OpenAiEmbeddingsOptions {
  baseUrl: string;
  model: string;
  /** Length asked of the model; 0: none asked, the first answer's length is kept. */
  dimensions: number;
  batchSize: number;
  apiKey?: string | undefined;
  timeoutMs: number;
}

interface EmbeddingItem {
  index?: unknown;
  embedding?: unknown;
}

export class OpenAiEmbeddings implements EmbeddingsProvider {
  readonly model: string;
  private length: number;
  private readonly url: string;

  constructor(private readonly opts: OpenAiEmbeddingsOptions) {
    this.model = opts.model;
    this.length = opts.dimensions;
    this.url = openAiUrl(opts.baseUrl, 'embeddings');
  }

  /** The vector length: configured, else learnt from the first answer (0 until then). */
  get dimensions(): number {
    return this.length;
  }

  async embed(texts: string[], signal?: AbortSignal, options: EmbedOptions = {}): Promise<Float32Array[]> {
    const timeoutMs = options.timeoutMs ?? this.opts.timeoutMs;
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += this.opts.batchSize) {
      out.push(...(await this.embedBatch(texts.slice(i, i + this.opts.batchSize), { signal, timeoutMs })));
    }
    return out;
  }

  private async embedBatch(input: string[], call: { signal?: AbortSignal | undefined; timeoutMs: number }): Promise<Float32Array[]> {
    const target: HttpTarget = { service: 'embeddings', url: this.url, apiKey: this.opts.apiKey, timeoutMs: call.timeoutMs, signal: call.signal };
    const body: Record<string, unknown> = { model: this.model, input };
    if (this.opts.dimensions > 0) body.dimensions = this.opts.dimensions;
    const answer = (await exchangeJson(target, { method: 'POST', body })) as { data?: unknown };
    if (!Array.isArray(answer?.data)) throw invalidAnswer(target, 'answered without a data list');
    if (answer.data.length !== input.length) throw invalidAnswer(target, `answered ${answer.data.length} vectors for ${input.length} texts`, { expected: input.length, got: answer.data.length });
    const vectors = new Array<Float32Array | undefined>(input.length);
    (answer.data as EmbeddingItem[]).forEach((item, position) => {
      const index = item?.index === undefined ? position : item.index;
      if (!Number.isInteger(index) || (index as number) < 0 || (index as number) >= input.length || vectors[index as number]) {
        throw invalidAnswer(target, 'answered vectors with missing or repeated indexes');
      }
      vectors[index as number] = this.vector(item.embedding, target);
    });
    return vectors as Float32Array[];
  }

  private vector(raw: unknown, target: HttpTarget): Float32Array {
    if (!Array.isArray(raw) || raw.length === 0 || raw.some((x) => typeof x !== 'number' || !Number.isFinite(x))) {
      throw invalidAnswer(target, 'answered an embedding that is not a list of numbers');
    }
    if (this.length === 0) this.length = raw.length;
    if (raw.length !== this.length) {
      throw invalidAnswer(target, `answered vectors of length ${raw.length}; ${this.length} expected (semantic.dimensions, or the model's first answer)`, { expected: this.length, got: raw.length });
    }
    return Float32Array.from(raw as number[]);
  }
}

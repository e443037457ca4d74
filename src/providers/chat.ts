import { type HttpTarget, exchangeJson, invalidAnswer, openAiUrl } from './http.js';
import type { ChatProvider, ChatRequest, ChatResponse } from './types.js';

// POST {base_url}/v1/chat/completions {model, messages, max_tokens, temperature} -> choices[0].message.content.

export interface OpenAiChatOptions {
  baseUrl: string;
  model: string;
  apiKey?: string | undefined;
  timeoutMs: number;
}

interface CompletionAnswer {
  choices?: Array<{ message?: { content?: unknown } }>;
  usage?: { prompt_tokens?: unknown; completion_tokens?: unknown };
}

const count = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.trunc(v) : 0);

export class OpenAiChat implements ChatProvider {
  readonly model: string;
  private readonly url: string;

  constructor(private readonly opts: OpenAiChatOptions) {
    this.model = opts.model;
    this.url = openAiUrl(opts.baseUrl, 'chat/completions');
  }

  async complete(request: ChatRequest): Promise<ChatResponse> {
    const target: HttpTarget = { service: 'chat', url: this.url, apiKey: this.opts.apiKey, timeoutMs: this.opts.timeoutMs, signal: request.signal };
    const body = { model: this.model, messages: request.messages, max_tokens: request.maxTokens, temperature: request.temperature ?? 0, stream: false };
    const answer = (await exchangeJson(target, { method: 'POST', body })) as CompletionAnswer;
    const content = Array.isArray(answer?.choices) ? answer.choices[0]?.message?.content : undefined;
    if (typeof content !== 'string') throw invalidAnswer(target, 'answered without choices[0].message.content');
    const out: ChatResponse = { text: content };
    if (answer.usage && typeof answer.usage === 'object') {
      out.usage = { promptTokens: count(answer.usage.prompt_tokens), completionTokens: count(answer.usage.completion_tokens) };
    }
    return out;
  }
}

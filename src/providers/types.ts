// Interfaces of the optional remote services a user brings; OpenAI-compatible HTTP clients implement them.

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatRequest {
  messages: ChatMessage[];
  /** Most completion tokens the model may spend. */
  maxTokens: number;
  temperature?: number | undefined;
  signal?: AbortSignal | undefined;
}

export interface ChatResponse {
  text: string;
  usage?: { promptTokens: number; completionTokens: number } | undefined;
}

/** A chat-completions endpoint (`[llm]`): Ollama, LM Studio, llama.cpp, vLLM, OpenAI. */
export interface ChatProvider {
  readonly model: string;
  complete(request: ChatRequest): Promise<ChatResponse>;
}

export interface EmbedOptions {
  /** Time limit of each request instead of the configured one (a search query waits less than the background queue). */
  timeoutMs?: number | undefined;
}

/** An /v1/embeddings endpoint (`[semantic]`). */
export interface EmbeddingsProvider {
  readonly model: string;
  /** Vector length: configured, else learnt from the first answer (0 until then). */
  readonly dimensions: number;
  /** One vector per text, in order; batching to the configured size is the provider's job. */
  embed(texts: string[], signal?: AbortSignal, options?: EmbedOptions): Promise<Float32Array[]>;
}

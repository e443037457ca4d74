import type { IncomingMessage, ServerResponse } from 'node:http';
import { startRestartable } from './restartable.js';
import { stemmer } from 'stemmer';

// A real HTTP server on 127.0.0.1 speaking the OpenAI /v1/embeddings and /v1/chat/completions APIs,
// as Ollama, LM Studio, llama.cpp, vLLM and OpenAI do. Vectors are deterministic (see fakeEmbedding).

export interface ChatMessageIn {
  role: string;
  content: string;
}

export interface RecordedRequest {
  method: string;
  /** Path without the query string, e.g. "/v1/embeddings". */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON body; undefined when there was none or it was not JSON. */
  body: any;
}

/** How the server misbehaves, for failure-mode tests. */
export type FailureMode =
  | { mode: 'status'; status: number; body?: string }
  /** Never answers (until resume() or close()): lets client timeouts fire without timing in tests. */
  | { mode: 'hang' }
  /** Vectors one longer than asked. */
  | { mode: 'wrong_length' }
  /** One vector fewer than inputs. */
  | { mode: 'wrong_count' }
  /** 200 with an HTML body. */
  | { mode: 'not_json' }
  /** Closes the connection without an answer. */
  | { mode: 'reset' };

export type Endpoint = 'embeddings' | 'chat';

export interface FailOptions {
  /** Only this endpoint fails; default both. */
  endpoint?: Endpoint;
  /** Fails this many requests, then behaves again; default until fail(undefined). */
  times?: number;
}

export interface OpenAiServerOptions {
  /** Vector length when a request does not ask for `dimensions`; default 64. */
  dimensions?: number;
  /** When set, requests must carry `Authorization: Bearer <apiKey>` (401 otherwise, as OpenAI). */
  apiKey?: string;
  /** Model names served; a request for another is 404 model_not_found. Default: any model. */
  models?: string[];
  /** Honour the request's `dimensions` field (OpenAI text-embedding-3 does); default true. */
  honourDimensions?: boolean;
  /** Return embeddings data in reverse order (clients must order by `index`). */
  reverseOrder?: boolean;
  /** The chat answer for a request; default: "echo: " + the last user message. */
  chat?: (messages: ChatMessageIn[], body: any) => string;
  /** Extra synonym groups for fakeEmbedding (each group maps to one concept). */
  synonyms?: string[][];
}

export interface OpenAiServer {
  /** Base URL without /v1, as configured in `[semantic] base_url`: http://127.0.0.1:<port> */
  url: string;
  /** Every request received, in order (including failed ones). */
  requests: RecordedRequest[];
  /** Requests to /v1/embeddings only. */
  embeddingRequests(): RecordedRequest[];
  /** Requests to /v1/chat/completions only. */
  chatRequests(): RecordedRequest[];
  /** Makes the next requests fail as described; undefined restores normal behaviour. */
  fail(failure: FailureMode | undefined, options?: FailOptions): void;
  /** Holds every later request (unanswered) until resume(); held requests are answered normally then. */
  pause(): void;
  resume(): void;
  /** Resolves once `n` requests are being held by pause() (or by a 'hang' failure). */
  waitForHeld(n?: number): Promise<void>;
  /** Resolves once `n` embeddings requests have been received in total. */
  waitForEmbeddingRequests(n: number): Promise<void>;
  /** Stops listening: clients get connection refused until up(). */
  down(): Promise<void>;
  /** Listens again on the same port. */
  up(): Promise<void>;
  close(): Promise<void>;
}

const STOP = new Set(
  'a an and are as at be but by for from has have he her his i in into is it its me my of on or our she so that the their them they this to was we were what when where which who will with you your do does did not no'.split(
    ' ',
  ),
);

/** Built-in synonym groups: paraphrases share a concept, so vector search finds what keywords miss. */
export const DEFAULT_SYNONYMS: string[][] = [
  ['car', 'automobile', 'vehicle', 'auto'],
  ['doctor', 'physician', 'medic', 'clinician'],
  ['film', 'movie', 'cinema', 'picture'],
  ['buy', 'purchase', 'acquire', 'bought', 'purchased'],
  ['big', 'large', 'huge', 'enormous'],
  ['happy', 'glad', 'joyful', 'cheerful'],
  ['dog', 'puppy', 'canine', 'hound'],
  ['house', 'home', 'residence', 'dwelling'],
  ['job', 'work', 'employment', 'occupation', 'career'],
  ['child', 'kid', 'children', 'kids'],
  ['prefer', 'like', 'favour', 'favor', 'enjoy', 'love'],
  ['language', 'languages', 'programming'],
  ['python', 'javascript', 'typescript', 'rust', 'golang', 'java'],
  ['allergy', 'allergic', 'intolerant', 'intolerance'],
  ['food', 'meal', 'dish', 'cuisine', 'eat', 'eating'],
  ['trip', 'travel', 'journey', 'vacation', 'holiday'],
  ['sick', 'ill', 'unwell'],
  ['fast', 'quick', 'rapid', 'speedy'],
];

function stemWord(w: string): string {
  return w.length >= 3 && /^[a-z]+$/.test(w) ? stemmer(w) : w;
}

function synonymTable(groups: string[][]): Map<string, string> {
  const table = new Map<string, string>();
  for (const group of groups) {
    const concept = `concept:${stemWord(group[0]!)}`;
    for (const w of group) table.set(stemWord(w.toLowerCase()), concept);
  }
  return table;
}

const DEFAULT_TABLE = synonymTable(DEFAULT_SYNONYMS);

function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * The deterministic vector the fake server returns: a hashed bag of stemmed content words (synonyms
 * folded to one concept), L2-normalised. Texts sharing words or concepts are close; a text with no
 * content word gets a unit vector on axis 0.
 */
export function fakeEmbedding(text: string, dimensions: number, synonyms: Map<string, string> = DEFAULT_TABLE): number[] {
  const v = new Array<number>(dimensions).fill(0);
  for (const m of text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
    if (STOP.has(m[0])) continue;
    const stem = stemWord(m[0]);
    const key = synonyms.get(stem) ?? stem;
    const h = fnv1a(key);
    v[h % dimensions]! += h & 0x80000000 ? -1 : 1;
  }
  const norm = Math.hypot(...v);
  if (norm === 0) {
    v[0] = 1;
    return v;
  }
  return v.map((x) => x / norm);
}

/** Cosine similarity of two vectors of the same length. */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}

function words(s: string): number {
  return s.split(/\s+/).filter(Boolean).length;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function apiError(res: ServerResponse, status: number, message: string, type: string, code: string | null = null): void {
  sendJson(res, status, { error: { message, type, param: null, code } });
}

async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const c of req) parts.push(c as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

export async function startOpenAiServer(options: OpenAiServerOptions = {}): Promise<OpenAiServer> {
  const defaultDims = options.dimensions ?? 64;
  const table = options.synonyms ? synonymTable([...DEFAULT_SYNONYMS, ...options.synonyms]) : DEFAULT_TABLE;
  const chat = options.chat ?? ((messages) => `echo: ${[...messages].reverse().find((m) => m.role === 'user')?.content ?? ''}`);
  const requests: RecordedRequest[] = [];
  let failure: { f: FailureMode; endpoint?: Endpoint; left: number } | undefined;
  let paused = false;
  const held: Array<() => void> = [];
  const waiters: Array<() => void> = [];
  const notify = () => {
    for (const w of waiters.splice(0)) w();
  };
  const until = async (done: () => boolean) => {
    while (!done()) await new Promise<void>((r) => waiters.push(r));
  };

  const failureFor = (endpoint: Endpoint): FailureMode | undefined => {
    if (!failure || (failure.endpoint && failure.endpoint !== endpoint)) return undefined;
    const f = failure.f;
    if (--failure.left <= 0) failure = undefined;
    return f;
  };

  const hold = () =>
    new Promise<void>((resolve) => {
      held.push(resolve);
      notify();
    });

  const embeddings = (res: ServerResponse, body: any, f: FailureMode | undefined) => {
    const input: unknown = body?.input;
    const texts = typeof input === 'string' ? [input] : input;
    if (!Array.isArray(texts) || texts.some((t) => typeof t !== 'string')) {
      return apiError(res, 400, "'input' must be a string or an array of strings", 'invalid_request_error');
    }
    const asked = body.dimensions;
    const dims = options.honourDimensions !== false && Number.isInteger(asked) && asked > 0 ? (asked as number) : defaultDims;
    const length = f?.mode === 'wrong_length' ? dims + 1 : dims;
    let data = (texts as string[]).map((t, index) => ({ object: 'embedding', index, embedding: fakeEmbedding(t, length, table) }));
    if (f?.mode === 'wrong_count') data = data.slice(1);
    if (options.reverseOrder) data.reverse();
    const tokens = (texts as string[]).reduce((n, t) => n + words(t), 0);
    sendJson(res, 200, { object: 'list', data, model: body.model, usage: { prompt_tokens: tokens, total_tokens: tokens } });
  };

  const completions = (res: ServerResponse, body: any) => {
    const messages: unknown = body?.messages;
    if (!Array.isArray(messages) || messages.length === 0) {
      return apiError(res, 400, "'messages' must be a non-empty array", 'invalid_request_error');
    }
    const content = chat(messages as ChatMessageIn[], body);
    const prompt = (messages as ChatMessageIn[]).reduce((n, m) => n + words(String(m.content ?? '')), 0);
    const completion = words(content);
    sendJson(res, 200, {
      id: `chatcmpl-${requests.length}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: body.model,
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
      usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
    });
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const raw = await readBody(req);
    let body: any;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      body = undefined;
    }
    requests.push({ method: req.method ?? 'GET', path, headers: req.headers, body });
    notify();
    const endpoint: Endpoint | undefined =
      path === '/v1/embeddings' ? 'embeddings' : path === '/v1/chat/completions' ? 'chat' : undefined;
    if (paused) await hold();
    if (options.apiKey !== undefined && req.headers.authorization !== `Bearer ${options.apiKey}`) {
      return apiError(res, 401, 'Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key');
    }
    if (req.method === 'GET' && path === '/v1/models') {
      const ids = options.models ?? ['fake-model'];
      return sendJson(res, 200, { object: 'list', data: ids.map((id) => ({ id, object: 'model', owned_by: 'trove-test' })) });
    }
    if (!endpoint || req.method !== 'POST') return apiError(res, 404, `no route ${req.method} ${path}`, 'invalid_request_error');
    if (raw && body === undefined) return apiError(res, 400, 'could not parse the JSON body', 'invalid_request_error');
    if (typeof body?.model !== 'string' || (options.models && !options.models.includes(body.model))) {
      return apiError(res, 404, `The model '${String(body?.model)}' does not exist`, 'invalid_request_error', 'model_not_found');
    }
    const f = failureFor(endpoint);
    if (f?.mode === 'hang') return hold().then(() => apiError(res, 503, 'released', 'server_error'));
    if (f?.mode === 'reset') return req.socket.destroy();
    if (f?.mode === 'status') {
      if (f.body !== undefined) {
        res.writeHead(f.status, { 'content-type': 'text/plain' });
        return res.end(f.body);
      }
      return apiError(res, f.status, `failure ${f.status} on request`, 'server_error');
    }
    if (f?.mode === 'not_json') {
      res.writeHead(200, { 'content-type': 'text/html' });
      return res.end('<html><body>Bad gateway</body></html>');
    }
    if (endpoint === 'embeddings') return embeddings(res, body, f);
    return completions(res, body);
  };

  const http = await startRestartable((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) apiError(res, 500, 'fake server failure', 'server_error');
      else res.destroy();
    });
  });
  const releaseAll = () => {
    for (const r of held.splice(0)) r();
  };

  return {
    url: http.url,
    requests,
    embeddingRequests: () => requests.filter((r) => r.path === '/v1/embeddings'),
    chatRequests: () => requests.filter((r) => r.path === '/v1/chat/completions'),
    fail: (f, opts = {}) => {
      failure = f ? { f, endpoint: opts.endpoint, left: opts.times ?? Number.POSITIVE_INFINITY } : undefined;
    },
    pause: () => {
      paused = true;
    },
    resume: () => {
      paused = false;
      releaseAll();
    },
    waitForHeld: (n = 1) => until(() => held.length >= n),
    waitForEmbeddingRequests: (n) => until(() => requests.filter((r) => r.path === '/v1/embeddings').length >= n),
    down: async () => {
      releaseAll();
      await http.stop();
    },
    up: http.start,
    close: async () => {
      releaseAll();
      await http.stop();
    },
  };
}

// The one declarative table of configuration keys: drives parsing, env/flag overrides, validation and `config init`.

export type KeySpec =
  | { type: 'string'; default: string; doc: string; secret?: boolean; pattern?: RegExp; patternDoc?: string }
  | { type: 'integer'; default: number; doc: string; min: number; max: number }
  | { type: 'number'; default: number; doc: string; min: number; max: number }
  | { type: 'boolean'; default: boolean; doc: string }
  | { type: 'enum'; default: string; doc: string; values: readonly string[] }
  /**
   * A list of strings: a TOML array; in env and flags a JSON array or comma-separated words.
   * Each item may be checked: `values` (one of), `pattern`, or `regex` (compiles as a regular expression, see util/regex.ts).
   */
  | { type: 'strings'; default: readonly string[]; doc: string; secret?: boolean; values?: readonly string[]; pattern?: RegExp; patternDoc?: string; regex?: boolean }
  /** A list of tables ([[section.key]] in TOML; a JSON array of objects in env and flags), each field checked by `fields`. */
  | { type: 'tables'; default: readonly Record<string, unknown>[]; doc: string; fields: Record<string, FieldSpec> };

/** A field of a `tables` entry; `required` fields have no default. */
export type FieldSpec = Exclude<KeySpec, { type: 'tables' }> & { required?: boolean };

/** Kinds of the built-in secret detectors (src/ingest/redact.ts); `redact.builtins` lists the enabled ones. */
export const BUILTIN_REDACTIONS = ['aws', 'private-key', 'github', 'gitlab', 'slack', 'openai', 'url-password'] as const;

const HTTP_URL = /^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/i;

export const CONFIG_SCHEMA = {
  server: {
    address: {
      type: 'string',
      default: '127.0.0.1:4433',
      doc: 'host:port the HTTP server listens on. Binding beyond loopback needs app.access_token.',
      pattern: /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):\d{1,5}$/,
      patternDoc: 'host:port, e.g. 127.0.0.1:4433',
    },
    max_body_bytes: { type: 'integer', default: 1_048_576, min: 1024, max: 1_073_741_824, doc: 'Largest accepted request body; larger bodies get 413.' },
    max_batch_bytes: { type: 'integer', default: 16_777_216, min: 1024, max: 1_073_741_824, doc: 'Largest accepted body of POST /api/batch (up to 100 operations); larger bodies get 413.' },
    public_origin: {
      type: 'strings',
      default: [],
      pattern: /^https?:\/\/[^\s/?#@]+\/?$/i,
      patternDoc: 'an origin such as https://trove.example.com',
      doc: 'Origins clients reach trove at through a reverse proxy; accepted as Host and Origin besides the listen address.',
    },
    base_url: {
      type: 'string',
      default: '',
      pattern: /^$|^\/[^\s?#]*$|^https?:\/\/[^\s/?#@]+(\/[^\s?#]*)?$/i,
      patternDoc: 'a URL such as https://example.com/trove, or a path such as /trove',
      doc: 'Where trove is served: every route (API, /healthz, /mcp) moves under its path; its origin, if given, counts as a public origin.',
    },
    max_concurrent: { type: 'integer', default: 16, min: 1, max: 10_000, doc: 'Requests handled at once (MCP and API; /healthz exempt); more get 429 with Retry-After.' },
    request_timeout_ms: { type: 'integer', default: 30_000, min: 100, max: 3_600_000, doc: 'Deadline of one request; a request still running gets 503 DEADLINE_EXCEEDED (408 while its body is still arriving).' },
    headers_timeout_ms: { type: 'integer', default: 10_000, min: 100, max: 600_000, doc: 'Time a client has to send the request headers; slower connections are closed.' },
    body_timeout_ms: { type: 'integer', default: 10_000, min: 100, max: 600_000, doc: 'Longest silence while a request body arrives; then 408 REQUEST_TIMEOUT and the connection is closed.' },
    keep_alive_timeout_ms: { type: 'integer', default: 5000, min: 100, max: 600_000, doc: 'How long an idle keep-alive connection stays open.' },
  },
  app: {
    access_token: { type: 'string', default: '', secret: true, doc: 'Static access token; when set every API call needs Authorization: Bearer <token> or X-Access-Token.' },
    user_handling: {
      type: 'boolean',
      default: false,
      doc: 'Multi-user mode: users (`trove create-user`) call with their personal tokens and see their own and the global documents.',
    },
    public: {
      type: 'boolean',
      default: false,
      doc: 'Public mode: callers without a token may search and preview global documents; history, memories and every write still need a valid token.',
    },
  },
  mcp: {
    enabled: { type: 'boolean', default: true, doc: 'Serve MCP: POST /mcp on the HTTP server and `trove mcp` over stdio.' },
    toolsets: {
      type: 'strings',
      default: ['history', 'memory', 'tree', 'catalog'],
      values: ['history', 'memory', 'tree', 'catalog'],
      doc: 'Toolsets offered to assistants; fewer tools help them choose. history: search, get_preview, get_history.',
    },
    max_result_bytes: { type: 'integer', default: 131_072, min: 4096, max: 16_777_216, doc: 'Bound on the encoded structured result of one tool call; longer text and HTML are shortened (reported), else RESULT_TOO_LARGE.' },
    default_bank: {
      type: 'string',
      default: 'default',
      pattern: /^(?!\.{1,2}$)[A-Za-z0-9._-]{1,64}$/,
      patternDoc: '1 to 64 characters of A-Z a-z 0-9 . _ -, not "." or ".."',
      doc: 'Memory bank of MCP connections that name none: POST /mcp without X-Bank-Id, and `trove mcp` without --bank.',
    },
  },
  store: {
    backend: { type: 'enum', default: 'sqlite', values: ['sqlite'], doc: 'Storage backend; the embedded SQLite file lives in the data directory.' },
    busy_timeout_ms: { type: 'integer', default: 5000, min: 0, max: 600_000, doc: 'How long a write waits for another process holding the database before failing with STORE_BUSY.' },
  },
  search: {
    default_limit: { type: 'integer', default: 10, min: 1, max: 50, doc: 'Results returned when a search does not ask for a number (1..50).' },
    weight_title: { type: 'number', default: 8, min: 0, max: 100, doc: 'BM25 weight of the title column.' },
    weight_domain: { type: 'number', default: 4, min: 0, max: 100, doc: 'BM25 weight of the domain column.' },
    weight_url: { type: 'number', default: 2, min: 0, max: 100, doc: 'BM25 weight of the url column.' },
    weight_text: { type: 'number', default: 1, min: 0, max: 100, doc: 'BM25 weight of the body text column.' },
    phrase_boost: { type: 'number', default: 1.5, min: 1, max: 10, doc: 'Score multiplier when a multi-word query occurs as an exact phrase.' },
    domain_boost: { type: 'number', default: 1.5, min: 1, max: 10, doc: "Score multiplier when a bare query term names the result's site (github -> github.com)." },
  },
  indexer: {
    chunk_chars: { type: 'integer', default: 2000, min: 200, max: 100_000, doc: 'Target passage length in characters; passages are the unit of matching and snippets.' },
    max_file_bytes: { type: 'integer', default: 2_097_152, min: 1, max: 1_073_741_824, doc: 'Files larger than this are refused by `trove add`.' },
    fetch_timeout_ms: { type: 'integer', default: 15_000, min: 100, max: 600_000, doc: 'Time limit for the whole fetch of one URL given to `trove add`: every redirect and the body.' },
    user_agent: { type: 'string', default: 'trove/0.1 (+self-hosted memory)', doc: 'User-Agent sent when fetching pages.' },
    fetch_connect_timeout_ms: { type: 'integer', default: 10_000, min: 100, max: 600_000, doc: 'Time limit for connecting and receiving the response headers, per request (each redirect is a request).' },
    fetch_read_timeout_ms: { type: 'integer', default: 10_000, min: 100, max: 600_000, doc: 'Longest silence allowed while reading a response body; indexer.fetch_timeout_ms still bounds the whole fetch.' },
    fetch_max_bytes: { type: 'integer', default: 10_485_760, min: 1024, max: 1_073_741_824, doc: 'Largest page kept, counted after decompression; larger pages stop at the cap with TOO_LARGE.' },
    fetch_max_redirects: { type: 'integer', default: 5, min: 0, max: 20, doc: 'Redirects followed per fetch; more, or a redirect back to a visited URL, is REDIRECT_LOOP.' },
    skip_domains: {
      type: 'strings',
      default: [],
      pattern: /^(\*\.|\.)?[^\s/:@*?#\\]+$/,
      patternDoc: 'a host name such as example.com or *.example.com',
      doc: 'Sites never indexed: a domain matches itself and its subdomains. Adding one answers SKIPPED.',
    },
    skip_patterns: { type: 'strings', default: [], regex: true, doc: 'Regular expressions tested against the full URL; a match is never indexed (SKIPPED). Write /source/flags for flags, e.g. "/[?&]token=/i".' },
    directories: {
      type: 'tables',
      default: [],
      doc: 'Local folders ([[indexer.directories]]) indexed by `trove sync` and at `trove serve` start, then watched while serving.',
      fields: {
        path: { type: 'string', default: '', required: true, doc: 'An existing directory; ~ is the home directory; a relative path starts at the config file.' },
        label: { type: 'string', default: '', doc: 'Label of its documents (empty: none).' },
        include: { type: 'strings', default: [], doc: 'Globs of files to index among the supported ones (empty: all). A glob without / matches file names at any depth.' },
        exclude: { type: 'strings', default: [], doc: 'Globs of files and directories to leave out.' },
        max_file_bytes: { type: 'integer', default: 0, min: 0, max: 1_073_741_824, doc: 'Larger files are refused; 0 means indexer.max_file_bytes.' },
        hidden: { type: 'boolean', default: false, doc: 'Index dot files and dot directories too.' },
      },
    },
  },
  redact: {
    builtins: {
      type: 'strings',
      default: BUILTIN_REDACTIONS,
      values: BUILTIN_REDACTIONS,
      doc: 'Built-in secret detectors applied before anything is stored or indexed; remove one to turn it off, [] for none. Matches become [REDACTED:<kind>].',
    },
    patterns: { type: 'strings', default: [], regex: true, doc: 'More secrets to redact: regular expressions (/source/flags for flags); a named group (?<secret>...) limits the replacement to that part. Matches become [REDACTED:custom].' },
  },
  log: {
    level: { type: 'enum', default: 'info', values: ['silent', 'error', 'warn', 'info', 'debug'], doc: 'Least severe log level written to stderr.' },
  },
  render: {
    chromium_path: {
      type: 'string',
      default: '/usr/bin/chromium',
      doc: 'Chromium (or Chrome) executable that renders stored pages for capture_screenshot, inspect_dom and inspect_accessibility, with JavaScript and network off. Missing: those tools answer CAPABILITY_UNAVAILABLE (Debian/Ubuntu: apt-get install chromium).',
    },
  },
  semantic: {
    enabled: { type: 'boolean', default: false, doc: 'Embed every passage with an OpenAI-compatible /v1/embeddings endpoint (Ollama, LM Studio, llama.cpp, vLLM, OpenAI) for semantic and hybrid search.' },
    base_url: { type: 'string', default: 'http://localhost:11434', pattern: HTTP_URL, patternDoc: 'an http(s) URL such as http://localhost:11434', doc: 'Where the endpoint lives; /v1/embeddings is added (a base_url ending in /v1 is used as is).' },
    model: { type: 'string', default: 'nomic-embed-text', doc: 'Embedding model name. Changing it (or dimensions) drops every vector and embeds everything again.' },
    dimensions: { type: 'integer', default: 0, min: 0, max: 16_384, doc: 'Vector length asked of the model (sent as `dimensions`); 0 sends none and takes the length of the first answer.' },
    batch_size: { type: 'integer', default: 32, min: 1, max: 2048, doc: 'Passages sent per embeddings request.' },
    api_key: { type: 'string', default: '', secret: true, doc: 'Sent as Authorization: Bearer <key> when set (OpenAI, vLLM --api-key); local servers need none.' },
    timeout_ms: { type: 'integer', default: 60_000, min: 100, max: 3_600_000, doc: 'Time limit of one background embeddings request.' },
    query_timeout_ms: { type: 'integer', default: 5000, min: 100, max: 600_000, doc: 'Time limit for embedding a search query; slower, and the search falls back to keywords with a notice.' },
  },
  llm: {
    enabled: { type: 'boolean', default: false, doc: 'Use an OpenAI-compatible /v1/chat/completions endpoint (e.g. for reflect answers).' },
    base_url: { type: 'string', default: 'http://localhost:11434', pattern: HTTP_URL, patternDoc: 'an http(s) URL such as http://localhost:11434', doc: 'Where the endpoint lives; /v1/chat/completions is added (a base_url ending in /v1 is used as is).' },
    model: { type: 'string', default: '', doc: 'Chat model name (required when llm.enabled), e.g. llama3.2 or gpt-4o-mini.' },
    api_key: { type: 'string', default: '', secret: true, doc: 'Sent as Authorization: Bearer <key> when set.' },
    timeout_ms: { type: 'integer', default: 120_000, min: 100, max: 3_600_000, doc: 'Time limit of one chat completion.' },
  },
  searxng: {
    enabled: { type: 'boolean', default: false, doc: 'Offer the searxng_search tool, searching the web through a self-hosted SearXNG instance (its JSON format must be enabled).' },
    base_url: { type: 'string', default: 'http://localhost:8080', pattern: HTTP_URL, patternDoc: 'an http(s) URL such as http://localhost:8080', doc: 'The SearXNG instance; /search is added.' },
    max_results: { type: 'integer', default: 10, min: 1, max: 50, doc: 'Results returned when a searxng_search call does not ask for a number (1..50).' },
    default_language: { type: 'string', default: 'en', doc: 'Search language when a call names none (a SearXNG language code such as en, de, all).' },
    timeout_seconds: { type: 'integer', default: 10, min: 1, max: 300, doc: 'Time limit of one SearXNG request.' },
  },
} as const satisfies Record<string, Record<string, KeySpec>>;

type Schema = typeof CONFIG_SCHEMA;
type ValueOf<S extends KeySpec> = S extends { type: 'integer' | 'number' }
  ? number
  : S extends { type: 'boolean' }
    ? boolean
    : S extends { type: 'strings' }
      ? string[]
      : S extends { type: 'tables' }
        ? Array<Record<string, unknown>>
        : string;

export type TroveSettings = { [Sec in keyof Schema]: { [K in keyof Schema[Sec]]: Schema[Sec][K] extends KeySpec ? ValueOf<Schema[Sec][K]> : never } };

export interface TroveConfig extends TroveSettings {
  /** Where the store and other state live. */
  dataDir: string;
  /** The config file read, if any. */
  configFile: string | undefined;
}

export function sectionNames(): string[] {
  return Object.keys(CONFIG_SCHEMA);
}

export function keySpec(section: string, key: string): KeySpec | undefined {
  const sec = (CONFIG_SCHEMA as Record<string, Record<string, KeySpec>>)[section];
  return sec ? sec[key] : undefined;
}

export function allKeys(): Array<{ section: string; key: string; spec: KeySpec }> {
  const out: Array<{ section: string; key: string; spec: KeySpec }> = [];
  for (const [section, keys] of Object.entries(CONFIG_SCHEMA as Record<string, Record<string, KeySpec>>)) {
    for (const [key, spec] of Object.entries(keys)) out.push({ section, key, spec });
  }
  return out;
}

export function envName(section: string, key: string): string {
  return `TROVE_${section.toUpperCase()}_${key.toUpperCase()}`;
}

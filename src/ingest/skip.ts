import { TroveError } from '../errors.js';
import { compileUserRegex } from '../util/regex.js';

// Skip rules: sites and URL patterns that are never indexed, and URL schemes that are never stored. Pure functions.

export interface SkipRules {
  /** Lower-case ASCII host names; each matches itself and its subdomains. */
  readonly domains: readonly string[];
  readonly patterns: ReadonlyArray<{ source: string; regex: RegExp }>;
}

/** Schemes a stored document may have: web pages, local files, memories. */
const STORABLE = new Set(['http:', 'https:', 'file:', 'memory:']);

/** `*.example.com`, `.Example.COM.` and `bücher.de` become `example.com`, `example.com` and `xn--bcher-kva.de`. */
export function normalizeDomain(entry: string): string {
  const bare = entry.trim().replace(/^\*?\./, '').replace(/\.$/, '');
  try {
    return new URL(`http://${bare}/`).hostname;
  } catch {
    return bare.toLowerCase();
  }
}

/** Compiles `indexer.skip_domains` and `indexer.skip_patterns` (already validated when the config was loaded). */
export function createSkipRules(domains: readonly string[], patterns: readonly string[]): SkipRules {
  return {
    domains: [...new Set(domains.map(normalizeDomain).filter(Boolean))],
    patterns: patterns.map((source) => ({ source, regex: compileUserRegex(source) })),
  };
}

/** Which rule keeps a URL out, e.g. `indexer.skip_domains: example.com`; undefined when none does. */
export function skipReason(rules: SkipRules, url: URL): string | undefined {
  if (url.protocol === 'http:' || url.protocol === 'https:') {
    const host = url.hostname.replace(/\.$/, '');
    const domain = rules.domains.find((d) => host === d || host.endsWith(`.${d}`));
    if (domain) return `indexer.skip_domains: ${domain}`;
  }
  const pattern = rules.patterns.find((p) => p.regex.test(url.href));
  return pattern ? `indexer.skip_patterns: ${pattern.source}` : undefined;
}

/**
 * Refuses a URL that must not be indexed: SKIPPED when a skip rule matches, UNSUPPORTED_SCHEME for
 * schemes no document may have (javascript:, data:, ...). A URL that does not parse is left to the caller.
 */
export function checkIndexable(rules: SkipRules, raw: string): void {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return;
  }
  if (!STORABLE.has(url.protocol)) {
    throw new TroveError('UNSUPPORTED_SCHEME', `${url.protocol} URLs are never stored; use http, https or file`, { field: 'url', scheme: url.protocol.slice(0, -1) });
  }
  const reason = skipReason(rules, url);
  if (!reason) return;
  if (url.password) url.password = 'REDACTED';
  throw new TroveError('SKIPPED', `${url.href} is not indexed (${reason})`, { url: url.href, rule: reason });
}

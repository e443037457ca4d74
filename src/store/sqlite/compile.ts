import type { Atom, Clause, DateClause, KeywordClause, MatchClause, Query } from '../../engine/query/ast.js';
import { isStopWord } from '../../engine/text/stopwords.js';
import { stem, terms } from '../../engine/text/tokenize.js';

// Compiles the query syntax tree to an FTS5 expression plus SQL conditions on `documents d`.
// User text reaches MATCH only as tokens of letters and digits inside double quotes, and reaches SQL only as bound parameters.

/** Looks up indexed words for wildcards: `prefix`, or a LIKE pattern for suffix/infix. */
export interface Vocabulary {
  withPrefix(prefix: string, limit: number): string[];
  like(pattern: string, limit: number): string[];
}

export interface CompiledQuery {
  /** Chunk-level expression every full match satisfies; null when the query has no positive text condition. */
  fts: string | null;
  /** Relaxed expression (any of the bare words) used to fill up with partial matches. */
  partialFts: string | null;
  /** Documents having any chunk that matches this are excluded. */
  negFts: string | null;
  where: string[];
  params: unknown[];
  /** Words of a multi-word query, for the phrase boost. */
  phrase: string[] | null;
  /** Folded words of the positive bare terms, for the domain boost. */
  bareWords: string[];
  /** Stems to mark in snippets. */
  highlight: string[];
  /** A positive condition can never match (e.g. a wildcard with no indexed word). */
  impossible: boolean;
}

export const MAX_EXPANSIONS = 64;
/** Words all wildcards of one query expand to together; past it each gets one, so a query of hundreds of wildcards stays cheap. */
export const MAX_QUERY_EXPANSIONS = 256;
const DAY_MS = 86_400_000;

export interface CompileExtras {
  dateFrom?: number | undefined;
  dateTo?: number | undefined;
}

const quote = (tokens: string[]): string => `"${tokens.join(' ').replace(/"/g, '""')}"`;


function escapeLike(v: string): string {
  return v.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function wildcardLike(atom: Atom): string {
  const v = escapeLike(atom.text.toLowerCase());
  if (atom.type === 'phrase') return v;
  switch (atom.wildcard) {
    case 'prefix': return `${v}%`;
    case 'suffix': return `%${v}`;
    case 'infix': return `%${v}%`;
    default: return v;
  }
}

class Compiler {
  readonly where: string[] = [];
  readonly params: unknown[] = [];
  readonly positive: string[] = [];
  readonly negative: string[] = [];
  readonly bare: string[][] = [];
  readonly highlight = new Set<string>();
  impossible = false;
  private expansions = MAX_QUERY_EXPANSIONS;

  constructor(private readonly vocab: Vocabulary) {}

  private expand(lookup: (limit: number) => string[]): string[] {
    const words = lookup(Math.max(1, Math.min(MAX_EXPANSIONS, this.expansions)));
    this.expansions -= words.length;
    return words;
  }

  /** FTS5 alternatives for one atom; empty when it holds no searchable word. */
  private atomVariants(atom: Atom, collect: boolean): string[] {
    const tokens = terms(atom.text);
    if (tokens.length === 0) return [];
    if (collect) for (const t of tokens) this.highlight.add(stem(t));
    if (atom.type === 'phrase' || atom.wildcard === 'none') return [quote(tokens)];
    const first = tokens[0]!;
    const last = tokens[tokens.length - 1]!;
    const middle = tokens.slice(1, -1);
    if (tokens.length === 1) {
      const pattern = atom.wildcard === 'infix' ? `%${escapeLike(first)}%` : `%${escapeLike(first)}`;
      const words = this.expand((n) => (atom.wildcard === 'prefix' ? this.vocab.withPrefix(first, n) : this.vocab.like(pattern, n)));
      if (collect) for (const w of words) this.highlight.add(stem(w));
      const native = atom.wildcard === 'prefix' ? [`${quote([first])}*`] : [];
      return [...native, ...words.map((t) => quote([t]))];
    }
    const firsts = atom.wildcard === 'prefix' ? [first] : this.expand((n) => this.vocab.like(`%${escapeLike(first)}`, n));
    const trailing = atom.wildcard === 'prefix' || atom.wildcard === 'infix';
    const out: string[] = [];
    for (const f of firsts) {
      out.push(trailing ? `${quote([f, ...middle, last])}*` : quote([f, ...middle, last]));
      if (out.length >= MAX_EXPANSIONS) break;
    }
    return out;
  }

  match(c: MatchClause): void {
    const variants = c.options.flatMap((o) => this.atomVariants(o, !c.negated));
    if (variants.length === 0) {
      const wildcard = c.options.some((o) => o.type === 'term' && o.wildcard !== 'none' && terms(o.text).length > 0);
      if (wildcard && !c.negated) this.impossible = true;
      return;
    }
    let expr = variants.length === 1 ? variants[0]! : `(${variants.join(' OR ')})`;
    if (c.field) expr = `{${c.field}} : ${variants.length === 1 ? `(${expr})` : expr}`;
    if (c.negated) {
      this.negative.push(expr);
      return;
    }
    this.positive.push(expr);
    const only = c.options[0];
    if (!c.field && c.options.length === 1 && only?.type === 'term' && only.wildcard === 'none') this.bare.push(terms(only.text));
  }

  keyword(c: KeywordClause): void {
    const parts: string[] = [];
    for (const o of c.options) {
      const exact = o.type === 'phrase' || o.wildcard === 'none';
      const value = o.text.toLowerCase();
      switch (c.field) {
        case 'type':
          parts.push('d.kind = ?');
          this.params.push(value);
          break;
        case 'language':
          parts.push(exact ? 'lower(d.language) = ?' : "d.language LIKE ? ESCAPE '\\'");
          this.params.push(exact ? value : wildcardLike(o));
          break;
        case 'label':
          parts.push(exact ? "trove_lower(ifnull(d.label, '')) = ?" : "trove_lower(ifnull(d.label, '')) LIKE ? ESCAPE '\\'");
          this.params.push(exact ? value : wildcardLike(o));
          break;
        case 'domain':
          // github.com matches itself and its subdomains; a dot-free value matches a whole label (github -> github.io).
          parts.push(exact ? "('.' || d.domain || '.') LIKE ? ESCAPE '\\'" : "d.domain LIKE ? ESCAPE '\\'");
          this.params.push(exact ? (value.includes('.') ? `%.${escapeLike(value)}.` : `%.${escapeLike(value)}.%`) : wildcardLike(o));
          break;
        case 'metadata': {
          const path = '$' + (c.key ?? '').split('.').map((k) => `."${k}"`).join('');
          parts.push(exact ? 'trove_lower(json_extract(d.metadata, ?)) = ?' : "trove_lower(json_extract(d.metadata, ?)) LIKE ? ESCAPE '\\'");
          this.params.push(path, exact ? value : wildcardLike(o));
          break;
        }
      }
    }
    const cond = parts.length === 1 ? parts[0]! : `(${parts.join(' OR ')})`;
    this.where.push(c.negated ? `(${cond}) IS NOT 1` : cond);
  }

  date(c: DateClause): void {
    const col = c.field === 'added' ? 'd.added_at' : 'd.updated_at';
    let cond: string;
    if (c.op === '=') {
      cond = `(${col} >= ? AND ${col} < ?)`;
      this.params.push(c.from, c.to);
    } else {
      cond = `${col} ${c.op} ?`;
      this.params.push(c.from);
    }
    this.where.push(c.negated ? `NOT (${cond})` : cond);
  }

  clause(c: Clause): void {
    if (c.kind === 'match') this.match(c);
    else if (c.kind === 'keyword') this.keyword(c);
    else this.date(c);
  }

  partial(): string | null {
    if (this.bare.length < 2) return null;
    const content = this.bare.filter((t) => !(t.length === 1 && isStopWord(t[0]!)));
    const words = (content.length ? content : this.bare).map((t) => quote(t));
    const bareSet = new Set(this.bare.map((t) => quote(t)));
    const required = this.positive.filter((p) => !bareSet.has(p));
    return [...required, `(${words.join(' OR ')})`].join(' AND ');
  }
}

export function compileQuery(query: Query, vocab: Vocabulary, extras: CompileExtras = {}): CompiledQuery {
  const c = new Compiler(vocab);
  for (const clause of query.clauses) c.clause(clause);
  // Only words without letters or digits ("!!!", an emoji): nothing to search for, unlike a lone *.
  const nothingToMatch = !query.matchAll && !c.positive.length && !c.negative.length && !c.where.length;
  if (extras.dateFrom !== undefined) {
    c.where.push('d.updated_at >= ?');
    c.params.push(extras.dateFrom);
  }
  if (extras.dateTo !== undefined) {
    c.where.push('d.updated_at < ?');
    c.params.push(extras.dateTo + DAY_MS);
  }
  const words = c.bare.flat();
  return {
    fts: c.positive.length ? c.positive.join(' AND ') : null,
    partialFts: c.partial(),
    negFts: c.negative.length ? c.negative.join(' OR ') : null,
    where: c.where,
    params: c.params,
    phrase: c.bare.length >= 2 ? words : null,
    bareWords: words,
    highlight: [...c.highlight],
    impossible: c.impossible || nothingToMatch,
  };
}

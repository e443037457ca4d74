// The query language's syntax tree: what a query means, free of any storage syntax.

/** Fields matched against the full-text index. */
export type TextField = 'title' | 'text' | 'url';
/** Fields matched exactly (case-insensitive) against document attributes. */
export type KeywordField = 'domain' | 'label' | 'language' | 'type' | 'metadata';
export type DateField = 'added' | 'updated';
export type Wildcard = 'none' | 'prefix' | 'suffix' | 'infix';

export interface TermValue {
  type: 'term';
  /** The word as typed, without its wildcard stars. */
  text: string;
  wildcard: Wildcard;
}

export interface PhraseValue {
  type: 'phrase';
  text: string;
}

export type Atom = TermValue | PhraseValue;

interface ClauseBase {
  negated: boolean;
  /** Character offsets of the clause in the query string. */
  start: number;
  end: number;
}

/** Full-text condition: any of `options` must occur (in `field`, or in any text column when null). */
export interface MatchClause extends ClauseBase {
  kind: 'match';
  field: TextField | null;
  options: Atom[];
}

/** Attribute condition: the attribute equals (or wildcard-matches) any of `options`. */
export interface KeywordClause extends ClauseBase {
  kind: 'keyword';
  field: KeywordField;
  /** Metadata key for `metadata.KEY:` clauses. */
  key?: string;
  options: Atom[];
}

export type Comparison = '<' | '<=' | '>' | '>=' | '=';

/** Time condition on added/updated, in epoch milliseconds; '=' means the half-open range [from, to). */
export interface DateClause extends ClauseBase {
  kind: 'date';
  field: DateField;
  op: Comparison;
  from: number;
  to?: number;
}

export type Clause = MatchClause | KeywordClause | DateClause;

export type SortKey = 'relevance' | 'date' | 'domain';

export interface Sort {
  key: SortKey;
  reverse: boolean;
}

export interface Query {
  clauses: Clause[];
  sort: Sort;
  /** True when the query holds a lone `*` (matches everything the other clauses allow). */
  matchAll: boolean;
}

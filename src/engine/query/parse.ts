import { TroveError } from '../../errors.js';
import type { Atom, Clause, Comparison, DateField, KeywordField, Query, Sort, TermValue, TextField } from './ast.js';
import { parseTimeValue } from './time.js';

export const MAX_QUERY_LENGTH = 4096;
export const MAX_CLAUSES = 128;
const MAX_OPTIONS = 64;

const TEXT_FIELDS = new Set<TextField>(['title', 'text', 'url']);
const KEYWORD_FIELDS = new Set<KeywordField>(['domain', 'label', 'language', 'type']);
const DATE_FIELDS = new Set<DateField>(['added', 'updated']);
const TYPES = new Set(['web', 'local', 'memory']);
const SORT_KEYS = new Set(['relevance', 'date', 'domain']);
const FIELD_PREFIX = /^(metadata\.[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*|[A-Za-z]+):/i;

export function queryError(message: string, position: number): TroveError {
  return new TroveError('INVALID_QUERY', `${message} at position ${position}`, { position });
}

/** Parses Hister's query language into a syntax tree; every malformed input is INVALID_QUERY with a position. */
export function parseQuery(input: string, now: number = Date.now()): Query {
  if (input.length > MAX_QUERY_LENGTH) throw queryError(`query longer than ${MAX_QUERY_LENGTH} characters`, MAX_QUERY_LENGTH);
  return new Parser(input, now).parse();
}

class Parser {
  private pos = 0;
  private readonly src: string;
  private readonly clauses: Clause[] = [];
  private sort: Sort = { key: 'relevance', reverse: false };
  private sorted = false;
  private matchAll = false;

  constructor(input: string, private readonly now: number) {
    // Control characters act as spaces; same length keeps positions exact.
    this.src = input.replace(/[\u0000-\u001f\u007f]/g, ' ');
  }

  parse(): Query {
    for (;;) {
      this.skipSpace();
      if (this.pos >= this.src.length) break;
      this.clause();
      if (this.clauses.length > MAX_CLAUSES) throw queryError(`more than ${MAX_CLAUSES} terms`, this.clauses.at(-1)!.start);
    }
    // A query of sort directives alone lists everything in that order.
    if (this.clauses.length === 0 && this.sorted) this.matchAll = true;
    if (this.clauses.length === 0 && !this.matchAll) throw queryError('empty query (use * to match everything)', 0);
    return { clauses: this.clauses, sort: this.sort, matchAll: this.matchAll };
  }

  private skipSpace(): void {
    while (this.pos < this.src.length && /\s/.test(this.src[this.pos]!)) this.pos++;
  }

  private atEndOfWord(): boolean {
    return this.pos >= this.src.length || /\s/.test(this.src[this.pos]!);
  }

  private clause(): void {
    const start = this.pos;
    let negated = false;
    if (this.src[this.pos] === '-') {
      negated = true;
      this.pos++;
      if (this.atEndOfWord()) throw queryError("'-' must be followed by what to exclude", start);
    }
    const ch = this.src[this.pos];
    if (ch === '"') return this.push({ kind: 'match', field: null, options: [this.phrase()], negated, start, end: this.pos });
    if (ch === '(') return this.push({ kind: 'match', field: null, options: this.group(), negated, start, end: this.pos });
    if (ch === ')' || ch === '|') throw queryError(`unexpected '${ch}'`, this.pos);
    const field = FIELD_PREFIX.exec(this.src.slice(this.pos, this.pos + 200));
    if (field) {
      const name = field[1]!.toLowerCase();
      if (this.isField(name)) {
        this.pos += field[0].length;
        return this.fielded(name, field[1]!, negated, start);
      }
    }
    const word = this.word();
    if (word.wildcard === 'all') {
      if (negated) throw queryError("'-*' would exclude everything", start);
      this.matchAll = true;
      return;
    }
    this.push({ kind: 'match', field: null, options: [word], negated, start, end: this.pos });
  }

  private isField(name: string): boolean {
    return name === 'sort' || name.startsWith('metadata.') || TEXT_FIELDS.has(name as TextField) || KEYWORD_FIELDS.has(name as KeywordField) || DATE_FIELDS.has(name as DateField);
  }

  private push(clause: Clause): void {
    this.clauses.push(clause);
  }

  private fielded(name: string, rawName: string, negatedBefore: boolean, start: number): void {
    const valueStart = this.pos;
    if (name === 'sort') return this.sortDirective(negatedBefore, start, valueStart);
    let negated = negatedBefore;
    if (this.src[this.pos] === '-') {
      if (negatedBefore) throw queryError('double negation', this.pos);
      negated = true;
      this.pos++;
    }
    if (this.atEndOfWord()) throw queryError(`missing value after '${rawName}:'`, this.pos);
    if (DATE_FIELDS.has(name as DateField)) return this.dateClause(name as DateField, negated, start);
    const ch = this.src[this.pos];
    const options = ch === '"' ? [this.phrase()] : ch === '(' ? this.group() : [this.valueWord()];
    const end = this.pos;
    if (TEXT_FIELDS.has(name as TextField)) return this.push({ kind: 'match', field: name as TextField, options, negated, start, end });
    if (name.startsWith('metadata.')) return this.push({ kind: 'keyword', field: 'metadata', key: rawName.slice('metadata.'.length), options, negated, start, end });
    if (name === 'type') this.checkTypes(options, valueStart);
    this.push({ kind: 'keyword', field: name as KeywordField, options, negated, start, end });
  }

  private checkTypes(options: Atom[], at: number): void {
    for (const o of options) {
      if (o.type !== 'term' || o.wildcard !== 'none' || !TYPES.has(o.text.toLowerCase())) {
        throw queryError(`type must be web, local or memory, not '${o.text}'`, at);
      }
    }
  }

  private sortDirective(negated: boolean, start: number, valueStart: number): void {
    if (negated) throw queryError("sort cannot be negated; write sort:-date to reverse", start);
    const raw = this.rawWord();
    const reverse = raw.startsWith('-');
    const key = (reverse ? raw.slice(1) : raw).toLowerCase();
    if (!SORT_KEYS.has(key)) throw queryError(`sort must be relevance, date or domain, not '${raw}'`, valueStart);
    this.sort = { key: key as Sort['key'], reverse };
    this.sorted = true;
  }

  private dateClause(field: DateField, negated: boolean, start: number): void {
    const at = this.pos;
    const raw = this.rawWord();
    const m = /^(<=|>=|<|>)?(.+)$/.exec(raw);
    const op = (m?.[1] ?? '=') as Comparison;
    const range = m?.[2] ? parseTimeValue(m[2], this.now) : undefined;
    if (!range) throw queryError(`${field} expects a date YYYY-MM-DD or an age like 90d, 12h, 2w, 30m, optionally after < <= > >=`, at);
    // A bare age means "within": added:7d is added:>=7d.
    const effective: Comparison = op === '=' && range.until === undefined ? '>=' : op;
    const clause: Clause = { kind: 'date', field, op: effective, from: range.at, negated, start, end: this.pos };
    if (effective === '=') clause.to = range.until;
    this.push(clause);
  }

  private rawWord(): string {
    const begin = this.pos;
    while (!this.atEndOfWord()) this.pos++;
    return this.src.slice(begin, this.pos);
  }

  private phrase(): Atom {
    const open = this.pos;
    const close = this.src.indexOf('"', open + 1);
    if (close < 0) throw queryError('unterminated quote', open);
    const text = this.src.slice(open + 1, close);
    if (!text.trim()) throw queryError('empty phrase', open);
    this.pos = close + 1;
    return { type: 'phrase', text };
  }

  /** `(a|b|"c d")`: alternatives, spaces allowed around the bars. */
  private group(): Atom[] {
    const open = this.pos;
    this.pos++;
    const options: Atom[] = [];
    for (;;) {
      this.skipSpace();
      if (this.pos >= this.src.length) throw queryError("unclosed '('", open);
      const ch = this.src[this.pos];
      if (ch === ')' || ch === '|') throw queryError(options.length ? "empty alternative after '|'" : "empty group '()'", this.pos);
      if (ch === '(') throw queryError('groups cannot be nested', this.pos);
      options.push(ch === '"' ? this.phrase() : this.groupWord());
      if (options.length > MAX_OPTIONS) throw queryError(`more than ${MAX_OPTIONS} alternatives`, this.pos);
      this.skipSpace();
      const next = this.src[this.pos];
      if (next === ')') {
        this.pos++;
        return options;
      }
      if (next !== '|') throw queryError(next === undefined ? "unclosed '('" : "expected '|' or ')'", next === undefined ? open : this.pos);
      this.pos++;
    }
  }

  private groupWord(): TermValue {
    const begin = this.pos;
    while (this.pos < this.src.length && !/[\s|()"]/.test(this.src[this.pos]!)) this.pos++;
    return this.toTerm(this.src.slice(begin, this.pos), begin, false);
  }

  private valueWord(): TermValue {
    const begin = this.pos;
    return this.toTerm(this.rawWord(), begin, false);
  }

  private word(): TermValue | { wildcard: 'all' } {
    const begin = this.pos;
    const raw = this.rawWord();
    if (/^\*+$/.test(raw)) return { wildcard: 'all' };
    return this.toTerm(raw, begin, true);
  }

  private toTerm(raw: string, at: number, bare: boolean): TermValue {
    if (/^\*+$/.test(raw)) throw queryError(bare ? "a lone '*' cannot be combined here" : "a field value cannot be only '*'", at);
    const lead = raw.startsWith('*');
    const trail = raw.endsWith('*');
    const core = raw.slice(lead ? 1 : 0, trail ? raw.length - 1 : raw.length);
    const inner = core.indexOf('*');
    if (inner >= 0) throw queryError("'*' goes only at the start or end of a term", at + (lead ? 1 : 0) + inner);
    const wildcard = lead && trail ? 'infix' : lead ? 'suffix' : trail ? 'prefix' : 'none';
    return { type: 'term', text: core, wildcard };
  }
}

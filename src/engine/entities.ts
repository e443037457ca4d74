// Entities in text without a model: emails, URLs, hashtags, dates, and names of people, organisations and places.
// One pass of one precompiled regex (emails: only around each '@'); every quantifier that can run long is bounded,
// so hostile input stays linear.
import { canonicalDate, MONTH_SOURCE, monthNumber } from './entities/dates.js';
import { namesInRun, type NameMention } from './entities/names.js';

export type EntityKind = 'person' | 'organization' | 'place' | 'email' | 'url' | 'hashtag' | 'date' | 'topic';

export interface EntityMention {
  kind: EntityKind;
  /** Canonical name: the same entity written differently gets the same name. */
  name: string;
  count: number;
}

const NOT_BEFORE_WORD = '(?<![\\p{L}\\p{N}_])';
const URL_SOURCE = `(?<url>(?<![\\p{L}\\p{N}_@.])(?:[Hh][Tt][Tt][Pp][Ss]?://|www\\.)[^\\s<>"'\`{}|\\\\^\\[\\]]{1,2000})`;
// Emails are looked for only around each '@' (EMAIL_AT is sticky, tried where the local part starts).
const EMAIL_AT = /[A-Za-z0-9._%+-]{1,64}@(?:[A-Za-z0-9-]{1,63}\.){1,8}[A-Za-z]{2,24}(?![\p{L}\p{N}_-])/uy;
const LOCAL_CHAR = /[A-Za-z0-9._%+-]/;
const HASHTAG_SOURCE = '(?<tag>(?<![\\p{L}\\p{N}_&#/])#(?=[\\p{N}_]{0,99}\\p{L})[\\p{L}\\p{N}_]{1,100}(?![\\p{L}\\p{N}_]))';
const ORDINAL = '(?:st|nd|rd|th)?';
const GAP = '[ \\t]{1,3}';
// Few capture groups on purpose: every group costs on every match; dateOf reads the parts back from the text.
const ISO_SOURCE = '(?<![\\p{N}.\\-/])\\d{4}(?:-\\d{1,2}-|/\\d{1,2}/)\\d{1,2}(?![\\p{N}]|[-/]\\d)';
const DMY_SOURCE = `(?<![\\p{N}])\\d{1,2}${ORDINAL}${GAP}(?:of${GAP})?${MONTH_SOURCE}\\.?,?${GAP}\\d{4}(?!\\p{N})`;
const MDY_SOURCE = `${NOT_BEFORE_WORD}${MONTH_SOURCE}\\.?${GAP}\\d{1,2}${ORDINAL},?${GAP}\\d{4}(?!\\p{N})`;
const DATE_SOURCE = `(?<date>${ISO_SOURCE}|${DMY_SOURCE}|${MDY_SOURCE})`;

const SUFFIX = '(?:Inc|INC|Ltd|LTD|LLC|LLP|GmbH|Corp|CORP|Co|CO|plc|PLC|AG|SA|BV|NV|AB|Pty)\\.?(?![\\p{L}\\p{N}])';
// A capitalised word; never the scheme of a URL ("HTTPS://"), which the URL alternative takes.
const CAP_WORD = "\\p{Lu}[\\p{L}\\p{M}\\p{N}]*(?:['’\\-][\\p{L}\\p{M}\\p{N}]+)*(?![\\p{L}\\p{M}\\p{N}]|://)";
const PARTICLE = '(?:of|de|van|von|der|den|la|le|du|del|da|di|dos|das|bin|al|y)';
const JOIN = `(?:${GAP}(?:${PARTICLE}${GAP}|&${GAP})?|,[ \\t]{0,2}(?=${SUFFIX}))`;
const HONORIFIC = '(?:Mr|Mrs|Ms|Mx|Miss|Dr|Prof|Professor|Sir|Dame|Rev)';
const RUN_SOURCE = `${NOT_BEFORE_WORD}(?:(?<hon>${HONORIFIC})\\.?${GAP})?(?<run>${CAP_WORD}(?:${JOIN}${CAP_WORD}){0,7})`;

// The leading lookahead lets the engine skip positions no alternative can start at.
const SCAN = new RegExp(
  `(?=[\\p{Lu}\\p{N}#hw])(?:${[URL_SOURCE, HASHTAG_SOURCE, DATE_SOURCE, RUN_SOURCE].join('|')})`,
  'gu',
);
const URL_TRAILER = /[.,;:!?'"*_)\]}>]+$/u;

/** Canonical URL: lower-case scheme and host, no credentials, no fragment, no trailing slash; null if unparsable. */
export function canonicalUrl(raw: string): string | null {
  let text = raw.replace(URL_TRAILER, (tail) => {
    const opens = raw.split('(').length - 1;
    const closes = raw.split(')').length - 1 - (tail.split(')').length - 1);
    return tail.startsWith(')') && opens > closes ? ')' : '';
  });
  if (/^www\./i.test(text)) text = `https://${text}`;
  try {
    const url = new URL(text);
    if (!url.hostname.includes('.') && url.hostname !== 'localhost') return null;
    const path = url.pathname.replace(/\/+$/, '');
    return `${url.protocol}//${url.host}${path}${url.search}`;
  } catch {
    return null;
  }
}

interface Tally {
  kind: EntityKind;
  name: string;
  count: number;
  first: number;
  strong: boolean;
}

type Groups = Record<string, string | undefined>;

/** YYYY-MM-DD for a matched date: numbers are year, month, day (ISO) or day, year around a month name. */
function dateOf(text: string): string | null {
  const [a = 0, b = 0, c = 0] = (text.match(/\d+/g) ?? []).map(Number);
  const month = /\p{Lu}\p{Ll}+/u.exec(text)?.[0];
  return month ? canonicalDate(b, monthNumber(month), a) : canonicalDate(a, b, c);
}

function mentionsAt(text: string, m: RegExpExecArray): NameMention[] | { kind: EntityKind; name: string | null } {
  const g = m.groups as Groups;
  if (g.url) return { kind: 'url', name: canonicalUrl(g.url) };
  if (g.tag) return { kind: 'hashtag', name: g.tag.toLowerCase() };
  // The run ends the match, after any honorific.
  if (g.run) return namesInRun(text, g.run, m.index + m[0].length - g.run.length, Boolean(g.hon));
  return { kind: 'date', name: dateOf(g.date!) };
}

function add(tallies: Map<string, Tally>, kind: EntityKind, name: string, at: number, strong: boolean): void {
  const key = `${kind}\u0000${name}`;
  const t = tallies.get(key);
  if (t) {
    t.count++;
    t.strong ||= strong;
  } else tallies.set(key, { kind, name, count: 1, first: at, strong });
}

/** Folds "Alice" into "Alice Smith" and "Acme" into "Acme Inc" when the text names exactly one such entity. */
function mergeAliases(tallies: Tally[]): Tally[] {
  const multi = tallies.filter((t) => (t.kind === 'person' || t.kind === 'organization') && t.name.includes(' '));
  return tallies.filter((t) => {
    if ((t.kind !== 'person' && t.kind !== 'organization') || t.name.includes(' ')) return true;
    const owners = multi.filter((m) => {
      if (m.kind !== t.kind) return false;
      const words = m.name.split(' ');
      return words[0] === t.name || (t.kind === 'person' && words[words.length - 1] === t.name);
    });
    if (owners.length !== 1) return true;
    owners[0]!.count += t.count;
    owners[0]!.first = Math.min(owners[0]!.first, t.first);
    return false;
  });
}

/** Each email address with where it starts and ends, found around each '@'. */
function emails(text: string): Array<{ start: number; end: number; email: string }> {
  const out: Array<{ start: number; end: number; email: string }> = [];
  let floor = 0;
  for (let at = text.indexOf('@'); at > 0; at = text.indexOf('@', at + 1)) {
    let start = at;
    while (start > Math.max(floor, at - 64) && LOCAL_CHAR.test(text[start - 1]!)) start--;
    if (start === at || (start > 0 && /[\p{L}\p{N}_]/u.test(text[start - 1]!))) continue;
    EMAIL_AT.lastIndex = start;
    const m = EMAIL_AT.exec(text);
    if (!m) continue;
    floor = start + m[0].length;
    out.push({ start, end: floor, email: m[0].toLowerCase() });
  }
  return out;
}

/** Entities mentioned in `text`, each once with its canonical name and mention count, most mentioned first. */
export function extractEntities(text: string): EntityMention[] {
  const tallies = new Map<string, Tally>();
  const addresses = emails(text);
  const inUrl = new Set<number>();
  let next = 0;
  for (const m of text.matchAll(SCAN)) {
    const end = m.index + m[0].length;
    while (next < addresses.length && addresses[next]!.end <= m.index) next++;
    const email = addresses[next];
    if (email && email.start < end) {
      // A URL that holds an address (user@host) wins; anything else inside an address is part of it.
      if (m.groups!.url === undefined) continue;
      for (let i = next; i < addresses.length && addresses[i]!.start < end; i++) inUrl.add(i);
    }
    const found = mentionsAt(text, m);
    if (Array.isArray(found)) for (const n of found) add(tallies, n.kind, n.name, m.index, !n.weak);
    else if (found.name) add(tallies, found.kind, found.name, m.index, true);
  }
  addresses.forEach((a, i) => inUrl.has(i) || add(tallies, 'email', a.email, a.start, true));
  const kept = mergeAliases([...tallies.values()].filter((t) => t.strong || t.count > 1));
  kept.sort((a, b) => b.count - a.count || a.first - b.first);
  return kept.map(({ kind, name, count }) => ({ kind, name, count }));
}

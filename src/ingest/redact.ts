import { BUILTIN_REDACTIONS } from '../config/schema.js';
import { compileUserRegex } from '../util/regex.js';

// Secrets are replaced by a fixed marker before anything is stored or indexed. Pure functions.
// Every built-in runs in time linear in the text (bounded quantifiers), so a hostile page cannot stall ingest.

export type BuiltinRedaction = (typeof BUILTIN_REDACTIONS)[number];

type Span = [start: number, end: number];

interface Detector {
  /** Marker label: [REDACTED:<label>]. */
  label: string;
  /** Non-overlapping spans to replace, in order. */
  find(text: string): Span[];
}

export interface Redactor {
  readonly detectors: readonly Detector[];
  /** Whether a URL's password is replaced (the url-password detector is on). */
  readonly urlPasswords: boolean;
}

/** Spans of a global regex with indices; a named group `secret`, when it matched, is the only part replaced. */
function regexDetector(label: string, regex: RegExp): Detector {
  return {
    label,
    find(text) {
      const spans: Span[] = [];
      regex.lastIndex = 0;
      for (let m = regex.exec(text); m !== null; m = regex.exec(text)) {
        if (m[0] === '') regex.lastIndex++;
        else spans.push(m.indices!.groups?.secret ?? m.indices![0]!);
      }
      return spans;
    },
  };
}

const KEY_BEGIN = /-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----/g;
const KEY_END = /-----END[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----/g;
/** Far longer than any real key; an END further away belongs to something else. */
const MAX_KEY_BLOCK = 65_536;
/** The body of a block whose END is missing (truncated paste): base64 and PEM header characters, and <br> line breaks. */
const KEY_BODY = /(?:[A-Za-z0-9+/=\s:,-]|<br\s*\/?>)*/iy;

/** PEM/PGP private key blocks, BEGIN to END. The next END is searched once per END, not once per BEGIN. */
const privateKeys: Detector = {
  label: 'private-key',
  find(text) {
    const spans: Span[] = [];
    let end: RegExpExecArray | null | undefined;
    KEY_BEGIN.lastIndex = 0;
    for (let m = KEY_BEGIN.exec(text); m !== null; m = KEY_BEGIN.exec(text)) {
      if (end !== null && (end === undefined || end.index < KEY_BEGIN.lastIndex)) {
        KEY_END.lastIndex = KEY_BEGIN.lastIndex;
        end = KEY_END.exec(text);
      }
      let stop: number;
      if (end && end.index - m.index <= MAX_KEY_BLOCK) stop = end.index + end[0].length;
      else {
        KEY_BODY.lastIndex = KEY_BEGIN.lastIndex;
        KEY_BODY.exec(text);
        stop = KEY_BODY.lastIndex;
      }
      spans.push([m.index, stop]);
      KEY_BEGIN.lastIndex = stop;
    }
    return spans;
  },
};

const rx = (source: string, flags = '') => new RegExp(source, `gd${flags}`);

export const URL_PASSWORD = String.raw`\b[a-z][a-z0-9+.-]{0,30}://[^\s/?#@:"'<>]{0,256}:(?<secret>[^\s/?#@"'<>]{1,256})@`;
const URL_PASSWORD_AT = rx(URL_PASSWORD, 'iy');
/** The longest scheme URL_PASSWORD accepts: a match starts at most this far before its "://". */
const MAX_SCHEME = 31;

/**
 * Passwords in URLs: the spans a global scan of URL_PASSWORD finds, found faster. The regex is tried only
 * at the few places a match can start, just before each "://" (a scheme cannot hold ":", so the "://" a
 * match uses is the first one after its start, and matches come in the order of their "://"), instead of
 * at every word of the page: raw HTML is mostly words.
 */
const urlPasswords: Detector = {
  label: 'url-password',
  find(text) {
    const spans: Span[] = [];
    let from = 0;
    for (let sep = text.indexOf('://'); sep >= 0; sep = text.indexOf('://', Math.max(from, sep + 1))) {
      for (let start = Math.max(from, sep - MAX_SCHEME); start < sep; start++) {
        URL_PASSWORD_AT.lastIndex = start;
        const m = URL_PASSWORD_AT.exec(text);
        if (!m) continue;
        spans.push(m.indices!.groups!.secret!);
        from = URL_PASSWORD_AT.lastIndex;
        break;
      }
    }
    return spans;
  },
};

function builtinDetectors(kind: BuiltinRedaction): Detector[] {
  switch (kind) {
    case 'private-key':
      return [privateKeys];
    case 'aws':
      return [
        regexDetector('aws-access-key', rx(String.raw`\b(?:AKIA|ASIA)[A-Z0-9]{16}\b`)),
        regexDetector('aws-secret-key', rx(String.raw`(?:(?:aws[_-]?)?secret[_-]?access[_-]?key|aws[_-]?secret[_-]?key)["']?\s{0,8}(?:[:=]|=>)\s{0,8}["']?(?<secret>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])`, 'i')),
      ];
    case 'github':
      return [regexDetector('github-token', rx(String.raw`\b(?:gh[pousr]_[A-Za-z0-9]{30,255}|github_pat_[A-Za-z0-9_]{22,255})\b`))];
    case 'gitlab':
      return [regexDetector('gitlab-token', rx(String.raw`\bgl(?:pat|dt|rt|ptt|soat|cbt)-[A-Za-z0-9_-]{20,255}`))];
    case 'slack':
      return [regexDetector('slack-token', rx(String.raw`\bxox[abprs]-[A-Za-z0-9-]{10,255}`))];
    case 'openai':
      // sk-, sk-proj-, sk-svcacct-, sk-ant-...: 20 or more characters with a digit among them, so hyphenated words do not match.
      return [regexDetector('api-key', rx(String.raw`\bsk-(?=[A-Za-z0-9_-]{0,254}\d)[A-Za-z0-9_-]{20,255}`))];
    case 'url-password':
      return [urlPasswords];
  }
}

/** Compiles the enabled built-ins and the user's patterns (already validated when the config was loaded). */
export function createRedactor(builtins: readonly string[], patterns: readonly string[]): Redactor {
  const detectors = BUILTIN_REDACTIONS.filter((kind) => builtins.includes(kind)).flatMap(builtinDetectors);
  for (const pattern of patterns) detectors.push(regexDetector('custom', compileUserRegex(pattern, 'gd')));
  return { detectors, urlPasswords: builtins.includes('url-password') };
}

export function marker(label: string): string {
  return `[REDACTED:${label}]`;
}

function apply(text: string, detector: Detector): string {
  const spans = detector.find(text);
  if (spans.length === 0) return text;
  let out = '';
  let done = 0;
  for (const [start, end] of spans) {
    out += text.slice(done, start) + marker(detector.label);
    done = end;
  }
  return out + text.slice(done);
}

/** The text with every detected secret replaced by [REDACTED:<kind>]; the same input always gives the same output. */
export function redactText(r: Redactor, text: string): string {
  let out = text;
  for (const d of r.detectors) out = apply(out, d);
  return out;
}

/** A URL with its password replaced by REDACTED (so it stays a valid URL) and other secrets redacted as in text. */
export function redactUrl(r: Redactor, href: string): string {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return redactText(r, href);
  }
  if (r.urlPasswords && url.password) url.password = 'REDACTED';
  let out = url.href;
  for (const d of r.detectors) if (d.label !== 'url-password') out = apply(out, d);
  return out;
}

/** Strings anywhere inside plain data (metadata, JSON-LD) redacted; other values kept. */
export function redactDeep(r: Redactor, value: unknown): unknown {
  if (typeof value === 'string') return redactText(r, value);
  if (Array.isArray(value)) return value.map((v) => redactDeep(r, v));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, redactDeep(r, v)]));
  }
  return value;
}

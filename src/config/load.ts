import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { TroveError } from '../errors.js';
import { compileUserRegex } from '../util/regex.js';
import { CONFIG_SCHEMA, type FieldSpec, type KeySpec, type TroveConfig, type TroveSettings, allKeys, envName, keySpec, sectionNames } from './schema.js';

export interface ConfigSources {
  /** --config flag. */
  configPath?: string | undefined;
  /** --data-dir flag. */
  dataDir?: string | undefined;
  /** --set section.key=value flags and command-specific flags, applied last. */
  overrides?: Record<string, string> | undefined;
  env?: NodeJS.ProcessEnv;
}

export function defaultConfigPath(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config');
  return join(base, 'trove', 'config.toml');
}

export function defaultDataDir(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_DATA_HOME || join(env.HOME || homedir(), '.local', 'share');
  return join(base, 'trove');
}

function configError(key: string, message: string): TroveError {
  return new TroveError('INVALID_CONFIG', `config ${key}: ${message}`, { key });
}

function parseTextList(name: string, raw: string): unknown {
  const text = raw.trim();
  if (!text.startsWith('[')) return text ? text.split(',').map((w) => w.trim()).filter(Boolean) : [];
  try {
    return JSON.parse(text);
  } catch {
    throw configError(name, 'expected a JSON array');
  }
}

function coerceStrings(name: string, spec: Extract<KeySpec, { type: 'strings' }>, raw: unknown): string[] {
  if (!Array.isArray(raw) || raw.some((v) => typeof v !== 'string')) throw configError(name, 'expected a list of strings');
  (raw as string[]).forEach((item, i) => checkItem(`${name}[${i}]`, spec, item));
  return raw as string[];
}

function checkItem(name: string, spec: Extract<KeySpec, { type: 'strings' }>, item: string): void {
  if (spec.values && !spec.values.includes(item)) throw configError(name, `expected one of ${spec.values.join(', ')}, got ${JSON.stringify(item)}`);
  if (spec.pattern && !spec.pattern.test(item)) throw configError(name, `expected ${spec.patternDoc ?? spec.pattern.source}, got ${JSON.stringify(item)}`);
  if (spec.regex) {
    try {
      compileUserRegex(item);
    } catch (err) {
      throw configError(name, `not a valid regular expression ${JSON.stringify(item)}: ${(err as Error).message}`);
    }
  }
}

function coerceTables(name: string, fields: Record<string, FieldSpec>, raw: unknown): Array<Record<string, unknown>> {
  if (!Array.isArray(raw)) throw configError(name, 'expected a list of tables');
  return raw.map((entry, i) => {
    const at = `${name}[${i}]`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw configError(at, 'expected a table');
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(entry)) if (!fields[key]) throw configError(`${at}.${key}`, 'unknown key');
    for (const [key, field] of Object.entries(fields)) {
      const value = (entry as Record<string, unknown>)[key];
      if (value === undefined && field.required) throw configError(`${at}.${key}`, 'missing');
      out[key] = value === undefined ? field.default : coerceValue(`${at}.${key}`, field, value, false);
    }
    return out;
  });
}

type ConfigValue = string | number | boolean | string[] | Array<Record<string, unknown>>;

/** Checks a value already typed (TOML) or given as text (env, flags) against its spec. */
export function coerceValue(name: string, spec: KeySpec, raw: unknown, fromText: boolean): ConfigValue {
  switch (spec.type) {
    case 'strings':
      return coerceStrings(name, spec, fromText && typeof raw === 'string' ? parseTextList(name, raw) : raw);
    case 'tables':
      return coerceTables(name, spec.fields, fromText && typeof raw === 'string' ? parseTextList(name, raw) : raw);
    case 'string': {
      if (typeof raw !== 'string') throw configError(name, `expected a string, got ${typeof raw}`);
      if (spec.pattern && !spec.pattern.test(raw)) throw configError(name, `expected ${spec.patternDoc ?? spec.pattern.source}, got ${JSON.stringify(raw)}`);
      return raw;
    }
    case 'enum': {
      if (typeof raw !== 'string' || !spec.values.includes(raw)) throw configError(name, `expected one of ${spec.values.join(', ')}, got ${JSON.stringify(raw)}`);
      return raw;
    }
    case 'boolean': {
      if (typeof raw === 'boolean') return raw;
      if (fromText && typeof raw === 'string') {
        const v = raw.trim().toLowerCase();
        if (['true', '1', 'yes', 'on'].includes(v)) return true;
        if (['false', '0', 'no', 'off'].includes(v)) return false;
      }
      throw configError(name, `expected true or false, got ${JSON.stringify(raw)}`);
    }
    case 'integer':
    case 'number': {
      let n: number;
      if (typeof raw === 'number') n = raw;
      else if (typeof raw === 'bigint') n = Number(raw);
      else if (fromText && typeof raw === 'string' && raw.trim() !== '' && Number.isFinite(Number(raw))) n = Number(raw);
      else throw configError(name, `expected a number, got ${JSON.stringify(raw)}`);
      if (spec.type === 'integer' && !Number.isInteger(n)) throw configError(name, `expected a whole number, got ${n}`);
      if (n < spec.min || n > spec.max) throw configError(name, `expected ${spec.min}..${spec.max}, got ${n}`);
      return n;
    }
  }
}

function defaults(): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const { section, key, spec } of allKeys()) (out[section] ??= {})[key] = spec.default;
  return out;
}

function readConfigFile(path: string, explicit: boolean): Record<string, unknown> | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if ((code === 'ENOENT' || code === 'ENOTDIR') && !explicit) return undefined;
    throw new TroveError('INVALID_CONFIG', `cannot read config file ${path}: ${code ?? 'error'}`, { key: 'config' });
  }
  try {
    return parseToml(text) as Record<string, unknown>;
  } catch (err) {
    const e = err as { line?: number; column?: number; message?: string };
    const where = e.line ? ` at line ${e.line}, column ${e.column ?? 0}` : '';
    throw new TroveError('INVALID_CONFIG', `config file ${path} is not valid TOML${where}`, { key: 'config', line: e.line, column: e.column });
  }
}

function applyFile(target: Record<string, Record<string, unknown>>, file: Record<string, unknown>): void {
  for (const [section, table] of Object.entries(file)) {
    if (!sectionNames().includes(section)) throw configError(section, 'unknown section');
    if (typeof table !== 'object' || table === null || Array.isArray(table)) throw configError(section, 'expected a [section] table');
    for (const [key, value] of Object.entries(table)) {
      const spec = keySpec(section, key);
      if (!spec) throw configError(`${section}.${key}`, 'unknown key');
      target[section]![key] = coerceValue(`${section}.${key}`, spec, value, false);
    }
  }
}

function applyEnv(target: Record<string, Record<string, unknown>>, env: NodeJS.ProcessEnv): void {
  const known = new Map(allKeys().map((k) => [envName(k.section, k.key), k]));
  const prefixes = sectionNames().map((s) => `TROVE_${s.toUpperCase()}_`);
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || !name.startsWith('TROVE_')) continue;
    const entry = known.get(name);
    if (entry) {
      target[entry.section]![entry.key] = coerceValue(name, entry.spec, value, true);
    } else if (prefixes.some((p) => name.startsWith(p))) {
      throw configError(name, 'unknown setting (environment variable)');
    }
  }
}

function applyOverrides(target: Record<string, Record<string, unknown>>, overrides: Record<string, string>): void {
  for (const [dotted, value] of Object.entries(overrides)) {
    const [section, key, ...rest] = dotted.split('.');
    const spec = section && key && rest.length === 0 ? keySpec(section, key) : undefined;
    if (!spec || !section || !key) throw configError(dotted, 'unknown key');
    target[section]![key] = coerceValue(dotted, spec, value, true);
  }
}

/** Builds the one validated config: defaults < file < TROVE_* env < flags. */
export function loadConfig(sources: ConfigSources = {}): TroveConfig {
  const env = sources.env ?? process.env;
  const explicit = sources.configPath ?? env.TROVE_CONFIG;
  const configFile = explicit ? resolve(explicit) : defaultConfigPath(env);
  const values = defaults();
  const file = readConfigFile(configFile, Boolean(explicit));
  if (file) applyFile(values, file);
  applyEnv(values, env);
  applyOverrides(values, sources.overrides ?? {});
  const dataDir = resolve(sources.dataDir ?? env.TROVE_DATA_DIR ?? defaultDataDir(env));
  return { ...(values as unknown as TroveSettings), dataDir, configFile: file ? configFile : undefined };
}

/** The config as `config show` prints it: secrets masked. */
export function describeConfig(config: TroveConfig): Record<string, unknown> {
  const out: Record<string, unknown> = { data_dir: config.dataDir, config_file: config.configFile ?? null };
  for (const [section, keys] of Object.entries(CONFIG_SCHEMA as Record<string, Record<string, KeySpec>>)) {
    const sec: Record<string, unknown> = {};
    for (const [key, spec] of Object.entries(keys)) {
      const value = (config as unknown as Record<string, Record<string, unknown>>)[section]![key];
      const secret = (spec.type === 'string' || spec.type === 'strings') && spec.secret;
      sec[key] = secret && (Array.isArray(value) ? value.length : value) ? '********' : value;
    }
    out[section] = sec;
  }
  return out;
}

import { type App, createApp } from '../app.js';
import { loadConfig } from '../config/load.js';
import type { TroveConfig } from '../config/schema.js';
import { TroveError, toPublicError } from '../errors.js';
import { failureText } from '../http/server.js';
import { type LogLevel, createLogger } from '../log.js';

export interface GlobalOptions {
  dataDir?: string;
  config?: string;
  set?: string[];
  verbose?: boolean;
  json?: boolean;
}

function parseSets(sets: string[] | undefined, extra: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const s of sets ?? []) {
    const eq = s.indexOf('=');
    if (eq <= 0) throw new TroveError('INVALID_CONFIG', `--set expects section.key=value, got ${JSON.stringify(s)}`, { key: s });
    out[s.slice(0, eq)] = s.slice(eq + 1);
  }
  return { ...out, ...extra };
}

export function configFrom(opts: GlobalOptions, extra: Record<string, string> = {}): TroveConfig {
  return loadConfig({ configPath: opts.config, dataDir: opts.dataDir, overrides: parseSets(opts.set, extra) });
}

/** One-shot commands log warnings only (or everything with --verbose); `serve` logs at the configured level. */
export function appFrom(opts: GlobalOptions, extra: Record<string, string> = {}, server = false): App {
  const config = configFrom(opts, extra);
  const level: LogLevel = opts.verbose ? 'debug' : server ? (config.log.level as LogLevel) : 'warn';
  return createApp(config, createLogger(level));
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Reports a failure the way the command was asked to speak, and sets a failing exit code. */
export function reportError(err: unknown, json: boolean | undefined): void {
  const pub = toPublicError(err);
  if (pub.code === 'INTERNAL') process.stderr.write(`${failureText(err)}\n`);
  if (json) printJson({ error: { code: pub.code, message: pub.message, ...(pub.details ? { details: pub.details } : {}) } });
  else process.stderr.write(`trove: ${pub.code}: ${pub.message}\n`);
  process.exitCode = pub.code === 'INVALID_CONFIG' ? 78 : 1;
}

/** Runs a command body with an app, closing it afterwards and reporting errors. */
export async function withApp(opts: GlobalOptions, body: (app: App) => Promise<void>): Promise<void> {
  let app: App | undefined;
  try {
    app = appFrom(opts);
    await body(app);
  } catch (err) {
    reportError(err, opts.json);
  } finally {
    await app?.close().catch(() => undefined);
  }
}

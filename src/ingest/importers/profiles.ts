import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { TroveError } from '../../errors.js';
import { type Browser, type ChromiumBrowser, formatOf } from './types.js';

// Where each browser keeps its history database by default (Linux, macOS, Windows).

export interface Locale {
  home: string;
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
}

const DB_FILE = { firefox: 'places.sqlite', chromium: 'History', safari: 'History.db' } as const;

const CHROMIUM_DIRS: Record<ChromiumBrowser, { linux: string[]; darwin: string; win32: string }> = {
  chrome: { linux: ['google-chrome'], darwin: 'Google/Chrome', win32: 'Google/Chrome/User Data' },
  chromium: { linux: ['chromium'], darwin: 'Chromium', win32: 'Chromium/User Data' },
  brave: { linux: ['BraveSoftware/Brave-Browser'], darwin: 'BraveSoftware/Brave-Browser', win32: 'BraveSoftware/Brave-Browser/User Data' },
  edge: { linux: ['microsoft-edge'], darwin: 'Microsoft Edge', win32: 'Microsoft/Edge/User Data' },
  vivaldi: { linux: ['vivaldi'], darwin: 'Vivaldi', win32: 'Vivaldi/User Data' },
};

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Browser data directories ("User Data" for Chromium, the directory of profiles.ini for Firefox). */
function roots(browser: Browser, loc: Locale): string[] {
  const { home, platform, env } = loc;
  const support = join(home, 'Library', 'Application Support');
  if (browser === 'safari') return platform === 'darwin' ? [join(home, 'Library', 'Safari')] : [];
  if (browser === 'firefox') {
    if (platform === 'darwin') return [join(support, 'Firefox')];
    if (platform === 'win32') return [join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Mozilla', 'Firefox')];
    return [join(home, '.mozilla', 'firefox'), join(home, 'snap', 'firefox', 'common', '.mozilla', 'firefox'), join(home, '.var', 'app', 'org.mozilla.firefox', '.mozilla', 'firefox')];
  }
  const dirs = CHROMIUM_DIRS[browser];
  if (platform === 'darwin') return [join(support, dirs.darwin)];
  if (platform === 'win32') return [join(env.LOCALAPPDATA ?? join(home, 'AppData', 'Local'), dirs.win32)];
  const config = env.XDG_CONFIG_HOME && isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : join(home, '.config');
  const snap = browser === 'chromium' ? [join(home, 'snap', 'chromium', 'common', 'chromium')] : [];
  return [...dirs.linux.map((d) => join(config, d)), ...snap];
}

/** Profile directories listed in a Firefox profiles.ini, the default first. */
function firefoxProfiles(root: string): string[] {
  const ini = join(root, 'profiles.ini');
  if (!isFile(ini)) return [root, join(root, 'Profiles')].filter(isDir).flatMap((d) => readdirSync(d).map((name) => join(d, name)));
  const sections: Array<{ name: string; keys: Map<string, string> }> = [];
  for (const line of readFileSync(ini, 'utf8').split(/\r?\n/)) {
    const header = /^\s*\[(.+)\]\s*$/.exec(line);
    if (header) sections.push({ name: header[1]!, keys: new Map() });
    const kv = /^\s*([^=;#]+?)\s*=\s*(.*?)\s*$/.exec(line);
    if (kv && sections.length) sections.at(-1)!.keys.set(kv[1]!, kv[2]!);
  }
  const profiles = sections.filter((s) => /^Profile\d+$/i.test(s.name) && s.keys.has('Path'));
  const pathOf = (s: { keys: Map<string, string> }) => (s.keys.get('IsRelative') === '0' ? s.keys.get('Path')! : join(root, s.keys.get('Path')!));
  // Newer Firefox names the default per installation in [Install...] sections; older ones mark Default=1.
  const installDefaults = sections.filter((s) => /^Install/i.test(s.name) && s.keys.has('Default')).map((s) => join(root, s.keys.get('Default')!));
  const marked = profiles.filter((s) => s.keys.get('Default') === '1').map(pathOf);
  return [...new Set([...installDefaults, ...marked, ...profiles.map(pathOf)])];
}

/** Candidate database files inside a directory the user named or a default data directory. */
function candidatesIn(browser: Browser, dir: string): string[] {
  const format = formatOf(browser);
  if (format === 'firefox') return [join(dir, DB_FILE.firefox), ...firefoxProfiles(dir).map((p) => join(p, DB_FILE.firefox))];
  if (format === 'safari') return [join(dir, DB_FILE.safari)];
  const others = isDir(dir) ? readdirSync(dir).filter((n) => /^Profile \d+$/.test(n)).sort().map((n) => join(dir, n, DB_FILE.chromium)) : [];
  return [join(dir, DB_FILE.chromium), join(dir, 'Default', DB_FILE.chromium), ...others];
}

/** The history database to import: `profile` (a database file or a profile/data directory) or the browser's default. */
export function locateHistory(browser: Browser, profile: string | undefined, loc: Locale): string {
  const name = DB_FILE[formatOf(browser)];
  if (profile !== undefined) {
    const path = resolve(profile.replace(/^~(?=$|\/)/, loc.home));
    if (!existsSync(path)) throw new TroveError('FILE_NOT_FOUND', `no such file or directory: ${path}`, { path });
    if (!isDir(path)) return path;
    const found = candidatesIn(browser, path).find(isFile);
    if (!found) throw new TroveError('FILE_NOT_FOUND', `no ${name} in ${path}; pass the database file or a ${browser} profile directory`, { path });
    return found;
  }
  const searched = roots(browser, loc);
  const found = searched.filter(isDir).flatMap((root) => candidatesIn(browser, root)).find(isFile);
  if (!found) {
    const where = searched.length ? `looked in ${searched.join(', ')}` : `${browser} has no default location on ${loc.platform}`;
    throw new TroveError('FILE_NOT_FOUND', `no ${browser} history found (${where}); pass --profile PATH`, { paths: searched });
  }
  return found;
}

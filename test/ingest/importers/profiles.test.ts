import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { TroveError } from '../../../src/errors.js';
import { type Locale, locateHistory } from '../../../src/ingest/importers/profiles.js';
import { suiteDirs } from '../../helpers.js';

const { fresh } = suiteDirs('trove-profiles-');

function touch(path: string): string {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, 'x');
  return path;
}

const linux = (home: string, env: NodeJS.ProcessEnv = {}): Locale => ({ home, platform: 'linux', env });

function notFound(fn: () => unknown): TroveError {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof TroveError);
    assert.equal(err.code, 'FILE_NOT_FOUND');
    return err;
  }
  assert.fail('no error');
}

describe('default profile locations', () => {
  test('Firefox on Linux: the installation default in profiles.ini wins over Default=1 and other profiles', () => {
    const home = fresh();
    const root = join(home, '.mozilla', 'firefox');
    touch(join(root, 'old.default', 'places.sqlite'));
    const wanted = touch(join(root, 'abc.default-release', 'places.sqlite'));
    writeFileSync(join(root, 'profiles.ini'), '[Profile1]\nName=default\nIsRelative=1\nPath=old.default\nDefault=1\n\n[Profile0]\nName=default-release\nIsRelative=1\nPath=abc.default-release\n\n[Install4F96D1932A9F858E]\nDefault=abc.default-release\nLocked=1\n');
    assert.equal(locateHistory('firefox', undefined, linux(home)), wanted);
  });

  test('Firefox: the Default=1 profile, then any profile that has a database; snap and flatpak homes too', () => {
    const home = fresh();
    const root = join(home, 'snap', 'firefox', 'common', '.mozilla', 'firefox');
    const wanted = touch(join(root, 'x.default', 'places.sqlite'));
    writeFileSync(join(root, 'profiles.ini'), '[Profile0]\nName=empty\nIsRelative=1\nPath=empty.profile\nDefault=1\n[Profile1]\nName=x\nIsRelative=1\nPath=x.default\n');
    assert.equal(locateHistory('firefox', undefined, linux(home)), wanted);
  });

  test('Chromium-family browsers on Linux: <config>/<browser>/Default/History, XDG_CONFIG_HOME honoured', () => {
    const home = fresh();
    const expected = {
      chrome: touch(join(home, '.config', 'google-chrome', 'Default', 'History')),
      chromium: touch(join(home, '.config', 'chromium', 'Default', 'History')),
      brave: touch(join(home, '.config', 'BraveSoftware', 'Brave-Browser', 'Default', 'History')),
      edge: touch(join(home, '.config', 'microsoft-edge', 'Default', 'History')),
      vivaldi: touch(join(home, '.config', 'vivaldi', 'Default', 'History')),
    };
    for (const [browser, path] of Object.entries(expected)) assert.equal(locateHistory(browser as 'chrome', undefined, linux(home)), path);
    const xdg = join(home, 'xdg');
    const moved = touch(join(xdg, 'google-chrome', 'Default', 'History'));
    assert.equal(locateHistory('chrome', undefined, linux(home, { XDG_CONFIG_HOME: xdg })), moved);
  });

  test('Chrome falls back to another profile when Default has no history', () => {
    const home = fresh();
    const wanted = touch(join(home, '.config', 'google-chrome', 'Profile 1', 'History'));
    assert.equal(locateHistory('chrome', undefined, linux(home)), wanted);
  });

  test('macOS locations', () => {
    const home = fresh();
    const support = join(home, 'Library', 'Application Support');
    const mac: Locale = { home, platform: 'darwin', env: {} };
    const chrome = touch(join(support, 'Google', 'Chrome', 'Default', 'History'));
    const edge = touch(join(support, 'Microsoft Edge', 'Default', 'History'));
    const safari = touch(join(home, 'Library', 'Safari', 'History.db'));
    const firefox = touch(join(support, 'Firefox', 'Profiles', 'q.default-release', 'places.sqlite'));
    writeFileSync(join(support, 'Firefox', 'profiles.ini'), '[Profile0]\nName=default-release\nIsRelative=1\nPath=Profiles/q.default-release\nDefault=1\n');
    assert.equal(locateHistory('chrome', undefined, mac), chrome);
    assert.equal(locateHistory('edge', undefined, mac), edge);
    assert.equal(locateHistory('safari', undefined, mac), safari);
    assert.equal(locateHistory('firefox', undefined, mac), firefox);
  });

  test('nothing installed is FILE_NOT_FOUND naming where it looked; Safari has no Linux location', () => {
    const home = fresh();
    const err = notFound(() => locateHistory('brave', undefined, linux(home)));
    assert.match(err.message, /BraveSoftware\/Brave-Browser/);
    assert.match(err.message, /--profile/);
    assert.match(notFound(() => locateHistory('safari', undefined, linux(home))).message, /no default location on linux/);
  });
});

describe('--profile', () => {
  test('a database file is used as given; a profile directory or a data directory is searched', () => {
    const dir = fresh();
    const file = touch(join(dir, 'any-name.sqlite'));
    assert.equal(locateHistory('firefox', file, linux(dir)), file);
    const profile = touch(join(dir, 'ff-profile', 'places.sqlite'));
    assert.equal(locateHistory('firefox', join(dir, 'ff-profile'), linux(dir)), profile);
    const userData = touch(join(dir, 'User Data', 'Default', 'History'));
    assert.equal(locateHistory('vivaldi', join(dir, 'User Data'), linux(dir)), userData);
    assert.equal(locateHistory('chrome', join(dir, 'User Data', 'Default'), linux(dir)), userData);
    const safari = touch(join(dir, 'Safari', 'History.db'));
    assert.equal(locateHistory('safari', join(dir, 'Safari'), linux(dir)), safari);
    assert.equal(locateHistory('firefox', '~/ff-profile', linux(dir)), profile);
  });

  test('a missing path, or a directory without the database, is FILE_NOT_FOUND with the path', () => {
    const dir = fresh();
    const missing = notFound(() => locateHistory('chrome', join(dir, 'nope'), linux(dir)));
    assert.deepEqual(missing.details, { path: join(dir, 'nope') });
    const empty = notFound(() => locateHistory('chrome', dir, linux(dir)));
    assert.match(empty.message, /no History in/);
  });
});

// History databases with each browser's own schema (CREATE TABLE statements as the browsers write them),
// for tests. Times are given in Unix milliseconds and stored in each browser's unit.
import Database from 'better-sqlite3';

export interface FixtureVisit {
  url: string;
  title?: string | null;
  /** Unix ms. */
  at: number;
  /** Firefox visit_type / Chrome transition; default a link click. */
  type?: number;
}

export type Schema = 'firefox-old' | 'firefox-new' | 'chrome-v20' | 'chrome-new' | 'safari';

// Firefox 3.x (places schema 10): favicon_id, session.
const FIREFOX_OLD = `
CREATE TABLE moz_places (   id INTEGER PRIMARY KEY, url LONGVARCHAR, title LONGVARCHAR, rev_host LONGVARCHAR, visit_count INTEGER DEFAULT 0, hidden INTEGER DEFAULT 0 NOT NULL, typed INTEGER DEFAULT 0 NOT NULL, favicon_id INTEGER, frecency INTEGER DEFAULT -1 NOT NULL, last_visit_date INTEGER );
CREATE TABLE moz_historyvisits (  id INTEGER PRIMARY KEY, from_visit INTEGER, place_id INTEGER, visit_date INTEGER, visit_type INTEGER, session INTEGER);
CREATE TABLE moz_favicons (  id INTEGER PRIMARY KEY, url LONGVARCHAR UNIQUE, data BLOB, mime_type VARCHAR(32), expiration LONG);
CREATE TABLE moz_bookmarks (  id INTEGER PRIMARY KEY, type INTEGER, fk INTEGER DEFAULT NULL, parent INTEGER, position INTEGER, title LONGVARCHAR, keyword_id INTEGER, folder_type TEXT, dateAdded INTEGER, lastModified INTEGER);
CREATE INDEX moz_places_url_uniqueindex ON moz_places (url);
CREATE INDEX moz_historyvisits_placedateindex ON moz_historyvisits (place_id, visit_date);
CREATE INDEX moz_historyvisits_dateindex ON moz_historyvisits (visit_date);
`;

// Firefox 115+ : guid, url_hash, origin_id, site_name, frecency recalculation; visits with source and triggeringPlaceId.
const FIREFOX_NEW = `
CREATE TABLE moz_origins ( id INTEGER PRIMARY KEY, prefix TEXT NOT NULL, host TEXT NOT NULL, frecency INTEGER NOT NULL, recalc_frecency INTEGER NOT NULL DEFAULT 0, alt_frecency INTEGER, recalc_alt_frecency INTEGER NOT NULL DEFAULT 0, UNIQUE (prefix, host) );
CREATE TABLE moz_places (   id INTEGER PRIMARY KEY, url LONGVARCHAR, title LONGVARCHAR, rev_host LONGVARCHAR, visit_count INTEGER DEFAULT 0, hidden INTEGER DEFAULT 0 NOT NULL, typed INTEGER DEFAULT 0 NOT NULL, frecency INTEGER DEFAULT -1 NOT NULL, last_visit_date INTEGER , guid TEXT, foreign_count INTEGER DEFAULT 0 NOT NULL, url_hash INTEGER DEFAULT 0 NOT NULL , description TEXT, preview_image_url TEXT, site_name TEXT, origin_id INTEGER REFERENCES moz_origins(id), recalc_frecency INTEGER NOT NULL DEFAULT 0, alt_frecency INTEGER, recalc_alt_frecency INTEGER NOT NULL DEFAULT 0);
CREATE TABLE moz_historyvisits (  id INTEGER PRIMARY KEY, from_visit INTEGER, place_id INTEGER, visit_date INTEGER, visit_type INTEGER, session INTEGER, source INTEGER DEFAULT 0 NOT NULL, triggeringPlaceId INTEGER);
CREATE TABLE moz_bookmarks (  id INTEGER PRIMARY KEY, type INTEGER, fk INTEGER DEFAULT NULL, parent INTEGER, position INTEGER, title LONGVARCHAR, keyword_id INTEGER, folder_type TEXT, dateAdded INTEGER, lastModified INTEGER, guid TEXT, syncStatus INTEGER NOT NULL DEFAULT 0, syncChangeCounter INTEGER NOT NULL DEFAULT 1);
CREATE UNIQUE INDEX moz_places_guid_uniqueindex ON moz_places (guid);
CREATE INDEX moz_places_url_hashindex ON moz_places (url_hash);
CREATE INDEX moz_historyvisits_placedateindex ON moz_historyvisits (place_id, visit_date);
CREATE INDEX moz_historyvisits_dateindex ON moz_historyvisits (visit_date);
`;

// Chrome 10-era History (meta version 20): urls.favicon_id, visits.is_indexed.
const CHROME_V20 = `
CREATE TABLE meta(key LONGVARCHAR NOT NULL UNIQUE PRIMARY KEY,value LONGVARCHAR);
CREATE TABLE urls(id INTEGER PRIMARY KEY,url LONGVARCHAR,title LONGVARCHAR,visit_count INTEGER DEFAULT 0 NOT NULL,typed_count INTEGER DEFAULT 0 NOT NULL,last_visit_time INTEGER NOT NULL,hidden INTEGER DEFAULT 0 NOT NULL,favicon_id INTEGER DEFAULT 0 NOT NULL);
CREATE TABLE visits(id INTEGER PRIMARY KEY,url INTEGER NOT NULL,visit_time INTEGER NOT NULL,from_visit INTEGER,transition INTEGER DEFAULT 0 NOT NULL,segment_id INTEGER,is_indexed BOOLEAN);
CREATE TABLE visit_source(id INTEGER PRIMARY KEY,source INTEGER NOT NULL);
CREATE TABLE keyword_search_terms (keyword_id INTEGER NOT NULL,url_id INTEGER NOT NULL,lower_term LONGVARCHAR NOT NULL,term LONGVARCHAR NOT NULL);
CREATE INDEX urls_url_index ON urls (url);
CREATE INDEX visits_url_index ON visits (url);
CREATE INDEX visits_time_index ON visits (visit_time);
INSERT INTO meta VALUES ('version', '20'), ('last_compatible_version', '16');
`;

// Current Chrome History: AUTOINCREMENT ids, no favicon_id, many visit columns.
const CHROME_NEW = `
CREATE TABLE meta(key LONGVARCHAR NOT NULL UNIQUE PRIMARY KEY, value LONGVARCHAR);
CREATE TABLE urls(id INTEGER PRIMARY KEY AUTOINCREMENT,url LONGVARCHAR,title LONGVARCHAR,visit_count INTEGER DEFAULT 0 NOT NULL,typed_count INTEGER DEFAULT 0 NOT NULL,last_visit_time INTEGER NOT NULL,hidden INTEGER DEFAULT 0 NOT NULL);
CREATE TABLE visits(id INTEGER PRIMARY KEY AUTOINCREMENT,url INTEGER NOT NULL,visit_time INTEGER NOT NULL,from_visit INTEGER,external_referrer_url TEXT,transition INTEGER DEFAULT 0 NOT NULL,segment_id INTEGER,visit_duration INTEGER DEFAULT 0 NOT NULL,incremented_omnibox_typed_score BOOLEAN DEFAULT FALSE NOT NULL,opener_visit INTEGER,originator_cache_guid TEXT,originator_visit_id INTEGER,originator_from_visit INTEGER,originator_opener_visit INTEGER,is_known_to_sync BOOLEAN DEFAULT FALSE NOT NULL,consider_for_ntp_most_visited BOOLEAN DEFAULT FALSE NOT NULL,visited_link_id INTEGER DEFAULT 0 NOT NULL,app_id TEXT);
CREATE TABLE visit_source(id INTEGER PRIMARY KEY,source INTEGER NOT NULL);
CREATE INDEX visits_url_index ON visits (url);
CREATE INDEX visits_from_index ON visits (from_visit);
CREATE INDEX visits_time_index ON visits (visit_time);
CREATE INDEX urls_url_index ON urls (url);
INSERT INTO meta VALUES ('mmap_status', '-1'), ('version', '69'), ('last_compatible_version', '16');
`;

const SAFARI = `
CREATE TABLE history_items (id INTEGER PRIMARY KEY AUTOINCREMENT,url TEXT NOT NULL UNIQUE,domain_expansion TEXT NULL,visit_count INTEGER NOT NULL,daily_visit_counts BLOB NOT NULL,weekly_visit_counts BLOB NULL,autocomplete_triggers BLOB NULL,should_recompute_derived_visit_counts INTEGER NOT NULL,visit_count_score INTEGER NOT NULL,status_code INTEGER NOT NULL DEFAULT 0);
CREATE TABLE history_visits (id INTEGER PRIMARY KEY AUTOINCREMENT,history_item INTEGER NOT NULL REFERENCES history_items(id) ON DELETE CASCADE,visit_time REAL NOT NULL,title TEXT NULL,load_successful BOOLEAN NOT NULL DEFAULT 1,http_non_get BOOLEAN NOT NULL DEFAULT 0,synthesized BOOLEAN NOT NULL DEFAULT 0,redirect_source INTEGER NULL UNIQUE REFERENCES history_visits(id) ON DELETE CASCADE,redirect_destination INTEGER NULL UNIQUE REFERENCES history_visits(id) ON DELETE CASCADE,origin INTEGER NOT NULL DEFAULT 0,generation INTEGER NOT NULL DEFAULT 0,attributes INTEGER NOT NULL DEFAULT 0,score INTEGER NOT NULL DEFAULT 0);
CREATE TABLE history_tombstones (id INTEGER PRIMARY KEY AUTOINCREMENT,start_time REAL NOT NULL,end_time REAL NOT NULL,url TEXT,generation INTEGER NOT NULL DEFAULT 0);
CREATE TABLE metadata (key TEXT NOT NULL UNIQUE, value);
CREATE INDEX history_visits__last_visit ON history_visits (history_item, visit_time DESC, synthesized ASC);
CREATE INDEX history_visits__origin ON history_visits (origin, generation);
`;

const DDL: Record<Schema, string> = { 'firefox-old': FIREFOX_OLD, 'firefox-new': FIREFOX_NEW, 'chrome-v20': CHROME_V20, 'chrome-new': CHROME_NEW, safari: SAFARI };

export const WEBKIT_OFFSET_MS = 11_644_473_600_000n;
export const CORE_DATA_OFFSET_S = 978_307_200;

/** Creates a history database with the schema; `wal` switches it to WAL mode (as Firefox and Chrome run). */
export function createHistoryDb(path: string, schema: Schema, opts: { wal?: boolean } = {}): Database.Database {
  const db = new Database(path);
  if (opts.wal) {
    db.pragma('journal_mode = WAL');
    db.pragma('wal_autocheckpoint = 0');
  }
  db.exec(DDL[schema]);
  return db;
}

function firefoxVisit(db: Database.Database, v: FixtureVisit, schema: Schema): void {
  let id = db.prepare('SELECT id FROM moz_places WHERE url = ?').pluck().get(v.url) as number | undefined;
  if (id === undefined) {
    const fresh = schema === 'firefox-new';
    const sql = fresh ? 'INSERT INTO moz_places (url, title, rev_host, visit_count, guid) VALUES (?, ?, ?, 0, ?)' : 'INSERT INTO moz_places (url, title, rev_host, visit_count) VALUES (?, ?, ?, 0)';
    const args = [v.url, v.title ?? null, 'moc.elpmaxe.', ...(fresh ? [`guid-${v.url.length}-${v.at}`] : [])];
    id = Number(db.prepare(sql).run(...args).lastInsertRowid);
  }
  const us = BigInt(v.at) * 1000n + 123n;
  db.prepare('INSERT INTO moz_historyvisits (from_visit, place_id, visit_date, visit_type, session) VALUES (0, ?, ?, ?, 0)').run(id, us, v.type ?? 1);
  db.prepare('UPDATE moz_places SET visit_count = visit_count + 1, last_visit_date = max(ifnull(last_visit_date, 0), ?), title = ifnull(?, title) WHERE id = ?').run(us, v.title ?? null, id);
}

function chromeVisit(db: Database.Database, v: FixtureVisit): void {
  const time = (BigInt(v.at) + WEBKIT_OFFSET_MS) * 1000n + 456n;
  let id = db.prepare('SELECT id FROM urls WHERE url = ?').pluck().get(v.url) as number | undefined;
  if (id === undefined) id = Number(db.prepare('INSERT INTO urls (url, title, visit_count, last_visit_time) VALUES (?, ?, 0, 0)').run(v.url, v.title ?? '').lastInsertRowid);
  db.prepare('INSERT INTO visits (url, visit_time, from_visit, transition, segment_id) VALUES (?, ?, 0, ?, 0)').run(id, time, v.type ?? 0x30000000);
  db.prepare('UPDATE urls SET visit_count = visit_count + 1, last_visit_time = max(last_visit_time, ?), title = ? WHERE id = ?').run(time, v.title ?? '', id);
}

function safariVisit(db: Database.Database, v: FixtureVisit): void {
  let id = db.prepare('SELECT id FROM history_items WHERE url = ?').pluck().get(v.url) as number | undefined;
  if (id === undefined) {
    id = Number(db.prepare("INSERT INTO history_items (url, visit_count, daily_visit_counts, should_recompute_derived_visit_counts, visit_count_score) VALUES (?, 0, x'', 0, 0)").run(v.url).lastInsertRowid);
  }
  db.prepare('INSERT INTO history_visits (history_item, visit_time, title) VALUES (?, ?, ?)').run(id, v.at / 1000 - CORE_DATA_OFFSET_S, v.title ?? null);
  db.prepare('UPDATE history_items SET visit_count = visit_count + 1 WHERE id = ?').run(id);
}

/** Records visits the way the browser does: a url row (count, last visit, title) and one row per visit. */
export function addVisits(db: Database.Database, schema: Schema, visits: FixtureVisit[]): void {
  db.transaction(() => {
    for (const v of visits) {
      if (schema.startsWith('firefox')) firefoxVisit(db, v, schema);
      else if (schema.startsWith('chrome')) chromeVisit(db, v);
      else safariVisit(db, v);
    }
  })();
}

/** A closed history database file holding `visits`. */
export function writeHistoryDb(path: string, schema: Schema, visits: FixtureVisit[]): string {
  const db = createHistoryDb(path, schema);
  addVisits(db, schema, visits);
  db.close();
  return path;
}

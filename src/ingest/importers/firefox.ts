import type Database from 'better-sqlite3';
import { type VisitRow, collectVisits, columnsOf, hasColumns } from './collect.js';
import type { HistoryFormat } from './types.js';

// places.sqlite: moz_places (one row per url) and moz_historyvisits (one row per visit). Times are
// microseconds since the Unix epoch. Old (favicon_id, session) and new (guid, url_hash, source,
// triggeringPlaceId) schemas share the columns read here.

/** TRANSITION_EMBED: content loaded inside a page, not a page the user visited. */
const EMBED = 4;

export const firefoxFormat: HistoryFormat = {
  name: 'firefox',
  label: 'Firefox',
  detect: (db) => hasColumns(db, 'moz_places', ['id', 'url', 'title', 'visit_count', 'last_visit_date']) && hasColumns(db, 'moz_historyvisits', ['place_id', 'visit_date']),
  read(db: Database.Database, fromMs: number) {
    const from = BigInt(Math.max(fromMs, 1)) * 1000n;
    const notEmbed = columnsOf(db, 'moz_historyvisits').has('visit_type') ? `AND (v.visit_type IS NULL OR v.visit_type <> ${EMBED})` : '';
    // Places whose visit rows expired still say when they were last visited: that time counts as one visit.
    const sql = `SELECT p.url, p.title, p.visit_count AS count, v.visit_date / 1000 AS at
                   FROM moz_historyvisits v JOIN moz_places p ON p.id = v.place_id
                  WHERE v.visit_date >= ? ${notEmbed}
                 UNION ALL
                 SELECT p.url, p.title, p.visit_count, p.last_visit_date / 1000
                   FROM moz_places p
                  WHERE p.last_visit_date >= ? AND p.id NOT IN (SELECT place_id FROM moz_historyvisits WHERE place_id IS NOT NULL)
                 ORDER BY at`;
    return collectVisits(db.prepare(sql).iterate(from, from) as Iterable<VisitRow>);
  },
};

import type Database from 'better-sqlite3';
import { type VisitRow, collectVisits, columnsOf, hasColumns } from './collect.js';
import type { HistoryFormat } from './types.js';

// History (Chrome, Chromium, Brave, Edge, Vivaldi): urls (one row per url) and visits (one row per
// visit). Times are microseconds since 1601-01-01 UTC (the Windows/WebKit epoch). Old schemas have
// urls.favicon_id and visits.is_indexed, newer ones visit_duration and many more visit columns.

/** Milliseconds from 1601-01-01 to 1970-01-01. */
export const WEBKIT_EPOCH_OFFSET_MS = 11_644_473_600_000;

/** Core transition AUTO_SUBFRAME: a frame inside a page loaded on its own, not a page the user visited. */
const AUTO_SUBFRAME = 3;

export const chromiumFormat: HistoryFormat = {
  name: 'chromium',
  label: 'Chromium-family',
  detect: (db) => hasColumns(db, 'urls', ['id', 'url', 'title', 'visit_count', 'last_visit_time']) && hasColumns(db, 'visits', ['url', 'visit_time']),
  read(db: Database.Database, fromMs: number) {
    const from = BigInt(Math.max(fromMs, 1) + WEBKIT_EPOCH_OFFSET_MS) * 1000n;
    const notSubframe = columnsOf(db, 'visits').has('transition') ? `AND (v.transition & 255) <> ${AUTO_SUBFRAME}` : '';
    // Urls whose visit rows expired still say when they were last visited: that time counts as one visit.
    const sql = `SELECT u.url, u.title, u.visit_count AS count, v.visit_time / 1000 - ${WEBKIT_EPOCH_OFFSET_MS} AS at
                   FROM visits v JOIN urls u ON u.id = v.url
                  WHERE v.visit_time >= ? ${notSubframe}
                 UNION ALL
                 SELECT u.url, u.title, u.visit_count, u.last_visit_time / 1000 - ${WEBKIT_EPOCH_OFFSET_MS}
                   FROM urls u
                  WHERE u.last_visit_time >= ? AND u.id NOT IN (SELECT url FROM visits WHERE url IS NOT NULL)
                 ORDER BY at`;
    return collectVisits(db.prepare(sql).iterate(from, from) as Iterable<VisitRow>);
  },
};

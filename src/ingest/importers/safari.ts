import type Database from 'better-sqlite3';
import { type VisitRow, collectVisits, columnsOf, hasColumns } from './collect.js';
import type { HistoryFormat } from './types.js';

// History.db: history_items (one row per url, with its visit count) and history_visits (one row per
// visit, with the page title at that visit). visit_time is Core Data time: seconds (REAL) since
// 2001-01-01 UTC.

/** Seconds from 1970-01-01 to 2001-01-01. */
export const CORE_DATA_EPOCH_OFFSET_S = 978_307_200;

export const safariFormat: HistoryFormat = {
  name: 'safari',
  label: 'Safari',
  detect: (db) => hasColumns(db, 'history_items', ['id', 'url', 'visit_count']) && hasColumns(db, 'history_visits', ['history_item', 'visit_time']),
  read(db: Database.Database, fromMs: number) {
    const from = Math.max(fromMs, 1) / 1000 - CORE_DATA_EPOCH_OFFSET_S;
    const title = columnsOf(db, 'history_visits').has('title') ? 'v.title' : "''";
    const sql = `SELECT i.url, ${title} AS title, i.visit_count AS count,
                        CAST(round((v.visit_time + ${CORE_DATA_EPOCH_OFFSET_S}) * 1000) AS INTEGER) AS at
                   FROM history_visits v JOIN history_items i ON i.id = v.history_item
                  WHERE v.visit_time >= ?
                 ORDER BY at`;
    return collectVisits(db.prepare(sql).iterate(from) as Iterable<VisitRow>);
  },
};

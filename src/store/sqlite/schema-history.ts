// Schema step 2: browser history imports (visits per url and source, the visit times seen, resumable
// import checkpoints) and the queue of pages to fetch after an import.

export const HISTORY_SCHEMA = `
CREATE TABLE history_visits (
  id INTEGER PRIMARY KEY,
  url TEXT NOT NULL,
  title TEXT NOT NULL DEFAULT '',
  visit_count INTEGER NOT NULL DEFAULT 0,
  first_visit_at INTEGER NOT NULL,
  last_visit_at INTEGER NOT NULL,
  source TEXT NOT NULL,
  owner_id INTEGER REFERENCES users(id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX history_visits_key ON history_visits(ifnull(owner_id, 0), url, source);
CREATE INDEX history_visits_last ON history_visits(last_visit_at);
CREATE TABLE history_visit_times (
  visit_id INTEGER NOT NULL REFERENCES history_visits(id) ON DELETE CASCADE,
  visited_at INTEGER NOT NULL,
  PRIMARY KEY (visit_id, visited_at)
) WITHOUT ROWID;
CREATE INDEX history_visit_times_at ON history_visit_times(visited_at);
CREATE TABLE import_state (
  source TEXT NOT NULL,
  profile TEXT NOT NULL,
  range_start INTEGER NOT NULL,
  last_visit_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (source, profile)
);
CREATE TABLE fetch_queue (
  id INTEGER PRIMARY KEY,
  url TEXT NOT NULL,
  source TEXT NOT NULL,
  owner_id INTEGER REFERENCES users(id) ON DELETE CASCADE,
  state TEXT NOT NULL CHECK (state IN ('queued', 'done', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  last_error TEXT,
  queued_at INTEGER NOT NULL,
  finished_at INTEGER
);
CREATE UNIQUE INDEX fetch_queue_url ON fetch_queue(ifnull(owner_id, 0), url);
CREATE INDEX fetch_queue_state ON fetch_queue(state, id);
`;

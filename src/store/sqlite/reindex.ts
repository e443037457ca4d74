import type Database from 'better-sqlite3';

// Rebuilding the keyword index. chunk_fts is contentless, so FTS5's 'rebuild' cannot read its content
// back: empty it ('delete-all') and insert every chunk again from the chunks table, in one transaction.

export interface KeywordRebuild {
  documents: number;
  chunks: number;
}

export function rebuildKeywordIndex(db: Database.Database): KeywordRebuild {
  return db.transaction(() => {
    db.prepare("INSERT INTO chunk_fts (chunk_fts) VALUES ('delete-all')").run();
    const inserted = db
      .prepare(`INSERT INTO chunk_fts (rowid, title, domain, url, text)
                SELECT c.id, d.title, d.domain, d.url, c.text FROM chunks c JOIN documents d ON d.seq = c.document_seq ORDER BY c.id`)
      .run();
    db.prepare("INSERT INTO chunk_fts (chunk_fts) VALUES ('optimize')").run();
    const documents = db.prepare('SELECT count(DISTINCT document_seq) FROM chunks').pluck().get() as number;
    return { documents, chunks: inserted.changes };
  }).immediate();
}

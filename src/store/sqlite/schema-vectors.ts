import { MAX_CHUNKS } from '../types.js';

// Schema step: the persistent embedding queue. Once a vector space exists, triggers queue every chunk
// written, rewritten or removed in the transaction that does it, whoever writes (nothing is lost).
// Before that they do nothing (ingest pays no queue cost): opening the first space queues every chunk.
// A new ticket per change lets the worker tell an answer for old text from one for the current text.
// The vectors themselves live in a sqlite-vec table made when semantic search first runs (vectors.ts).

const TICKET = 'random() & 9007199254740991';
const QUEUE = (id: string) =>
  `INSERT INTO embedding_queue (chunk_id, ticket) VALUES (${id}, ${TICKET}) ON CONFLICT (chunk_id) DO UPDATE SET ticket = excluded.ticket, failed = 0;`;

const HAS_SPACE = 'EXISTS (SELECT 1 FROM vector_space)';

export const VECTOR_SCHEMA = `
CREATE TABLE IF NOT EXISTS embedding_queue (
  chunk_id INTEGER PRIMARY KEY,
  ticket INTEGER NOT NULL,
  failed INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS vector_space (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  model TEXT NOT NULL,
  dimensions INTEGER NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE TRIGGER IF NOT EXISTS chunks_embed_insert AFTER INSERT ON chunks WHEN ${HAS_SPACE} BEGIN ${QUEUE('new.id')} END;
CREATE TRIGGER IF NOT EXISTS chunks_embed_delete AFTER DELETE ON chunks WHEN ${HAS_SPACE} BEGIN ${QUEUE('old.id')} END;
CREATE TRIGGER IF NOT EXISTS documents_embed_title AFTER UPDATE OF title ON documents WHEN old.title IS NOT new.title AND ${HAS_SPACE} BEGIN
  INSERT INTO embedding_queue (chunk_id, ticket)
    SELECT id, ${TICKET} FROM chunks WHERE id BETWEEN new.seq * ${MAX_CHUNKS} AND new.seq * ${MAX_CHUNKS} + ${MAX_CHUNKS - 1}
    ON CONFLICT (chunk_id) DO UPDATE SET ticket = excluded.ticket, failed = 0;
END;
`;

import { createHash } from 'node:crypto';
import type { App } from '../app.js';
import { chunkText } from '../engine/chunk.js';
import { redactDeep, redactText, redactUrl } from '../ingest/redact.js';
import { type DocumentWrite, MAX_CHUNKS } from '../store/types.js';

/**
 * The write with secrets redacted from everything that will be stored or indexed: url, title, text,
 * rendered and raw HTML, metadata. Passages and hash are recomputed when the text changed.
 */
export function redactWrite(app: App, write: DocumentWrite): DocumentWrite {
  const r = app.rules.redactor;
  if (r.detectors.length === 0) return write;
  const text = redactText(r, write.text);
  const safe: DocumentWrite = {
    ...write,
    url: redactUrl(r, write.url),
    title: redactText(r, write.title),
    text,
    html: write.html === null ? null : redactText(r, write.html),
    rawHtml: write.rawHtml === null ? null : redactText(r, write.rawHtml),
    metadata: redactDeep(r, write.metadata) as Record<string, unknown>,
  };
  if (text === write.text) return safe;
  return { ...safe, sha256: createHash('sha256').update(text).digest('hex'), chunks: chunkText(text, { size: app.config.indexer.chunk_chars, maxChunks: MAX_CHUNKS }) };
}

import { tidyText } from './dom.js';
import type { Extractor, PageMetadata } from './types.js';

// Plain text and Markdown files (and text bodies given without a format). They render no preview: the text
// itself is what a viewer shows, and a stored copy of it would double every text document.

const MARKDOWN_EXTENSIONS = new Set(['.md', '.markdown', '.mdown', '.mkd']);
const MARKDOWN_TYPES = new Set(['text/markdown', 'text/x-markdown']);

/** Line ends normalized, trailing spaces and runs of blank lines dropped, indentation kept. */
function tidyLines(text: string): string {
  return text
    .replace(/^\ufeff/, '')
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

const FRONT_MATTER = /^(?:\ufeff)?---[ \t]*\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;
const FRONT_KEYS: Record<string, keyof PageMetadata | 'title'> = {
  title: 'title', author: 'author', authors: 'author', date: 'published', published: 'published', updated: 'modified', modified: 'modified',
  lastmod: 'modified', description: 'description', summary: 'description', lang: 'language', language: 'language',
};

/** YAML front matter's simple `key: value` lines; anything fancier stays in the text. */
function frontMatter(source: string): { body: string; title: string; metadata: PageMetadata } {
  const m = FRONT_MATTER.exec(source);
  if (!m) return { body: source, title: '', metadata: {} };
  let title = '';
  const metadata: Record<string, string> = {};
  for (const line of m[1]!.split(/\r?\n/)) {
    const kv = /^([A-Za-z_]+)\s*:\s*(.+?)\s*$/.exec(line);
    const key = kv ? FRONT_KEYS[kv[1]!.toLowerCase()] : undefined;
    if (!key) continue;
    const value = kv![2]!.replace(/^(["'])(.*)\1$/, '$2');
    if (key === 'title') title = value;
    else if (!metadata[key]) metadata[key] = value;
  }
  return { body: source.slice(m[0].length), title, metadata };
}

/** Title from the first ATX (# Title) or setext (Title / =====) heading. */
export function markdownHeading(text: string): string {
  const m = /^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$|^([^\n]+)\n\s{0,3}=+\s*$/m.exec(text);
  return (m?.[1] ?? m?.[2] ?? '').trim();
}

export function createMarkdownExtractor(): Extractor {
  return {
    name: 'markdown',
    capabilities: ['text', 'metadata'],
    matches: (input) => input.text !== undefined && (MARKDOWN_EXTENSIONS.has(input.extension ?? '') || MARKDOWN_TYPES.has(input.contentType ?? '')),
    run: (input) => {
      const { body, title, metadata } = frontMatter(input.text!);
      const text = tidyLines(body);
      return { status: 'success', result: { title: title || markdownHeading(text), text, metadata } };
    },
  };
}

export function createPlainTextExtractor(): Extractor {
  return {
    name: 'text',
    capabilities: ['text'],
    matches: (input) => input.text !== undefined,
    run: (input) => {
      const text = tidyText(input.text!.replace(/^\ufeff/, ''));
      return { status: 'success', result: { title: '', text } };
    },
  };
}

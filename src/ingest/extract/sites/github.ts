import { escapeText, sanitizeHtml } from '../../sanitize.js';
import { type DomDocument, type DomElement, all, attr, oneLine, textOf } from '../dom.js';
import type { ExtractContext, Extractor, Outcome } from '../types.js';

// github.com: a repository's README with its About text, and issue / pull-request conversations.
// Readability keeps only the README of a repository page and only the first comment of an issue.
// Both GitHub layouts are read: the server-rendered one (.js-comment-body, a.author) and the React
// one that marks parts with data-testid.

const ISSUE_PATH = /^\/[^/]+\/[^/]+\/(issues|pull|discussions)\/\d+/;

const COMMENT_BODIES = [
  '.js-comment-body',
  'td.comment-body',
  '[data-testid="issue-body"] .markdown-body',
  '[data-testid="markdown-body"]',
  '.react-issue-comment .markdown-body',
].join(', ');
const COMMENT_CONTAINERS = '.timeline-comment, .js-comment-container, .TimelineItem, [data-testid="issue-body"], .react-issue-comment, [data-testid^="comment-viewer"]';
const COMMENT_AUTHORS = 'a.author, [data-testid="issue-body-header-author"], [data-testid="avatar-link"], a[data-hovercard-type="user"]';

interface Comment {
  author: string | undefined;
  at: string | undefined;
  body: DomElement;
}

function comments(doc: DomDocument): Comment[] {
  const seen = new Set<DomElement>();
  const out: Comment[] = [];
  for (const body of all(doc, COMMENT_BODIES)) {
    // A comment body nested in one already taken (the React layout repeats markdown-body) is the same comment.
    if ([...seen].some((s) => s === body || isInside(body, s))) continue;
    seen.add(body);
    const box = body.closest(COMMENT_CONTAINERS);
    const author = oneLine(box?.querySelector(COMMENT_AUTHORS)?.textContent) || undefined;
    out.push({ author, at: attr(box?.querySelector('relative-time'), 'datetime'), body });
  }
  return out;
}

function isInside(node: DomElement, ancestor: DomElement): boolean {
  for (let p = node.parentNode; p; p = p.parentNode) if (p === ancestor) return true;
  return false;
}

function issueTitle(doc: DomDocument): string {
  const heading = doc.querySelector('.js-issue-title, [data-testid="issue-title"], .gh-header-title .markdown-title, h1 bdi');
  return oneLine(heading?.textContent);
}

function issue(doc: DomDocument, url: URL, ctx: ExtractContext): Outcome {
  const found = comments(doc);
  if (found.length === 0) return { status: 'next', reason: 'no comments found on the issue page' };
  const title = issueTitle(doc);
  const state = oneLine(doc.querySelector('.State, [data-testid="header-state"]')?.textContent);
  const parts = found.map((c) => `${c.author ? `${c.author}${c.at ? ` (${c.at})` : ''}:\n` : ''}${textOf(c.body)}`);
  const heading = [title, state ? `[${state}]` : ''].filter(Boolean).join(' ');
  const html = found.map((c) => `<section>${c.author ? `<h3>${escapeText(c.author)}</h3>` : ''}${sanitizeHtml(c.body, url)}</section>`).join('\n');
  return {
    status: 'success',
    result: {
      title: ctx.title || title,
      text: [heading, ...parts].filter(Boolean).join('\n\n'),
      html,
      metadata: { author: found[0]!.author, published: found[0]!.at, type: 'issue' },
    },
  };
}

function repository(doc: DomDocument, url: URL, ctx: ExtractContext): Outcome {
  const readme = doc.querySelector('#readme article.markdown-body, [data-testid="readme"] article, article.markdown-body[itemprop="text"], article.markdown-body');
  const about = oneLine(doc.querySelector('.BorderGrid-cell p.f4, [itemprop="about"], .repository-content p.f4')?.textContent);
  const topics = all(doc, 'a.topic-tag').map((a) => oneLine(a.textContent)).filter(Boolean);
  if (!readme && !about) return { status: 'next', reason: 'no README or About text on the page' };
  const text = [about, topics.length ? `Topics: ${topics.join(', ')}` : '', readme ? textOf(readme) : ''].filter(Boolean).join('\n\n');
  const owner = url.pathname.split('/')[1];
  return {
    status: 'success',
    result: {
      title: ctx.title,
      text,
      html: readme ? sanitizeHtml(readme, url) : null,
      metadata: { description: about || undefined, author: owner || undefined, site_name: 'GitHub', type: 'repository' },
    },
  };
}

export function createGithubExtractor(): Extractor {
  return {
    name: 'github',
    capabilities: ['text', 'metadata', 'preview'],
    matches: (input) => input.html !== undefined && /^(www\.)?github\.com$/i.test(input.url.hostname),
    run: (input, ctx) => (ISSUE_PATH.test(input.url.pathname) ? issue : repository)(ctx.document(), input.url, ctx),
  };
}

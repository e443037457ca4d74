import { escapeText, sanitizeHtml } from '../../sanitize.js';
import { type DomDocument, type DomElement, all, attr, oneLine, textOf } from '../dom.js';
import type { Extractor } from '../types.js';

// Stack Overflow and the Stack Exchange network: the question and every answer (readability keeps one
// of them), each answer with its score and whether it was accepted.

const HOSTS = /(^|\.)(stackoverflow\.com|stackexchange\.com|superuser\.com|serverfault\.com|askubuntu\.com|mathoverflow\.net|stackapps\.com)$/i;

interface Post {
  body: DomElement;
  author: string | undefined;
  at: string | undefined;
  score: string | undefined;
  accepted: boolean;
}

function post(box: DomElement): Post | undefined {
  const body = box.querySelector('.js-post-body, .s-prose, .post-text, [itemprop="text"]');
  if (!body) return undefined;
  // The last signature names the author; an earlier one may be the last editor.
  const signatures = all(box, '.post-signature');
  const owner = box.querySelector('.post-signature.owner') ?? signatures[signatures.length - 1];
  const vote = box.querySelector('.js-vote-count');
  return {
    body,
    author: oneLine(owner?.querySelector('.user-details a, [itemprop="author"] [itemprop="name"]')?.textContent) || undefined,
    at: attr(box.querySelector('time[itemprop="dateCreated"]'), 'datetime') ?? attr(owner?.querySelector('.relativetime'), 'title'),
    score: attr(box, 'data-score') ?? attr(vote, 'data-value') ?? (oneLine(vote?.textContent) || undefined),
    accepted: /\baccepted-answer\b/.test(box.getAttribute('class') ?? '') || box.getAttribute('itemprop') === 'acceptedAnswer',
  };
}

function answerHeading(a: Post): string {
  const facts = [a.score !== undefined ? `score ${a.score}` : '', a.accepted ? 'accepted' : '', a.author ? `by ${a.author}` : ''].filter(Boolean);
  return `Answer${facts.length ? ` (${facts.join(', ')})` : ''}`;
}

function questionTitle(doc: DomDocument): string {
  return oneLine(doc.querySelector('#question-header h1, h1[itemprop="name"], .question-hyperlink')?.textContent);
}

export function createStackExchangeExtractor(): Extractor {
  return {
    name: 'stackexchange',
    capabilities: ['text', 'metadata', 'preview'],
    matches: (input) => input.html !== undefined && HOSTS.test(input.url.hostname) && /\/questions\/\d+/.test(input.url.pathname),
    run: (input, ctx) => {
      const doc = ctx.document();
      const questionBox = doc.querySelector('#question, .question');
      const question = questionBox ? post(questionBox) : undefined;
      if (!question) return { status: 'next', reason: 'no question body on the page' };
      const answers = all(doc, '.answer, [itemprop="suggestedAnswer"], [itemprop="acceptedAnswer"]')
        .filter((box, i, list) => list.indexOf(box) === i)
        .map(post)
        .filter((a): a is Post => a !== undefined);
      const title = questionTitle(doc);
      const text = [title, textOf(question.body), ...answers.map((a) => `${answerHeading(a)}:\n${textOf(a.body)}`)].filter(Boolean).join('\n\n');
      const html = [
        `<section>${sanitizeHtml(question.body, input.url)}</section>`,
        ...answers.map((a) => `<section><h2>${escapeText(answerHeading(a))}</h2>${sanitizeHtml(a.body, input.url)}</section>`),
      ].join('\n');
      return {
        status: 'success',
        result: {
          title: title || ctx.title,
          text,
          html,
          metadata: { author: question.author, published: question.at, type: 'question' },
        },
      };
    },
  };
}

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { extractPage, fixture } from './fixtures.js';

describe('site-aware extractors', () => {
  test('GitHub repository: About, topics and README, without the file list and page chrome', async () => {
    const r = await extractPage(fixture('github-repo.html'), 'https://github.com/octo/widget');
    assert.equal(r.extractor, 'github');
    assert.equal(r.title, 'GitHub - octo/widget: A tiny widget library for dashboards');
    assert.match(r.text, /^A tiny widget library for dashboards\n\nTopics: dashboard, charts\n\nwidget\n\nWidget draws gauges/);
    assert.match(r.text, /npm install @octo\/widget/);
    for (const chrome of ['Pricing', 'Sign in', 'Bump version', 'Privacy']) assert.ok(!r.text.includes(chrome), chrome);
    assert.equal(r.metadata.type, 'repository');
    assert.equal(r.metadata.author, 'octo');
    assert.match(r.html ?? '', /<h1>widget<\/h1>/);
  });

  test('GitHub issue: title, state and every comment with its author', async () => {
    const r = await extractPage(fixture('github-issue.html'), 'https://github.com/octo/widget/issues/42');
    assert.equal(r.extractor, 'github');
    assert.equal(r.title, 'Gauge crashes with negative values · Issue #42 · octo/widget');
    const lines = r.text.split('\n\n');
    assert.equal(lines[0], 'Gauge crashes with negative values [Open]');
    assert.equal(lines[1], 'alice (2024-05-01T10:00:00Z):\nRendering a gauge with min: -10 throws a RangeError in the arc renderer.');
    assert.match(r.text, /bob \(2024-05-02T11:00:00Z\):\nConfirmed on 2\.1\.0/);
    assert.match(r.text, /carol .*\nFixed in the clamping patch/);
    assert.equal(r.metadata.author, 'alice');
    assert.equal(r.metadata.published, '2024-05-01T10:00:00Z');
  });

  test('GitHub issue in the React layout (data-testid)', async () => {
    const html = `<html><head><title>Crash · Issue #7 · o/r</title></head><body><main>
      <h1><bdi data-testid="issue-title">Crash on start</bdi></h1>
      <div data-testid="issue-body"><a data-testid="issue-body-header-author" href="/zed">zed</a><relative-time datetime="2025-01-01T00:00:00Z"></relative-time>
        <div data-testid="markdown-body" class="markdown-body"><p>It crashes when the config is empty.</p></div></div>
      <div class="react-issue-comment"><a data-testid="avatar-link" href="/yan">yan</a><div class="markdown-body" data-testid="markdown-body"><p>Same here.</p></div></div>
      </main></body></html>`;
    const r = await extractPage(html, 'https://github.com/o/r/issues/7');
    assert.equal(r.extractor, 'github');
    assert.equal(r.text, 'Crash on start\n\nzed (2025-01-01T00:00:00Z):\nIt crashes when the config is empty.\n\nyan:\nSame here.');
  });

  test('a GitHub page it does not know falls back to the article extractors', async () => {
    const r = await extractPage('<html><head><title>Settings</title></head><body><p>Nothing here.</p></body></html>', 'https://github.com/settings/profile');
    assert.notEqual(r.extractor, 'github');
    assert.equal(r.skipped[0]!.extractor, 'github');
  });

  test('Wikipedia: the article without edit links, footnote markers, contents, navboxes and references', async () => {
    const r = await extractPage(fixture('wikipedia.html'), 'https://en.wikipedia.org/wiki/Sea_otter');
    assert.equal(r.extractor, 'wikipedia');
    assert.equal(r.title, 'Sea otter', 'the heading, not the JSON-LD headline');
    assert.match(r.text, /marine mammal native to the coasts of the northern and eastern North Pacific Ocean\. Adult sea otters/);
    assert.match(r.text, /Description\n\nThe sea otter has the densest fur/);
    for (const noise of ['[1]', '[2]', '[edit]', 'Contents', 'navigation box', 'Reference one', 'Jump to content', 'Random article', 'Categories', 'last edited']) {
      assert.ok(!r.text.includes(noise), noise);
    }
    assert.match(r.metadata.description ?? '', /^The sea otter \(Enhydra lutris\) is a marine mammal/);
    assert.equal(r.metadata.language, 'en');
  });

  test('Stack Overflow: the question and every answer with score, acceptance and author', async () => {
    const r = await extractPage(fixture('stackoverflow.html'), 'https://stackoverflow.com/questions/11409895/how-do-i-clamp');
    assert.equal(r.extractor, 'stackexchange');
    assert.equal(r.title, 'How do I clamp a number between two values?');
    assert.equal(
      r.text,
      [
        'How do I clamp a number between two values?',
        'I have a value x and want it to stay within min and max. Is there a built-in clamp function?',
        'Answer (score 30, accepted, by erin):\nUse Math.min(Math.max(x, min), max); it handles every number.',
        'Answer (score 4, by frank):\nNewer runtimes may ship a clamp proposal; until then write a helper.',
      ].join('\n\n'),
    );
    assert.equal(r.metadata.author, 'dana');
    assert.equal(r.metadata.type, 'question');
    assert.equal(r.metadata.site_name, 'Stack Overflow');
  });

  test('site extractors only match their hosts', async () => {
    const r = await extractPage(fixture('stackoverflow.html'), 'https://mirror.example.com/questions/11409895/how-do-i-clamp');
    assert.ok(!['stackexchange', 'github', 'wikipedia'].includes(r.extractor));
  });
});

import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { App } from '../../src/app.js';
import { TroveError } from '../../src/errors.js';
import { addContent, addContents, addTargets, showDocument } from '../../src/service/documents.js';
import { searchDocuments } from '../../src/service/search.js';
import type { SqliteStore } from '../../src/store/sqlite/store.js';
import { testApp } from '../helpers.js';
import { makePdf } from '../ingest/extract/pdf-maker.js';
import { fixture } from '../ingest/extract/fixtures.js';

const DE = 'Der Seeotter ist ein Meeressäugetier, das an den Küsten des nördlichen Pazifiks lebt. Er hat das dichteste Fell aller Tiere und verbringt viel Zeit mit der Fellpflege.';

describe('extraction through addContent', () => {
  let t: { app: App; dir: string; cleanup: () => Promise<void> };
  before(() => {
    t = testApp();
  });
  after(async () => {
    await t?.cleanup();
  });

  const search = async (query: string) => (await searchDocuments(t.app, { query, limit: 10 })).results.map((r) => r.url);
  const storedHtml = (id: string) =>
    ((t.app.store as SqliteStore).database.prepare('SELECT v.html FROM versions v JOIN documents d ON d.current_version_id = v.id WHERE d.id = ?').pluck().get(id) as string | null);

  test('an article: extracted text is searchable, metadata and language stored, the preview sanitized', async () => {
    const r = await addContent(t.app, { url: 'https://gazette.example.com/2024/otters', html: fixture('article.html'), source: 'test' });
    assert.equal(r.status, 'added');
    const doc = r.document as unknown as Record<string, any>;
    assert.equal(doc.title, 'How Otters Keep Warm');
    assert.equal(doc.language, 'en');
    assert.equal(doc.metadata.author, 'Jane Marsh');
    assert.equal(doc.metadata.extractor, 'article');
    assert.equal(doc.metadata.site_name, 'The River Gazette');
    assert.deepEqual(await search('urchins'), ['https://gazette.example.com/2024/otters']);
    assert.deepEqual(await search('Subscribe'), [], 'the footer form is not indexed');
    assert.deepEqual(await search('tracker'), [], 'scripts are not indexed');
    const html = storedHtml(r.document.id)!;
    assert.match(html, /<p>Their metabolism also runs hot\./);
    assert.match(html, /data-src="https:\/\/gazette\.example\.com\/images\/otter\.jpg"/);
    assert.ok(!/<script|onerror|\ssrc=|\shref=|<iframe|<form/i.test(html), html);
  });

  test('the language: filter finds documents by detected language', async () => {
    await addContent(t.app, { url: 'https://zeitung.example.de/otter', html: `<html lang="de"><head><title>Seeotter</title></head><body><article><p>${DE}</p><p>${DE}</p></article></body></html>`, source: 'test' });
    await addContent(t.app, { url: 'https://notes.example.org/short', text: 'Seeotter ok', source: 'test' });
    assert.deepEqual(await search('Seeotter language:de'), ['https://zeitung.example.de/otter']);
    assert.deepEqual(await search('language:unknown Seeotter'), ['https://notes.example.org/short']);
    assert.deepEqual(await search('urchins language:de'), []);
  });

  test('site-aware extraction from the URL: every Stack Overflow answer is searchable', async () => {
    const r = await addContent(t.app, { url: 'https://stackoverflow.com/questions/11409895/how-do-i-clamp', html: fixture('stackoverflow.html'), source: 'test' });
    assert.equal((r.document.metadata as Record<string, unknown>).extractor, 'stackexchange');
    assert.deepEqual(await search('proposal helper'), ['https://stackoverflow.com/questions/11409895/how-do-i-clamp']);
  });

  test('a caller-given title wins; text inputs get a language and no preview', async () => {
    const r = await addContent(t.app, { url: 'https://notes.example.org/de', title: 'Mein Titel', text: DE, source: 'test' });
    assert.equal(r.document.title, 'Mein Titel');
    assert.equal(r.document.language, 'de');
    assert.equal(storedHtml(r.document.id), null);
  });

  test('a text fetched from the web is read by its URL name or media type', async () => {
    const code = 'def clamp(x, lo, hi):\n    return max(lo, min(x, hi))\n';
    const py = await addContent(t.app, { url: 'https://raw.example.org/lib/clamp.py', text: code, source: 'test' });
    assert.equal(py.document.language, 'python');
    assert.equal((await showDocument(t.app, py.document.id)).text, code);
    const md = await addContent(t.app, { url: 'https://notes.example.org/readme', text: '# Release notes\n\nFaster clamps.', contentType: 'text/markdown', source: 'test' });
    assert.equal(md.document.title, 'Release notes');
    assert.equal((md.document.metadata as Record<string, unknown>).extractor, 'markdown');
  });

  test('binary posing as HTML is refused and stores nothing', async () => {
    const before = (await searchDocuments(t.app, { query: '*', limit: 50 })).total;
    await assert.rejects(addContents(t.app, [{ url: 'https://bin.example/x', html: 'PK\u0003\u0004\u0000\u0000binary', source: 'test' }]), (e: unknown) => e instanceof TroveError && e.code === 'UNSUPPORTED_TYPE');
    assert.equal((await searchDocuments(t.app, { query: '*', limit: 50 })).total, before);
  });

  test('files: source code keeps its lines and names its language; Markdown and PDF are read', async () => {
    const dir = join(t.dir, 'files');
    mkdirSync(dir, { recursive: true });
    const code = 'package main\n\nfunc  main() {\n\tprintln("gopher")\n}\n';
    writeFileSync(join(dir, 'main.go'), code);
    writeFileSync(join(dir, 'notes.md'), '---\ntitle: Otter notes\nauthor: Ada\n---\n# Ignored heading\n\nOtters sleep holding hands.\n');
    writeFileSync(join(dir, 'facts.pdf'), makePdf(['Walruses use their tusks to haul out onto ice.'], { Title: 'Walrus facts' }));
    const out = await addTargets(t.app, [dir], { source: 'test' });
    assert.deepEqual(out.map((o) => o.error?.code ?? o.result?.status), ['added', 'added', 'added']);
    const [pdf, go, md] = out.map((o) => o.result!.document);
    assert.equal(go!.title, 'main.go');
    assert.equal(go!.language, 'go');
    assert.equal((await showDocument(t.app, go!.id)).text, code);
    assert.equal(md!.title, 'Otter notes');
    assert.equal((md!.metadata as Record<string, unknown>).author, 'Ada');
    assert.equal(pdf!.title, 'Walrus facts');
    assert.equal((pdf!.metadata as Record<string, unknown>).extractor, 'pdf');
    assert.deepEqual(await search('tusks'), [pdf!.url]);
    assert.deepEqual(await search('gopher language:go'), [go!.url]);
  });
});

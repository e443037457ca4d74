import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { TroveError } from '../../../src/errors.js';
import { createExtractors, extract } from '../../../src/ingest/extract/index.js';
import { pdfDate } from '../../../src/ingest/extract/pdf.js';
import { makePdf } from './pdf-maker.js';

const ex = createExtractors();
const file = (name: string) => new URL(`file:///notes/${name}`);

describe('text files', () => {
  test('Markdown: front matter becomes metadata, the first heading the title, lines kept', async () => {
    const md = '---\ntitle: "Field notes"\nauthor: Ada\ndate: 2024-02-03\ndescription: Otters at dawn\ntags: [a, b]\n---\n# Heading one\n\n- item one\n- item two\n\n    indented code\n';
    const r = await extract({ url: file('notes.md'), text: md, extension: '.md' }, ex);
    assert.equal(r.extractor, 'markdown');
    assert.equal(r.title, 'Field notes');
    assert.deepEqual(r.metadata, { author: 'Ada', published: '2024-02-03', description: 'Otters at dawn' });
    assert.equal(r.text, '# Heading one\n\n- item one\n- item two\n\n    indented code');
    const plain = await extract({ url: file('b.md'), text: 'Setext Title\n============\n\nbody', extension: '.md' }, ex);
    assert.equal(plain.title, 'Setext Title');
  });

  test('plain text: spaces tidied, paragraphs kept, no title of its own', async () => {
    const r = await extract({ url: file('a.txt'), text: 'one  two\r\n\r\n\r\n\r\nthree\t four', extension: '.txt' }, ex);
    assert.equal(r.extractor, 'text');
    assert.equal(r.text, 'one two\n\nthree four');
    assert.equal(r.title, '');
    assert.equal(r.html, null, 'text renders no preview of its own');
  });

  test('source code: lines and indentation kept exactly, language from the extension', async () => {
    const code = 'def f(x):\r\n    if x < 1:\r\n\treturn "<b>"  \r\n\r\n\r\n\r\n    return x\n';
    const r = await extract({ url: file('f.py'), text: code, extension: '.py' }, ex);
    assert.equal(r.extractor, 'code');
    assert.equal(r.codeLanguage, 'python');
    assert.equal(r.text, 'def f(x):\n    if x < 1:\n\treturn "<b>"  \n\n\n\n    return x\n');
    for (const [ext, lang] of [['.ts', 'typescript'], ['.go', 'go'], ['.rs', 'rust'], ['.h', 'c'], ['.cpp', 'cpp'], ['.sh', 'shell'], ['.yaml', 'yaml'], ['.json', 'json'], ['.SQL', 'sql']] as const) {
      assert.equal((await extract({ url: file(`x${ext}`), text: 'x', extension: ext }, ex)).codeLanguage, lang, ext);
    }
  });

  test('binary posing as text is UNSUPPORTED_TYPE; text with a few control characters is text', async () => {
    await assert.rejects(extract({ url: file('x.txt'), text: 'ab\u0000cd', extension: '.txt' }, ex), (e: unknown) => e instanceof TroveError && e.code === 'UNSUPPORTED_TYPE');
    const random = Buffer.from(Array.from({ length: 2048 }, (_, i) => (i * 7919 + 13) % 256)).toString('latin1').replace(/\u0000/g, '');
    await assert.rejects(extract({ url: file('y.txt'), text: random, extension: '.txt' }, ex), (e: unknown) => e instanceof TroveError && /looks binary/.test(e.message));
    const log = Array.from({ length: 50 }, (_, i) => `\u001b[32mINFO\u001b[0m request ${i} served in 3 ms`).join('\n');
    assert.match((await extract({ url: file('app.log.txt'), text: log, extension: '.txt' }, ex)).text, /request 49 served/);
  });
});

describe('PDF (unpdf)', () => {
  test('text, title, author and dates of a PDF', async () => {
    const bytes = makePdf(['Otters hold hands while they sleep.', 'Second line of the PDF.'], { Title: 'Otter facts', Author: 'Ada Lovelace', CreationDate: "D:20240102030405+01'00'" });
    const r = await extract({ url: file('otters.pdf'), bytes, contentType: 'application/pdf', extension: '.pdf' }, ex);
    assert.equal(r.extractor, 'pdf');
    assert.equal(r.title, 'Otter facts');
    assert.match(r.text, /Otters hold hands while they sleep\.\s+Second line of the PDF\./);
    assert.equal(r.metadata.author, 'Ada Lovelace');
    assert.equal(r.metadata.published, '2024-01-02T02:04:05.000Z');
    assert.equal(r.metadata.type, 'pdf');
  });

  test('a corrupt PDF is MALFORMED_INPUT', async () => {
    await assert.rejects(
      extract({ url: file('bad.pdf'), bytes: Buffer.from('%PDF-1.4 this is not really a pdf'), extension: '.pdf' }, ex),
      (e: unknown) => e instanceof TroveError && e.code === 'MALFORMED_INPUT' && /bad\.pdf/.test(e.message),
    );
  });

  test('PDF dates', () => {
    assert.equal(pdfDate('D:20240102'), '2024-01-02T00:00:00.000Z');
    assert.equal(pdfDate("D:20240102030405-05'30'"), '2024-01-02T08:34:05.000Z');
    assert.equal(pdfDate('D:20240102030405Z'), '2024-01-02T03:04:05.000Z');
    assert.equal(pdfDate('yesterday'), undefined);
    assert.equal(pdfDate(42), undefined);
  });
});

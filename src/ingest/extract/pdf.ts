import { TroveError } from '../../errors.js';
import { tidyText } from './dom.js';
import type { Extractor, PageMetadata } from './types.js';

// PDF text through unpdf (a dependency-free build of pdf.js that runs on Node 20), loaded on first use.

type Unpdf = typeof import('unpdf');

async function loadUnpdf(): Promise<Unpdf> {
  const unpdf = await import('unpdf');
  // pdf.js prints with console.log while it loads (a warning that it is not its Node build, harmless for text
  // extraction), and stdout carries the MCP protocol over stdio: drop that warning, send anything else to stderr.
  const log = console.log;
  console.log = (...args: unknown[]) => {
    if (!/legacy. build/.test(String(args[0]))) console.error(...args);
  };
  try {
    await unpdf.getResolvedPDFJS();
  } finally {
    console.log = log;
  }
  return unpdf;
}

/** A PDF date (D:YYYYMMDDHHmmSS+hh'mm') as ISO 8601; undefined when unreadable. */
export function pdfDate(raw: unknown): string | undefined {
  if (typeof raw !== 'string') return undefined;
  const m = /^(?:D:)?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?(Z|[+-]\d{2}'?\d{2}'?)?/.exec(raw.trim());
  if (!m) return undefined;
  const [, y, mo = '01', d = '01', h = '00', mi = '00', s = '00', zone] = m;
  const tz = !zone || zone === 'Z' ? 'Z' : `${zone.slice(0, 3)}:${zone.replace(/'/g, '').slice(3, 5) || '00'}`;
  const date = new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}${tz}`);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

function info(meta: Record<string, unknown>): { title: string; metadata: PageMetadata } {
  const str = (k: string) => (typeof meta[k] === 'string' && (meta[k] as string).trim()) || undefined;
  return {
    title: str('Title') ?? '',
    metadata: { author: str('Author'), published: pdfDate(meta['CreationDate']), modified: pdfDate(meta['ModDate']), description: str('Subject'), type: 'pdf' },
  };
}

function isPdf(input: { bytes?: Uint8Array | undefined; contentType?: string | undefined; extension?: string | undefined }): boolean {
  return input.bytes !== undefined && (input.contentType === 'application/pdf' || input.extension === '.pdf');
}

export function createPdfExtractor(): Extractor {
  return {
    name: 'pdf',
    capabilities: ['text', 'metadata'],
    matches: isPdf,
    run: async (input) => {
      const { getDocumentProxy, extractText, getMeta } = await loadUnpdf();
      const where = input.url.href;
      let pdf;
      try {
        // A copy: pdf.js takes ownership of (detaches) the buffer it is given.
        pdf = await getDocumentProxy(new Uint8Array(input.bytes!), { verbosity: 0, isEvalSupported: false, disableFontFace: true, useSystemFonts: false });
      } catch (err) {
        const name = (err as Error).name;
        const why = name === 'PasswordException' ? 'it is password-protected' : `it is not a readable PDF (${(err as Error).message})`;
        throw new TroveError('MALFORMED_INPUT', `cannot read ${where}: ${why}`, { url: where });
      }
      try {
        const [{ text }, meta] = await Promise.all([extractText(pdf, { mergePages: false }), getMeta(pdf)]);
        const body = tidyText(text.join('\n\n'));
        const { title, metadata } = info((meta.info ?? {}) as Record<string, unknown>);
        return { status: 'success', result: { title, text: body, metadata } };
      } finally {
        await pdf.destroy();
      }
    },
  };
}

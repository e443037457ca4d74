import type { JobSpec } from '../operations/jobs.js';
import type { AriaParams } from '../operations/params.js';
import { withStoredPage } from './browser.js';
import { requireRenderer } from './host.js';
import { INSPECTION_RESULT_BYTES, fitCodePoints } from './limits.js';
import { markTarget } from './select.js';
import { resolveRenderTarget } from './target.js';
import { baseFor, publicUrl } from './urls.js';

// inspect_accessibility: Playwright's ARIA snapshot (YAML) of the first element the selector matches.

/** `- /url: ...` lines keep http(s) URLs without credentials, query or fragment; other URLs are left out. */
export function cleanSnapshotUrls(snapshot: string, base: string | undefined): string {
  return snapshot
    .split('\n')
    .flatMap((line) => {
      const m = /^(\s*- \/url: )(.*)$/.exec(line);
      if (!m) return [line];
      let raw = m[2]!.trim();
      if (raw.startsWith('"')) {
        try {
          raw = JSON.parse(raw) as string;
        } catch {
          return [];
        }
      }
      const url = publicUrl(raw, base);
      return url ? [`${m[1]}${url}`] : [];
    })
    .join('\n');
}

export const ARIA_JOB: JobSpec = {
  async check(app, caller, params, state) {
    requireRenderer(app);
    await resolveRenderTarget(app, caller, params as unknown as AriaParams, state);
  },

  async run(app, caller, params, ctx, state) {
    const p = params as unknown as AriaParams;
    const target = await resolveRenderTarget(app, caller, p, state);
    const view = { width: p.width, height: p.height, deviceScaleFactor: p.deviceScaleFactor };
    const snapshot = await withStoredPage(app, target, view, ctx.signal, async (tab) => {
      const root = await markTarget(tab, p.selector);
      if (!root) return undefined;
      const pageBase = (await tab.evaluate('document.baseURI')) as string;
      return cleanSnapshotUrls(await root.ariaSnapshot(), baseFor(pageBase, target.document.url));
    });
    const trusted: Record<string, unknown> = {
      inspection: 'accessibility', documentId: target.document.id, versionId: target.versionId,
      viewport: { width: p.width, height: p.height }, deviceScaleFactor: p.deviceScaleFactor, matched: snapshot !== undefined,
    };
    if (snapshot === undefined) return { trusted: { ...trusted, totalCharacters: 0, truncated: false }, untrusted: [] };
    const fitted = fitCodePoints(snapshot, p.maxCharacters, INSPECTION_RESULT_BYTES);
    return {
      trusted: { ...trusted, totalCharacters: fitted.total, returnedCharacters: fitted.kept, truncated: fitted.truncated },
      untrusted: [{ source_type: 'aria_snapshot', fields: { snapshot: fitted.text } }],
    };
  },
};

import { createHash } from 'node:crypto';
import { TroveError } from '../../errors.js';
import type { JobSpec } from '../operations/jobs.js';
import type { RenderParams } from '../operations/params.js';
import { operationUris } from '../operations/service.js';
import { withStoredPage } from './browser.js';
import { requireRenderer } from './host.js';
import { pngSize } from './png.js';
import { resolveRenderTarget } from './target.js';

// capture_screenshot: the stored page's viewport as a PNG, kept as an artifact of the operation.

export const MAX_PNG_BYTES = 4 * 1024 * 1024;

export const SCREENSHOT_JOB: JobSpec = {
  async check(app, caller, params, state) {
    requireRenderer(app);
    await resolveRenderTarget(app, caller, params as unknown as RenderParams, state);
  },

  async run(app, caller, params, ctx, state) {
    const p = params as unknown as RenderParams;
    const target = await resolveRenderTarget(app, caller, p, state);
    const view = { width: p.width, height: p.height, deviceScaleFactor: p.deviceScaleFactor };
    const png = await withStoredPage(app, target, view, ctx.signal, (tab) => tab.screenshot({ type: 'png', animations: 'disabled', caret: 'hide', scale: 'device' }));
    if (png.length > MAX_PNG_BYTES) throw new TroveError('RESULT_TOO_LARGE', `the PNG is ${png.length} bytes; at most ${MAX_PNG_BYTES} are kept`, { max_bytes: MAX_PNG_BYTES });
    const size = pngSize(png);
    const artifactId = ctx.addArtifact('image/png', png);
    return {
      trusted: {
        documentId: target.document.id, versionId: target.versionId,
        viewport: { width: p.width, height: p.height }, deviceScaleFactor: p.deviceScaleFactor,
        width: size.width, height: size.height, mimeType: 'image/png', bytes: png.length,
        sha256: createHash('sha256').update(png).digest('hex'),
        artifactId, artifactUri: operationUris.artifact(state.instanceId, artifactId),
      },
      untrusted: [],
    };
  },
};

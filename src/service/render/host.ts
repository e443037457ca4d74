import { accessSync, constants, statSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import type { App } from '../../app.js';
import type { TroveConfig } from '../../config/schema.js';
import { TroveError } from '../../errors.js';

// Where stored pages are rendered: the configured Chromium, and whether rendering is still allowed.

export interface RenderHost {
  readonly chromiumPath: string;
  /** Set when a browser was not confirmed closed within the cleanup deadline: rendering stays off until restart. */
  broken: string | undefined;
  /** The running Chromium, kept between jobs (each gets a fresh context) and closed when idle. */
  browser: Browser | undefined;
  idleTimer: NodeJS.Timeout | undefined;
}

export function createRenderHost(config: TroveConfig): RenderHost {
  return { chromiumPath: config.render.chromium_path, broken: undefined, browser: undefined, idleTimer: undefined };
}

export interface RenderCapability {
  available: boolean;
  /** Why not, and what to do about it. */
  reason?: string;
}

const INSTALL_HINT = 'install Chromium (Debian/Ubuntu: apt-get install chromium) or set render.chromium_path to a Chromium or Chrome executable';

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Whether capture_screenshot, inspect_dom and inspect_accessibility can run (get_status capabilities.inspection). */
export function renderCapability(app: Pick<App, 'render'>): RenderCapability {
  const { render } = app;
  if (render.broken) return { available: false, reason: render.broken };
  if (!render.chromiumPath || !executable(render.chromiumPath)) {
    return { available: false, reason: `no Chromium executable at ${JSON.stringify(render.chromiumPath)}: ${INSTALL_HINT}` };
  }
  return { available: true };
}

/** CAPABILITY_UNAVAILABLE naming what to install when rendering cannot run. */
export function requireRenderer(app: Pick<App, 'render'>): void {
  const cap = renderCapability(app);
  if (!cap.available) throw new TroveError('CAPABILITY_UNAVAILABLE', `stored-page rendering is unavailable: ${cap.reason}`, { capability: 'inspection' });
}

/** A failed browser launch, as the caller should see it. */
export function launchFailure(app: Pick<App, 'render'>, err: unknown): TroveError {
  const detail = err instanceof Error ? err.message.split('\n')[0]!.slice(0, 300) : 'unknown error';
  return new TroveError('CAPABILITY_UNAVAILABLE', `Chromium at ${JSON.stringify(app.render.chromiumPath)} did not start (${detail}); ${INSTALL_HINT}`, { capability: 'inspection' });
}

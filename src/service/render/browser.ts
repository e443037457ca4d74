import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { App } from '../../app.js';
import { TroveError } from '../../errors.js';
import { launchFailure, requireRenderer } from './host.js';

// A stored page in a fresh browser context of a headless Chromium with JavaScript and network off: the
// one way trove renders. The browser stays up between jobs and closes after a minute without one.

export const RENDER_DEADLINE_MS = 30_000;
export const CLEANUP_DEADLINE_MS = 10_000;
const IDLE_MS = 60_000;

// Flags for a closed network (no background traffic); the dead proxy on port 0 catches what request
// interception cannot see (link prefetch, preconnect), so nothing leaves the browser at all.
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--proxy-server=http://127.0.0.1:0',
  '--proxy-bypass-list=<-loopback>',
];

// Determinism beyond reducedMotion: no animations, transitions or caret blink. Page scripts are strings
// (bundlers rewrite functions with helpers a page lacks) and synchronous: with JavaScript off, an evaluation
// that awaits a timer or an animation frame never settles (Chromium closes the page).
const STILL_CSS = '*,*::before,*::after{animation:none!important;transition:none!important;caret-color:transparent!important}';
const STILL_SCRIPT = `(() => { const s = document.createElement('style'); s.textContent = ${JSON.stringify(STILL_CSS)}; (document.head || document.documentElement).appendChild(s); })()`;

export interface Viewport {
  width: number;
  height: number;
  deviceScaleFactor: number;
}

/** The stored HTML to render. */
export interface StoredPage {
  html: string;
}

function abortError(signal: AbortSignal): TroveError | Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error && reason.name === 'TimeoutError') {
    return new TroveError('DEADLINE_EXCEEDED', `rendering took longer than ${RENDER_DEADLINE_MS / 1000} s`, { deadline_ms: RENDER_DEADLINE_MS });
  }
  return reason instanceof Error ? reason : new Error('aborted');
}

/** Settles with `work`, or rejects as soon as `signal` aborts. */
function raced<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(abortError(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** True when `work` settled within the cleanup deadline. */
async function withinCleanup(work: Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), CLEANUP_DEADLINE_MS);
    timer.unref();
  });
  const ok = await Promise.race([work.then(() => true, () => true), late]);
  clearTimeout(timer);
  return ok;
}

/** Closes the browser; when that is not confirmed within the deadline, rendering is off until restart. */
export async function closeRenderer(app: App): Promise<void> {
  const host = app.render;
  clearTimeout(host.idleTimer);
  host.idleTimer = undefined;
  const browser = host.browser;
  host.browser = undefined;
  if (!browser) return;
  if (!(await withinCleanup(browser.close()))) {
    host.broken = `a Chromium process was not confirmed closed within ${CLEANUP_DEADLINE_MS / 1000} s; rendering is off until trove restarts`;
    app.log.error('render cleanup failed', { deadline_ms: CLEANUP_DEADLINE_MS });
  }
}

async function acquireBrowser(app: App): Promise<Browser> {
  const host = app.render;
  clearTimeout(host.idleTimer);
  host.idleTimer = undefined;
  if (host.browser?.isConnected()) return host.browser;
  const { chromium } = await import('playwright-core');
  let browser: Browser;
  try {
    browser = await chromium.launch({ executablePath: host.chromiumPath, args: CHROMIUM_ARGS, timeout: RENDER_DEADLINE_MS });
  } catch (err) {
    throw launchFailure(app, err);
  }
  browser.on('disconnected', () => {
    if (host.browser === browser) host.browser = undefined;
  });
  host.browser = browser;
  return browser;
}

function releaseBrowser(app: App): void {
  const host = app.render;
  host.idleTimer = setTimeout(() => void closeRenderer(app), IDLE_MS);
  host.idleTimer.unref();
}

async function openContext(browser: Browser, view: Viewport): Promise<BrowserContext> {
  const context = await browser.newContext({
    javaScriptEnabled: false,
    viewport: { width: view.width, height: view.height },
    deviceScaleFactor: view.deviceScaleFactor,
    timezoneId: 'UTC',
    locale: 'en-US',
    reducedMotion: 'reduce',
    colorScheme: 'light',
    serviceWorkers: 'block',
    acceptDownloads: false,
    offline: true,
  });
  // Every request is refused; a navigation is cancelled ('aborted') so the stored document stays in place.
  await context.route('**/*', (route) => route.abort(route.request().isNavigationRequest() ? 'aborted' : 'blockedbyclient').catch(() => undefined));
  return context;
}

async function loadPage(context: BrowserContext, page: StoredPage): Promise<Page> {
  const tab = await context.newPage();
  tab.setDefaultTimeout(RENDER_DEADLINE_MS);
  await tab.setContent(page.html, { waitUntil: 'load' });
  await tab.evaluate(STILL_SCRIPT);
  return tab;
}

/**
 * Renders `page` in a fresh context and runs `work` on it within the 30 s deadline; the context is closed
 * afterwards (10 s cleanup, else the browser goes too). `signal` is the operation's cancellation.
 */
export async function withStoredPage<T>(app: App, page: StoredPage, view: Viewport, signal: AbortSignal, work: (tab: Page) => Promise<T>): Promise<T> {
  requireRenderer(app);
  const deadline = AbortSignal.any([signal, AbortSignal.timeout(RENDER_DEADLINE_MS)]);
  const browser = await acquireBrowser(app);
  let context: BrowserContext | undefined;
  try {
    if (deadline.aborted) throw abortError(deadline);
    const opening = openContext(browser, view);
    // A context still opening when the deadline passes is closed once it exists.
    context = await raced(opening, deadline).catch((err: unknown) => {
      void opening.then((c) => c.close()).catch(() => undefined);
      throw err;
    });
    const tab = await raced(loadPage(context, page), deadline);
    return await raced(work(tab), deadline);
  } finally {
    if (context && !(await withinCleanup(context.close()))) await closeRenderer(app);
    if (app.render.browser) releaseBrowser(app);
  }
}

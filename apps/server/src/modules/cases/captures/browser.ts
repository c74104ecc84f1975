/**
 * One page captured with the server's Chromium (playwright-core driving the browser the operator names):
 * the MHTML snapshot, a full-page PNG, the page's text, the main response's headers and the final URL.
 *
 * Every request the browser makes goes through this capture's own guarded proxy (proxy.ts): no
 * loopback exception, no name resolved by the browser itself, no WebRTC outside the proxy, service
 * workers and downloads off, a fresh profile each time. The whole capture has a time limit and a byte
 * budget; a page taller than the screenshot limit is cut there and said so.
 */

import { CAPTURE_PREVIEW, type CaptureArtefactName, type CaptureFailure } from '@footprint/domain';
import { type Browser, chromium, type Response } from 'playwright-core';
import type { AddressGuard } from '../../../security/address-guard.ts';
import { REFUSED_HEADER, startCaptureProxy } from './proxy.ts';

export interface CaptureLimits {
  /** The whole capture, from the browser's start to the last artefact. */
  timeoutMs: number;
  /** Bytes the page may pull in, and the most any one artefact may hold. */
  maxBytes: number;
  /** The full-page screenshot is cut at this height (CSS pixels). */
  maxScreenshotHeight: number;
}

export interface CaptureEngineOptions extends CaptureLimits {
  executablePath: string;
  guard: AddressGuard;
  /** Appended to the browser's own User-Agent: the capture says who it is. */
  userAgentSuffix: string;
  now: () => Date;
}

export interface PageCapture {
  finalUrl: string;
  httpStatus: number | null;
  title: string;
  capturedAt: Date;
  browser: string;
  userAgent: string;
  files: Record<CaptureArtefactName, Buffer>;
  truncated: CaptureArtefactName[];
  /** The thumbnail of the page's first screen (CAPTURE_PREVIEW), when Chromium could draw it. */
  preview: Buffer | null;
}

export class CaptureFailed extends Error {
  constructor(
    readonly failure: CaptureFailure,
    detail: string,
  ) {
    super(detail);
  }
}

const VIEWPORT = { width: 1280, height: 800 };
const TEXT_MAX_CHARS = 2_000_000;
/**
 * How long a page whose document has arrived may take to load the rest before it is captured as it is
 * (at most a third of the capture's time limit).
 */
const LOAD_WAIT_MS = 15_000;
/**
 * The most the thumbnail may take (it is skipped past that, or past the capture's time limit). It
 * takes well under a second on an idle machine; on a loaded one the page's own screenshot has already
 * taken several, and a thumbnail skipped for want of a few more would leave the list without it for good.
 */
const PREVIEW_WAIT_MS = 10_000;

/** The main response's headers, status and redirects, as headers.json keeps them. */
async function headersOf(response: Response | null, finalUrl: string) {
  if (!response) return { url: finalUrl, status: null, status_text: null, headers: [], redirects: [] };
  const redirects: Array<{ url: string; status: number | null }> = [];
  let previous = response.request().redirectedFrom();
  while (previous) {
    const answer = await previous.response();
    redirects.unshift({ url: previous.url(), status: answer?.status() ?? null });
    previous = previous.redirectedFrom();
  }
  return {
    url: response.url(),
    status: response.status(),
    status_text: response.statusText(),
    headers: await response.headersArray(),
    redirects,
  };
}

/**
 * A navigation error as a capture failure. Past the deadline it is a timeout whatever the browser said:
 * on a loaded machine the browser may be closed at its limit (capturePage's timer) before the
 * navigation's own timer fires, and the navigation then fails as "closed", not "timed out".
 */
function failureOf(error: Error, refused: boolean, overBudget: boolean, deadline: number): CaptureFailed {
  if (refused) return new CaptureFailed('address_refused', error.message);
  if (overBudget) return new CaptureFailed('too_large', error.message);
  if (error.name === 'TimeoutError' || Date.now() >= deadline) {
    return new CaptureFailed('timeout', error.message);
  }
  return new CaptureFailed('unreachable', error.message);
}

async function takeArtefacts(
  browser: Browser,
  url: string,
  options: CaptureEngineOptions,
  proxy: Awaited<ReturnType<typeof startCaptureProxy>>,
  deadline: number,
): Promise<PageCapture> {
  const left = () => Math.max(1000, deadline - Date.now());
  const probe = await browser.newPage();
  const userAgent =
    `${String(await probe.evaluate('navigator.userAgent'))} ${options.userAgentSuffix}`.replace(
      /HeadlessChrome/g,
      'Chrome',
    );
  await probe.close();
  const context = await browser.newContext({
    viewport: VIEWPORT,
    userAgent,
    serviceWorkers: 'block',
    acceptDownloads: false,
    proxy: {
      server: proxy.server,
      username: proxy.username,
      password: proxy.password,
      bypass: '<-loopback>',
    },
  });
  const page = await context.newPage();
  let response: Response | null;
  // A page past the byte budget fails at once, not when the browser gives up waiting for it.
  const tooLarge = proxy.spent.then(() => {
    throw new CaptureFailed('too_large', 'the page pulled in more than CAPTURE_MAX_BYTES');
  });
  tooLarge.catch(() => undefined);
  try {
    response = await Promise.race([
      page.goto(url, { waitUntil: 'domcontentloaded', timeout: left() }),
      tooLarge,
    ]);
  } catch (error) {
    if (error instanceof CaptureFailed) throw error;
    throw failureOf(error as Error, proxy.refused.length > 0, proxy.overBudget(), deadline);
  }
  if (response?.headers()[REFUSED_HEADER]) throw new CaptureFailed('address_refused', 'refused by the guard');
  // The page's pictures and styles get time to arrive, then late requests a moment to settle; a page
  // whose last picture never comes, or that never goes quiet, is captured as it stands.
  const loadWait = Math.min(LOAD_WAIT_MS, options.timeoutMs / 3, left());
  const settled = async () => {
    await page.waitForLoadState('load', { timeout: loadWait }).catch(() => undefined);
    await page.waitForLoadState('networkidle', { timeout: Math.min(3000, left()) }).catch(() => undefined);
  };
  await Promise.race([settled(), tooLarge]);
  const capturedAt = options.now();
  const finalUrl = page.url();
  const title = (await page.title()).slice(0, 1000);
  const text = String(await page.evaluate('document.body ? document.body.innerText : ""')).slice(
    0,
    TEXT_MAX_CHARS,
  );
  const height = Number(await page.evaluate('document.documentElement.scrollHeight'));
  const truncated: CaptureArtefactName[] = [];
  const shotHeight = Math.min(Math.max(height, VIEWPORT.height), options.maxScreenshotHeight);
  if (height > options.maxScreenshotHeight) truncated.push('page.png');
  const png = await page.screenshot({
    fullPage: true,
    clip: { x: 0, y: 0, width: VIEWPORT.width, height: shotHeight },
    timeout: left(),
  });
  const cdp = await context.newCDPSession(page);
  const { data: mhtml } = (await cdp.send('Page.captureSnapshot', { format: 'mhtml' })) as { data: string };
  // The list's thumbnail: the first screen drawn at half its size. A convenience, not evidence: a
  // capture without one is still whole, so it gets what is left of the time limit, at most
  // PREVIEW_WAIT_MS, and is skipped rather than let the capture time out.
  const previewWait = Math.min(PREVIEW_WAIT_MS, deadline - Date.now());
  const preview =
    previewWait <= 0
      ? null
      : await Promise.race([
          cdp
            .send('Page.captureScreenshot', {
              format: 'jpeg',
              quality: 70,
              clip: { x: 0, y: 0, ...VIEWPORT, scale: CAPTURE_PREVIEW.width / VIEWPORT.width },
            })
            .then(({ data }) => Buffer.from(data, 'base64'))
            .catch(() => null),
          new Promise<null>((resolve) => setTimeout(() => resolve(null), previewWait).unref()),
        ]);
  const files: Record<CaptureArtefactName, Buffer> = {
    'page.mhtml': Buffer.from(mhtml, 'utf8'),
    'page.png': png,
    'page.txt': Buffer.from(text, 'utf8'),
    'headers.json': Buffer.from(`${JSON.stringify(await headersOf(response, finalUrl), null, 2)}\n`, 'utf8'),
  };
  if (Object.values(files).some((file) => file.length > options.maxBytes) || proxy.overBudget()) {
    throw new CaptureFailed('too_large', 'an artefact is larger than CAPTURE_MAX_BYTES');
  }
  return {
    finalUrl,
    httpStatus: response?.status() ?? null,
    title,
    capturedAt,
    browser: `Chromium ${browser.version()}`,
    userAgent,
    files,
    truncated,
    preview,
  };
}

/** Captures one page; throws CaptureFailed (with the reason the case page shows) when it cannot. */
export async function capturePage(
  url: string,
  options: CaptureEngineOptions,
  signal?: AbortSignal,
): Promise<PageCapture> {
  const deadline = Date.now() + options.timeoutMs;
  const proxy = await startCaptureProxy({ guard: options.guard, maxBytes: options.maxBytes });
  let browser: Browser | undefined;
  const timer = setTimeout(() => void browser?.close(), options.timeoutMs + 5000);
  const abort = () => void browser?.close();
  signal?.addEventListener('abort', abort, { once: true });
  try {
    browser = await chromium.launch({
      executablePath: options.executablePath,
      headless: true,
      timeout: options.timeoutMs,
      args: [
        // Every name is resolved by the proxy: the browser resolves none (the proxy is an IP literal).
        '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
        '--proxy-bypass-list=<-loopback>',
        '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
        '--webrtc-ip-handling-policy=disable_non_proxied_udp',
        '--dns-prefetch-disable',
        '--disable-background-networking',
        '--disable-dev-shm-usage',
      ],
    });
    return await takeArtefacts(browser, url, options, proxy, deadline);
  } catch (error) {
    // Stopped (the queue is closing and closed the browser): whatever the page did, the capture is
    // taken again, not failed.
    if (signal?.aborted) throw signal.reason ?? error;
    if (error instanceof CaptureFailed) throw error;
    if (Date.now() >= deadline) throw new CaptureFailed('timeout', (error as Error).message);
    throw new CaptureFailed('browser', (error as Error).message);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', abort);
    await browser?.close().catch(() => undefined);
    await proxy.close();
  }
}

import type { Locator, Page } from "@playwright/test";

/**
 * Frameworks' dev tool launchers, which a dev server paints over every page and which are no part of
 * the app: Next.js 15.2 and later's dev tools indicator (inside the shadow root of `nextjs-portal`,
 * which Playwright's screenshot style reaches), Next.js's earlier build indicator, Astro's dev
 * toolbar and Nuxt DevTools' container. Error overlays (`nextjs-portal`'s error dialog,
 * `vite-error-overlay`) stay in the shot: they are evidence.
 */
const devOverlaySelectors: ReadonlyArray<string> = [
  "#devtools-indicator",
  "#__next-build-watcher",
  "astro-dev-toolbar",
  "#nuxt-devtools-container",
];

/** The stylesheet a screenshot is taken with. */
const screenshotStyle = `${devOverlaySelectors.join(", ")} { visibility: hidden !important; }`;

/** Resolves once the page has painted what it holds now: after the frame that follows the next one. */
async function painted(page: Page): Promise<void> {
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
}

/** How every screenshot the harness takes is taken. */
const screenshotOptions = { animations: "disabled", caret: "hide", style: screenshotStyle } as const;

/** How long a failed test's page may take to give its screenshot: it may be hung. */
const failureShotTimeoutMs = 5_000;

/**
 * A PNG of the page's viewport, or of `element` alone, once the page has painted, with animations
 * stopped, the caret hidden and dev tool launchers out of the picture.
 */
export async function screenshotPng(page: Page, element?: Locator): Promise<Buffer> {
  await painted(page);
  return element === undefined ? page.screenshot(screenshotOptions) : element.screenshot(screenshotOptions);
}

/**
 * A failed test's page as the harness's screenshots show a page (without dev tool launchers), in
 * place of Playwright's own failure screenshot; undefined when the page cannot give one in time.
 */
export async function failureScreenshotPng(page: Page): Promise<Buffer | undefined> {
  try {
    return await page.screenshot({ ...screenshotOptions, timeout: failureShotTimeoutMs });
  } catch {
    return undefined;
  }
}

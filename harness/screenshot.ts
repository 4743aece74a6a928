import type { Locator, Page } from "@playwright/test";

/**
 * Dev tool launchers a dev server paints over every page (Next.js's indicators, Astro's toolbar,
 * Nuxt DevTools), hidden in screenshots; the style reaches into `nextjs-portal`'s shadow root.
 * Error overlays are not listed: they are evidence.
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
 * A PNG of the viewport, or of `element`, once painted, without animations, caret or dev tool launchers.
 * Waiting for `element` is bounded as the test's actions are (a proof's action timeout); the capture
 * itself is the harness's work, not the app's, and on a loaded machine can take longer than that
 * timeout, so only the test's timeout bounds it.
 */
export async function screenshotPng(page: Page, element?: Locator): Promise<Buffer> {
  await painted(page);
  if (element === undefined) return page.screenshot({ ...screenshotOptions, timeout: 0 });
  await element.waitFor({ state: "visible" });
  return element.screenshot({ ...screenshotOptions, timeout: 0 });
}

/** A failed test's page, shot like the others; undefined when the page cannot give one in time. */
export async function failureScreenshotPng(page: Page): Promise<Buffer | undefined> {
  try {
    return await page.screenshot({ ...screenshotOptions, timeout: failureShotTimeoutMs });
  } catch {
    return undefined;
  }
}

import { errors, type Locator, type Page } from "@playwright/test";

/** What `app.open()` waits for after navigating: a locator to be visible, or an expression to be truthy in the page. */
export type InteractiveSignal = Locator | string;

/** Where the signal was set: the config's `app.interactive`, or `app.open()`'s `until`. */
export type SignalSource = "app.interactive" | "until";

/** What to change when the wait times out, by where the signal was set. */
const remedies: Readonly<Record<SignalSource, string>> = {
  "app.interactive":
    "Check that app.interactive in the scenario config is an expression that becomes truthy once the page is interactive, or raise app.ready.timeout if the page takes longer",
  until: "Check the until passed to app.open(), or raise app.ready.timeout if the page takes longer",
};

/**
 * Waits until the page opened at `path` is interactive: a locator visible (`locator.waitFor()`), or
 * an expression truthy in the page (`page.waitForFunction`), for up to `timeoutMs`. Its errors say
 * what it waited for and where that was set.
 */
export async function waitInteractive(
  page: Page,
  signal: InteractiveSignal,
  source: SignalSource,
  path: string,
  timeoutMs: number,
): Promise<void> {
  const what = typeof signal === "string" ? `\`${signal}\` to be truthy in the page` : `${String(signal)} to be visible`;
  const from = source === "app.interactive" ? "app.interactive" : "app.open()'s until";
  try {
    if (typeof signal === "string") await page.waitForFunction(signal, undefined, { timeout: timeoutMs });
    else await signal.waitFor({ state: "visible", timeout: timeoutMs });
  } catch (error) {
    if (error instanceof errors.TimeoutError) {
      throw new Error(
        `app.open(${JSON.stringify(path)}) waited ${timeoutMs} ms for ${what} (${from}), and it never was. ${remedies[source]}.`,
        { cause: error },
      );
    }
    const detail = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw new Error(`app.open(${JSON.stringify(path)}) could not wait for ${what} (${from}): ${detail}`, { cause: error });
  }
}

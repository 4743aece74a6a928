import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import type { BrowserType } from "@playwright/test";

/** Where Playwright's own Chromium would be; loads Playwright lazily, so the install check can run without it. */
function playwrightChromium(): string {
  const { chromium } = createRequire(import.meta.url)("@playwright/test") as { readonly chromium: BrowserType };
  return chromium.executablePath();
}

/** Flags that keep Chromium quiet on a closed network and runnable as root in a container. */
export const chromiumArgs: ReadonlyArray<string> = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Names a Chromium or Chrome binary to use instead of the defaults. */
export const chromiumEnv = "SCENARIO_CHROMIUM";
const systemChromium = "/usr/bin/chromium";
/** Debian's headless shell (`chromium-headless-shell`): about a quarter less CPU than /usr/bin/chromium, but no window. */
export const headlessShell = "/usr/bin/chromium-headless-shell";
/**
 * The binary Debian's headless-shell script runs. The script stays the browser's parent (no
 * `exec`), so the binary is used directly: the pid Playwright kills is then the browser's own.
 */
export const headlessShellBinary = "/usr/lib/chromium/chromium-headless-shell";

/** Whether `path` is Debian's headless shell, the script or its binary. */
export const isHeadlessShell = (path: string | undefined) => path === headlessShell || path === headlessShellBinary;

export type ChromiumChoice =
  | { readonly found: true; readonly executablePath: string | undefined; readonly source: string }
  | { readonly found: false; readonly problem: string };

/**
 * Picks the browser: $SCENARIO_CHROMIUM, then (for a headless run) Debian's headless shell (its
 * binary, else its script), then Debian's /usr/bin/chromium, then Playwright's own.
 */
export function resolveChromium(
  env: NodeJS.ProcessEnv = process.env,
  headless = true,
  exists: (path: string) => boolean = existsSync,
): ChromiumChoice {
  const override = env[chromiumEnv];
  if (override !== undefined && override !== "") {
    return exists(override)
      ? { found: true, executablePath: override, source: chromiumEnv }
      : {
          found: false,
          problem: `${chromiumEnv} is set to ${override}, which does not exist: point it at a Chromium or Chrome binary, or unset it.`,
        };
  }
  if (headless && exists(headlessShellBinary)) return { found: true, executablePath: headlessShellBinary, source: headlessShellBinary };
  if (headless && exists(headlessShell)) return { found: true, executablePath: headlessShell, source: headlessShell };
  if (exists(systemChromium)) return { found: true, executablePath: systemChromium, source: systemChromium };
  if (exists(playwrightChromium())) return { found: true, executablePath: undefined, source: "playwright" };
  return {
    found: false,
    problem:
      "No Chromium found. Install one with `apt-get install -y chromium chromium-headless-shell` (Debian/Ubuntu) or " +
      "`pnpm exec playwright install chromium`, or set SCENARIO_CHROMIUM to a Chromium or Chrome binary.",
  };
}

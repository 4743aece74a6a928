import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import type { BrowserType } from "@playwright/test";

/**
 * Where Playwright's own Chromium would be. Playwright is loaded only when this is asked, so the
 * install check (`prepare`) finds a system or configured browser without loading it.
 */
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

export const chromiumEnv = "SCENARIO_CHROMIUM";
const systemChromium = "/usr/bin/chromium";
/**
 * Debian's old headless shell (`apt-get install chromium-headless-shell`): the same Blink without
 * the browser's window layer, as Playwright itself runs headless tests. A scenario run takes about
 * a quarter less CPU with it than with /usr/bin/chromium; it cannot open a window.
 */
export const headlessShell = "/usr/bin/chromium-headless-shell";
/**
 * The binary Debian's headless-shell script runs. The script (`sh -e`, no `exec`) stays as the
 * browser's parent, so a run uses the binary itself where it is: one process less, and the pid
 * Playwright holds and kills is the browser's own.
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

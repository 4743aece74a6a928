import { join } from "node:path";
import { InitFailed } from "./errors.ts";
import { chooseManager, type ManagerChoice } from "./manager.ts";
import { planStart, type StartPlan } from "./start.ts";

/** An app folder as detection sees it: read by `readAppFolder`, or written out in a test. */
export interface AppFiles {
  /** The app's folder, for messages. */
  readonly dir: string;
  readonly packageJson: Readonly<Record<string, unknown>>;
  /** The nearest lockfile from the app's folder up to the repository's top-level, relative to the app's folder. */
  readonly lockfile: string | undefined;
  /** A file's text by its path relative to the app's folder; undefined when there is no such file. */
  readonly read: (file: string) => string | undefined;
}

export interface BasePath {
  /** With a leading and a trailing slash, e.g. "/sub/". */
  readonly path: string;
  /** The Vite config that sets it. */
  readonly file: string;
}

export interface Detection {
  readonly manager: ManagerChoice;
  readonly start: StartPlan;
  readonly base: BasePath | undefined;
}

export const viteConfigNames = ["vite.config.ts", "vite.config.mts", "vite.config.js", "vite.config.mjs", "vite.config.cjs"];

/** `base: "/sub/"` in a Vite config's text, as a served path; undefined for none, "/", a relative base or a URL. */
export function basePathOf(viteConfig: string): string | undefined {
  const base = /["']?\bbase["']?\s*:\s*(["'`])([^"'`$\n]*)\1/.exec(viteConfig)?.[2]?.trim();
  if (base === undefined || base === "" || base.startsWith(".") || base.includes("://")) return undefined;
  const path = `/${base}/`.replace(/\/{2,}/g, "/");
  return path === "/" ? undefined : path;
}

/** What init writes into the config, from the app's package.json and files. Throws InitFailed when nothing starts a server. */
export function detectApp(app: AppFiles): Detection {
  const manager = chooseManager(app.lockfile, app.packageJson.packageManager);
  const scripts = app.packageJson.scripts;
  const start = planStart(typeof scripts === "object" && scripts !== null ? (scripts as Record<string, unknown>) : {}, manager.manager, app.read);
  if (start === undefined) {
    throw new InitFailed({
      file: join(app.dir, "package.json"),
      detail:
        'it has no "dev" or "start" script, so init cannot tell how the app starts. ' +
        "Add a `dev` or `start` script that starts the server, or write scenarios.config.ts by hand " +
        "(see node_modules/scenario-prover/docs/config.md).",
    });
  }
  const base = viteConfigNames
    .map((file) => ({ file, text: app.read(file) }))
    .flatMap(({ file, text }) => {
      const path = text === undefined ? undefined : basePathOf(text);
      return path === undefined ? [] : [{ path, file }];
    })[0];
  return { manager, start, base };
}

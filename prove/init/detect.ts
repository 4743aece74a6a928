import { join } from "node:path";
import { namedBerryLinker } from "../install/berry-linker.ts";
import { readBasePath, type BasePath } from "./base-path.ts";
import { InitFailed } from "./errors.ts";
import { findFramework, type FrameworkFound } from "./frameworks.ts";
import { chooseManager, type ManagerChoice } from "./manager.ts";
import { planProcesses, type ProcessesPlan } from "./processes.ts";
import { planServices, type ServicesPlan } from "./services.ts";
import { otherLanguageStart, planStart, type BinRunner, type StartPlan } from "./start.ts";

/** An app folder as detection sees it: read by `readAppFolder`, or written out in a test. */
export interface AppFiles {
  /** The app's folder, for messages. */
  readonly dir: string;
  readonly packageJson: Readonly<Record<string, unknown>>;
  /** The nearest lockfile from the app's folder up to the repository's top-level, relative to the app's folder. */
  readonly lockfile: string | undefined;
  /** A file's text by its path relative to the app's folder; undefined when there is no such file. */
  readonly read: (file: string) => string | undefined;
  /** The files under a folder (relative to the app's folder), relative to it; none when there is no such folder. */
  readonly list: (folder: string) => ReadonlyArray<string>;
}

/** The ready check's and the test's timeouts for a dev server that compiles on demand, and why. */
export interface Timeouts {
  readonly ready: number;
  readonly test: number;
  readonly why: string;
}

/** What init found in an app folder, to write into its config. */
export interface Detection {
  readonly manager: ManagerChoice;
  readonly start: StartPlan;
  readonly framework: FrameworkFound | undefined;
  readonly base: BasePath | undefined;
  /** app.host, when the framework wants the browser on a host of its own. */
  readonly host: { readonly host: string; readonly why: string } | undefined;
  /** Set for a framework that compiles pages on their first request; undefined keeps the harness's defaults. */
  readonly timeouts: Timeouts | undefined;
  /** The framework's API routes to ask for before each test (app.ready.warm), and why; undefined when it has none. */
  readonly warm: Warm | undefined;
  /** The databases the app's files name: app.services, app.env and app.prepare, and what init could not set up. */
  readonly services: ServicesPlan;
  /** The app's other processes (a worker) beside the server. */
  readonly processes: ProcessesPlan;
}

/** The routes init writes in app.ready.warm, the files they come from, and why. */
export interface Warm {
  /** The paths, under the app's base path. */
  readonly paths: ReadonlyArray<string>;
  /** The route files they come from, relative to the app's folder. */
  readonly files: ReadonlyArray<string>;
  /** How many more routes init found and left out (see maxWarm). */
  readonly more: number;
  readonly why: string;
}

/** The most routes init writes in app.ready.warm: each is compiled before every test, which boot waits for. */
const maxWarm = 5;

/** The routes a framework's dev server compiles on their first request, under the app's base path, for app.ready.warm. */
function warmRoutes(found: FrameworkFound | undefined, base: BasePath | undefined, app: AppFiles): Warm | undefined {
  const routes = found?.framework.apiRoutes?.(app.list) ?? [];
  if (routes.length === 0 || found?.framework.compilesRoutes === undefined) return undefined;
  const prefix = base?.kind === "path" ? base.path.replace(/\/+$/, "") : "";
  const kept = routes.slice(0, maxWarm);
  return {
    paths: kept.map((route) => `${prefix}${route.path}`),
    files: kept.map((route) => route.file),
    more: routes.length - kept.length,
    why: found.framework.compilesRoutes,
  };
}

/** A dev server's boot and first compile under load can take about a minute; the test gets half a minute more for its steps. */
const compileTimeouts = { ready: 90_000, test: 120_000 };

/** What runs a package's bin: npx where node_modules/.bin exists, yarn for Yarn 2+ (Plug'n'Play has none), bunx for bun. */
function binRunner(app: AppFiles, manager: ManagerChoice): BinRunner {
  if (manager.manager === "bun") return "bunx";
  if (manager.manager !== "yarn") return "npx";
  const field = app.packageJson.packageManager;
  const lockfile = app.lockfile === undefined ? undefined : app.read(app.lockfile);
  const berry =
    typeof field === "string" && field.startsWith("yarn@") ? !field.startsWith("yarn@1.") : lockfile?.includes("__metadata:") === true;
  // Berry installs node_modules, where npx finds the bin, unless the repository asks for Plug'n'Play: a proof's install
  // sets the node-modules linker when nothing names one (prove/install/berry-linker.ts).
  return berry && namedBerryLinker(app.dir) === "pnp" ? "yarn" : "npx";
}

/** What init writes into the config, from the app's package.json and files. Throws InitFailed when nothing starts a server. */
export function detectApp(app: AppFiles): Detection {
  const manager = chooseManager(app.lockfile, app.packageJson.packageManager);
  const scripts = app.packageJson.scripts;
  const runner = binRunner(app, manager);
  const start = planStart(
    typeof scripts === "object" && scripts !== null ? (scripts as Record<string, unknown>) : {},
    manager.manager,
    runner,
    app.read,
  );
  if (start === undefined) {
    const other = otherLanguageStart(app.read);
    throw new InitFailed({
      file: join(app.dir, "package.json"),
      detail:
        'it has no "dev" or "start" script, so init cannot tell how the app starts. ' +
        (other === undefined
          ? "Add a `dev` or `start` script that starts the server"
          : `Add a \`start\` script to its "scripts" that starts the server on the PORT environment variable, ` +
            `for ${other.file}: \`"start": ${JSON.stringify(other.command)}\``) +
        ", or write scenarios.config.ts by hand (see node_modules/scenario-prover/docs/config.md).",
    });
  }
  const processes = planProcesses(app, start, manager.manager, runner);
  const found = findFramework(app.packageJson, app.read);
  const framework = found?.framework;
  const base = framework?.base === undefined ? undefined : readBasePath(framework.base, app.read);
  return {
    manager,
    // The server of a `concurrently` script init split into processes.
    start: processes.server === undefined ? start : { script: start.script, ...processes.server },
    framework: found,
    base,
    warm: warmRoutes(found, base, app),
    host: framework?.host,
    timeouts: framework?.compiles === undefined ? undefined : { ...compileTimeouts, why: framework.compiles },
    services: planServices(app, manager.manager, runner),
    processes,
  };
}

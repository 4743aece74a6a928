import { existsSync } from "node:fs";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import type { Locator, Page, TestInfo } from "@playwright/test";
import { execa } from "execa";
import { appRootEnv, bootMsAnnotation, keepEnv, readyAtAnnotation, screenshotAttachment } from "../common/contract.ts";
import type { ScenarioAppConfig } from "./config.ts";
import { substitute } from "./environment.ts";
import { HarnessError } from "./errors.ts";
import type { AppServer } from "./app-server.ts";
import { appProcesses, groupedLogs, type ProcessOutput } from "./app-processes.ts";
import { appHost, interactiveExpression, readyTimeoutMs, warmPaths } from "./app-settings.ts";
import { waitInteractive, type InteractiveSignal } from "./interactive.ts";
import { screenshotPng } from "./screenshot.ts";
import { bootApp } from "./boot.ts";
import { measure, type Measurement } from "./measure.ts";

/** How `app.open()` opens a page. */
export interface OpenOptions {
  /** What to wait for after navigating, instead of the config's `app.interactive`. */
  readonly until?: InteractiveSignal;
}

export interface CliResult {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number;
}

/** The app under test as a scenario sees it: a fresh server with its own home. */
export interface ScenarioApp {
  /** Where the browser opens the app: `http://<app.host>:<port>`, 127.0.0.1 unless the config names another host. */
  readonly url: string;
  /** The app's state directory (the config's `homeEnv`). */
  readonly home: string;
  /**
   * Opens `path` (default `/`) of the app in the page, then waits until the page is interactive:
   * for `options.until`, else for the config's `app.interactive`, else for nothing more than the load.
   */
  open(path?: string, options?: OpenOptions): Promise<void>;
  /**
   * Attaches a screenshot of the page, or of `element` alone, named `screenshot:<label>`, once the
   * page has painted, with animations stopped and frameworks' dev tool launchers hidden.
   */
  screenshot(label: string, element?: Locator): Promise<void>;
  /**
   * Runs `block` and measures what the page's main thread did meanwhile, from Chromium itself (docs/scenarios.md,
   * "Measuring the browser's work"): returns each metric and notes them, under `label`, for a performance proof.
   * Chromium only; the page must be open and stay on one document; each block of a test has its own label.
   */
  measure(label: string, block: () => Promise<unknown>): Promise<Measurement>;
  /** Runs the app's own CLI (the config's `cli`) with these arguments; rejects on a non-zero exit. */
  cli(...args: string[]): Promise<CliResult>;
  /** Writes `files` into a fresh folder and adds it as project `name` through the app's CLI. */
  project(name: string, files: Readonly<Record<string, string>>): Promise<string>;
  /**
   * Everything the server has printed so far; with several processes (`app.start` by name), each one's output under a line
   * `=== <name> ===`, or, given a process's name, its output alone. What the services and `app.prepare` printed comes
   * first, under `=== services and prepare ===`, each line prefixed with who printed it.
   */
  logs(name?: string): string;
  /** Each service of `app.services` by name: `url`, `host`, `port`, and for SQL ones `user`, `password`, `database`. */
  readonly services: Readonly<Record<string, Readonly<Record<string, string>>>>;
}

/** The root of the git repository holding `dir` (the first folder up with a .git entry), else `dir`. */
function repositoryRoot(dir: string): string {
  for (let folder = dir; ; folder = dirname(folder)) {
    if (existsSync(join(folder, ".git"))) return folder;
    if (dirname(folder) === folder) return dir;
  }
}

/**
 * The app's folder: appRootEnv (set by the prover for each side's worktree), else `app.root`
 * relative to the root of the repository holding the config.
 */
export function appRoot(app: ScenarioAppConfig, configFile: string | undefined): string {
  const override = process.env[appRootEnv];
  if (override !== undefined && override !== "") return resolve(override);
  return resolve(repositoryRoot(configFile === undefined ? process.cwd() : dirname(configFile)), app.root ?? ".");
}

function shellQuote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`;
}

export interface RunningApp {
  readonly app: ScenarioApp;
  /** The server of the process the browser opens (the first of several). */
  readonly server: AppServer;
  /** What each process has printed so far, in the config's order. */
  outputs(): ReadonlyArray<ProcessOutput>;
  dispose(): Promise<void>;
}

/** Starts one test's app: a fresh home, its server, and the methods of the `app` fixture. */
export async function startApp(input: {
  readonly config: ScenarioAppConfig;
  readonly root: string;
  readonly page: Page;
  readonly testInfo: TestInfo;
  readonly replayUrl: string | undefined;
  readonly replayCommand: string | undefined;
  readonly replayExecutable: string | undefined;
  /** The base URL of each of the test's HTTP replay agents by its transcript's name, for `{replay.<name>}`. */
  readonly replayNamed?: Readonly<Record<string, string>>;
  /** The route's variables (`app.route`), over the config's. */
  readonly routeEnv?: Readonly<Record<string, string>> | undefined;
  /** The test's `cpuSlowdown` option, for app.measure(). */
  readonly cpuSlowdown?: number | undefined;
}): Promise<RunningApp> {
  const { config, root, page, testInfo } = input;
  // A bad host, ready timeout, warm list or interactive expression is refused before anything starts.
  const host = appHost(config);
  readyTimeoutMs(config.ready);
  warmPaths(config.ready);
  const first = appProcesses(config, Object.keys(config.services ?? {}))[0];
  // app.open() has the budget of the check of the process the browser opens: app.ready's, or its own.
  const readyMs = readyTimeoutMs(first?.ready, first?.readyField);
  const interactive = interactiveExpression(config);
  const bootStarted = performance.now();
  const booted = await bootApp(config, root, input);
  const readyAt = performance.now();
  const { base, dirs, server, started, services, env, values } = booted;
  const url = `http://${host}:${server.port}`;
  // How long the app took to become ready; the prover prints it as the side's "boot" step.
  testInfo.annotations.push({ type: bootMsAnnotation, description: String(Math.round(readyAt - bootStarted)) });
  // When the harness saw the app ready, in epoch ms, for the readiness benchmark.
  testInfo.annotations.push({ type: readyAtAnnotation, description: (performance.timeOrigin + readyAt).toFixed(3) });

  const cli = async (...args: string[]): Promise<CliResult> => {
    if (config.cli === undefined) {
      throw new HarnessError("config", 'app.cli is not set: set it to the command that runs the app\'s own CLI, e.g. "pnpm cli".');
    }
    const command = [substitute(config.cli, values), ...args.map(shellQuote)].join(" ");
    const result = await execa(command, { shell: true, cwd: root, env, extendEnv: false, reject: false, stdin: "ignore" });
    if (result.exitCode !== 0) {
      throw new Error(`\`${command}\` exited with code ${String(result.exitCode)}:\n${result.stderr || result.stdout}`);
    }
    return { stdout: result.stdout, stderr: result.stderr, exitCode: 0 };
  };

  const app: ScenarioApp = {
    url,
    home: dirs.appHome,
    open: async (path = "/", options = {}) => {
      // Loading the app's page and becoming interactive are part of getting ready, so they have the ready budget, not a
      // proof's short action timeout: a dev server compiles a page on its first request.
      await page.goto(new URL(path, url).toString(), { timeout: readyMs });
      const until = options.until ?? interactive;
      if (until === undefined) return;
      await waitInteractive(page, until, options.until === undefined ? "app.interactive" : "until", path, readyMs);
    },
    screenshot: async (label, element) => {
      await testInfo.attach(screenshotAttachment(label), { body: await screenshotPng(page, element), contentType: "image/png" });
    },
    measure: (label, block) => measure({ page, testInfo, cpuSlowdown: input.cpuSlowdown }, label, block),
    cli,
    project: async (name, files) => {
      const dir = join(base, "projects", name);
      for (const [path, text] of Object.entries(files)) {
        const file = join(dir, path);
        await mkdir(dirname(file), { recursive: true });
        await writeFile(file, text);
      }
      await mkdir(dir, { recursive: true });
      await cli("project", "add", name, dir);
      return dir;
    },
    logs: (name) => {
      if (name === undefined) return groupedLogs(booted.outputs());
      const one = started.find((process) => process.name === name && name !== "");
      if (one === undefined) {
        const names = started.map((process) => process.name).filter((known) => known !== "");
        throw new Error(
          `app.logs(${JSON.stringify(name)}) names no process of app.start: ` +
            (names.length === 0 ? "app.start is one command; call app.logs() for its output." : `its processes are ${names.join(", ")}.`),
        );
      }
      return one.server.logs();
    },
    services: services.values,
  };

  return {
    app,
    server,
    outputs: booted.outputs,
    dispose: async () => {
      await booted.stop();
      if (process.env[keepEnv] === "1") {
        await testInfo.attach("kept-home", { body: base, contentType: "text/plain" });
      } else {
        await rm(base, { recursive: true, force: true });
      }
    },
  };
}

import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as Clock from "effect/Clock";
import * as Effect from "effect/Effect";
import {
  appRootEnv,
  appTempEnv,
  expectTimeoutEnv,
  keepEnv,
  preparedFileEnv,
  proofRunEnv,
  stepsFileEnv,
  type StepMetadata,
} from "../../common/contract.ts";
import { RunnerFailed } from "../errors.ts";
import { classify } from "../outcome/classify.ts";
import { tail } from "../outcome/error-text.ts";
import { runCommand } from "../process/run-command.ts";
import { Progress } from "../progress/progress.ts";
import { killProcessesUnder } from "../process/stray-processes.ts";
import { markKept, ownedPrefix, shortTempRoot } from "../workspace/run-dir.ts";
import { escapeRegExp, fileFilter } from "./cli-path.ts";
import { parseJsonReport } from "./json-report.ts";
import { stepsReporterPath } from "./steps-reporter-path.ts";

export interface AttemptInput {
  /** The invoking checkout: Playwright runs here, and locations are relative to it. */
  readonly cwd: string;
  readonly root: string;
  /** Playwright's CLI script, resolved from the config. */
  readonly cli: string;
  readonly configFile: string;
  readonly scenarioFile: string;
  readonly test: { readonly title: string; readonly line: number };
  /** The side's app folder, handed to the harness in appRootEnv. */
  readonly appRoot: string;
  /** A fresh folder for this attempt's report, output and temporary files. */
  readonly dir: string;
  /** --keep: the harness is asked (keepEnv) to leave the app's home in place. */
  readonly keep: boolean;
  /** The expect timeout the harness's config is asked to use (expectTimeoutEnv); undefined for the config's own. */
  readonly expectTimeout: number | undefined;
  /** For a run started while its side installs: the file the harness waits for before it starts the app (preparedFileEnv). */
  readonly prepared?: string;
  /** More of the run's environment: a performance proof's measureTraceEnv and cpuSlowdownEnv. */
  readonly env?: Readonly<Record<string, string>>;
}

/** Playwright's own default for its transform cache, in the temporary folder the prover was given. */
const transformCache = join(
  tmpdir(),
  process.platform === "win32" ? "playwright-transform-cache" : `playwright-transform-cache-${process.geteuid?.() ?? ""}`,
);

/**
 * The longest TMPDIR Chromium launches under: its socket goes 46 bytes further down, and a socket's
 * path holds at most 104 bytes on macOS (108 on Linux).
 */
const longestTemp = 56;

/**
 * The attempt's TMPDIR: inside its folder when short enough for Chromium, else a short owned folder
 * (see ownedPrefix), removed with the attempt unless --keep.
 */
const attemptTemp = (dir: string, keep: boolean) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const inside = join(dir, "tmp");
      if (inside.length <= longestTemp) return { path: await mkdir(inside, { recursive: true }).then(() => inside), own: false };
      const path = await mkdtemp(join(shortTempRoot(), ownedPrefix("t-")));
      if (keep) await markKept(path);
      return { path, own: true };
    }),
    (temp) =>
      temp.own && !keep
        ? Effect.promise(async () => {
            await killProcessesUnder(temp.path);
            await rm(temp.path, { recursive: true, force: true });
          })
        : Effect.void,
  );

/** Runs the selected test once with Playwright from the invoking checkout against the side's app, and classifies it. */
export const runAttempt = Effect.fn("Side.runAttempt")(function* (input: AttemptInput) {
  const reportFile = join(input.dir, "report.json");
  const stepsFile = join(input.dir, "steps.json");
  const logFile = join(input.dir, "playwright.log");
  const { path: temp, own } = yield* attemptTemp(input.dir, input.keep);
  if (own && input.keep) {
    const progress = yield* Progress;
    yield* progress.line(
      `keeping this run's homes and browser files in ${temp} (the run folder's path is too long for Chromium's socket); remove them with: rm -rf ${temp}`,
    );
  }
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined) env[name] = value;
  Object.assign(env, {
    // Where it would be without the attempt's TMPDIR, so every run reuses what the listing compiled.
    PLAYWRIGHT_TRANSFORM_CACHE_DIR: process.env.PLAYWRIGHT_TRANSFORM_CACHE_DIR ?? transformCache,
    [appRootEnv]: input.appRoot,
    // The app's own temporary folder is the prover's, as in a direct run, not the attempt's.
    [appTempEnv]: process.env[appTempEnv] ?? tmpdir(),
    PLAYWRIGHT_JSON_OUTPUT_FILE: reportFile,
    [stepsFileEnv]: stepsFile,
    TMPDIR: temp,
    // Marks every process of the attempt, so one a killed proof left is found later (see killProcessesUnder).
    SCENARIO_ATTEMPT_DIR: input.dir,
    FORCE_COLOR: "0",
    // Actions and navigations wait no longer than the config's proof.actionTimeout, else the expect timeout.
    [proofRunEnv]: "1",
    ...(input.keep ? { [keepEnv]: "1" } : {}),
    ...(input.expectTimeout === undefined ? {} : { [expectTimeoutEnv]: String(input.expectTimeout) }),
    ...(input.prepared === undefined ? {} : { [preparedFileEnv]: input.prepared }),
    ...input.env,
  });
  const args = [
    input.cli,
    "test",
    fileFilter(input.scenarioFile, input.test.line),
    "--config",
    input.configFile,
    "--grep",
    escapeRegExp(input.test.title.split(" › ").at(-1) ?? input.test.title),
    `--reporter=json,${stepsReporterPath}`,
    "--output",
    join(input.dir, "test-results"),
    "--trace",
    "retain-on-failure",
    "--retries",
    "0",
    "--repeat-each",
    "1",
    "--workers",
    "1",
  ];
  const start = yield* Clock.currentTimeMillis;
  const result = yield* runCommand({
    command: process.execPath,
    args,
    cwd: input.cwd,
    env,
    logFile,
    stopSignal: "SIGINT",
    stopGrace: "30 seconds",
  });
  const wallMs = (yield* Clock.currentTimeMillis) - start;
  const report = parseJsonReport(yield* Effect.promise(() => readFile(reportFile, "utf8").catch(() => "")));
  if (report === undefined) {
    const how =
      result.startError ??
      (result.signal === undefined ? `it exited with code ${String(result.exitCode)}` : `it was killed by ${result.signal}`);
    const log = yield* Effect.promise(() => readFile(logFile, "utf8").catch(() => ""));
    return yield* Effect.fail(new RunnerFailed({ detail: how, logTail: tail(log) }));
  }
  const steps = yield* Effect.promise(() => readSteps(stepsFile));
  return classify(report, { root: input.root, scenarioFile: input.scenarioFile, wallMs, steps });
}, Effect.scoped);

/** The steps the steps reporter wrote; none when it wrote none (a run that stopped early) or the file cannot be read. */
async function readSteps(file: string): Promise<ReadonlyArray<StepMetadata>> {
  const text = await readFile(file, "utf8").catch(() => "[]");
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed)
      ? (parsed as StepMetadata[]).filter((step) => typeof step?.start === "number" && typeof step.end === "number")
      : [];
  } catch {
    return [];
  }
}

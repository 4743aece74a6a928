/**
 * The boundary between the harness (inside Playwright's runner) and the prover (which reads the
 * runner's JSON): the environment the prover sets, the config metadata, and what a result carries.
 */

/** The side's app folder (in its worktree), which the harness uses over the config's `app.root`. */
export const appRootEnv = "SCENARIO_APP_ROOT";

/** Set to "1" (--keep) to leave the app's home and HOME in place for inspection. */
export const keepEnv = "SCENARIO_KEEP";

/** The expect timeout of a proof's runs, in ms (--expect-timeout, else `proof.expectTimeout`), over the config's own. */
export const expectTimeoutEnv = "SCENARIO_EXPECT_TIMEOUT";

/**
 * Set to "1" on a proof's runs: actions and navigations wait at most `proof.actionTimeout`, else the
 * runs' expect timeout, where the config's `use` sets no `actionTimeout` or `navigationTimeout` of its own.
 */
export const proofRunEnv = "SCENARIO_PROOF_RUN";

/** The TMPDIR the app gets instead of the Playwright run's own, where ports are reserved too. */
export const appTempEnv = "SCENARIO_APP_TMPDIR";

/**
 * A file the harness waits for before it starts the app: the prover starts a side's first run while
 * the side installs and builds, so Playwright, its worker and the browser start meanwhile, and
 * writes this file when they are done: empty to start the app, "stop" when the side cannot run.
 */
export const preparedFileEnv = "SCENARIO_PREPARED_FILE";

/** What the prepared file holds when the side's install or build failed or the proof stops: the run ends without starting the app. */
export const preparedStop = "stop";

/** The key of the config's metadata holding its `app` as AppMetadata. */
export const appMetadataKey = "scenarioApp";

/** The key of the config's metadata holding its `proof` as ProofMetadata. */
export const proofMetadataKey = "scenarioProof";

/** A ready check as JSON: a log pattern is its source text. */
export type ReadyMetadata =
  | { readonly path: string; readonly timeout?: number; readonly warm?: ReadonlyArray<string> }
  | { readonly log: string; readonly timeout?: number; readonly warm?: ReadonlyArray<string> };

/** The config's `app.route` as JSON. */
export interface RouteMetadata {
  readonly hosts?: ReadonlyArray<string> | Readonly<Record<string, ReadonlyArray<string>>>;
  readonly allow?: ReadonlyArray<string>;
}

/** The config's `app` as JSON, its defaults filled in: what the prover reads of it from `playwright test --list --reporter=json`. */
export interface AppMetadata {
  readonly root?: string;
  readonly install: string | false;
  readonly build?: string;
  readonly submodules?: boolean;
  /** One command, or several processes by name, each a command or its command and ready check. */
  readonly start: string | Readonly<Record<string, string | { readonly command: string; readonly ready?: ReadyMetadata }>>;
  readonly host: string;
  readonly ready?: ReadyMetadata;
  readonly interactive?: string;
  readonly cli?: string;
  readonly homeEnv?: string;
  readonly provider?: Readonly<Record<string, string>>;
  readonly route?: boolean | RouteMetadata;
  readonly env?: Readonly<Record<string, string>>;
  readonly passEnv?: ReadonlyArray<string>;
  /** The config's `app.services` as JSON (a command service's ready log pattern as its source text). */
  readonly services?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly prepare?: string | ReadonlyArray<string>;
}

/** The config's `proof` as JSON: settings of a proof's runs only. */
export interface ProofMetadata {
  readonly expectTimeout?: number;
  readonly actionTimeout?: number;
}

/** What defineScenarioConfig adds to the config's metadata. */
export interface ScenarioMetadata {
  readonly [appMetadataKey]: AppMetadata;
  readonly [proofMetadataKey]: ProofMetadata;
}

/** What a labelled screenshot's attachment name starts with: `screenshot:<label>`. */
const screenshotPrefix = "screenshot:";

/** The attachment name of the screenshot `app.screenshot(label)` takes. */
export const screenshotAttachment = (label: string) => `${screenshotPrefix}${label}`;

/** The label of a screenshot's attachment name; undefined for any other attachment. */
export const screenshotLabel = (name: string): string | undefined =>
  name.startsWith(screenshotPrefix) ? name.slice(screenshotPrefix.length) : undefined;

/** A failed test's page as a PNG shot by the harness; the prover prefers it to Playwright's own failure screenshot. */
export const failureScreenshotAttachment = "scenario-harness:failure-screenshot";

/** Everything the app printed (text/plain), attached when its test failed or it sent an unexpected request. */
export const serverLogAttachment = "server.log";

/** How long the app took to become ready, in whole ms: the prover prints it as the side's "boot" step. */
export const bootMsAnnotation = "scenario-harness:boot-ms";

/** When the harness saw the app ready, in epoch ms, for the readiness benchmark. */
export const readyAtAnnotation = "scenario-harness:ready-at";

/**
 * The calls the route refused in a test (`app.route`): a JSON array of StrayCall, each with the host, method, path and
 * query, and when it came (epoch ms).
 */
export const strayCallsAnnotation = "scenario-harness:stray-calls";

/**
 * A failed test's replay agents that received no request at all, though their transcripts expected some: a text the
 * prover adds to the failure's first cause, since an app that never reached the replay agent fails for that first.
 */
export const agentsUnreachedAnnotation = "scenario-harness:agents-unreached";

/** The file the steps reporter (harness/steps-reporter.ts) writes a proof's run's steps to, as a JSON array of StepMetadata. */
export const stepsFileEnv = "SCENARIO_STEPS_FILE";

/** One step of a test, as the steps reporter writes it: its title, its start and end in epoch ms, and where it is. */
export interface StepMetadata {
  readonly title: string;
  readonly start: number;
  readonly end: number;
  /** `file:line`, absolute as Playwright gives it. */
  readonly location?: string;
}

/** A call the route refused: its host was neither routed to the replay agent nor allowed. */
export interface StrayCallMetadata {
  /** The host the app called, with its port when not the scheme's default. */
  readonly host: string;
  readonly method: string;
  /** The path and query. */
  readonly path: string;
  /** When the request arrived, in epoch ms. */
  readonly at: number;
  /**
   * Set when the call never became a request: its TLS handshake with the route failed, with mockttp's cause
   * (`cert-rejected`, `reset`, …). The route makes certificates for names only, so an HTTPS call to an IP address
   * (which sends no server name) fails there; its host is then `an IP address`, its method `CONNECT`, its path empty.
   */
  readonly tlsFailure?: string;
}

/**
 * What went wrong in the browser and at the replay agent while a test ran (harness/page-events.ts): a JSON
 * PageEventsMetadata, noted whenever there was any, for the prover to place against the test's steps.
 */
export const pageEventsAnnotation = "scenario-harness:page-events";

/** What one event was: a console error or warning, an uncaught page error, a request that failed or was answered with an error status, or a replay mismatch. */
export const pageEventKinds = [
  "console-error",
  "console-warning",
  "page-error",
  "request-failed",
  "error-status",
  "replay-mismatch",
] as const;

export type PageEventKind = (typeof pageEventKinds)[number];

/** One event of a test, as the harness noted it: each bounded in length. */
export interface PageEventMetadata {
  readonly kind: PageEventKind;
  /** When it came (its first time, when repeated), in epoch ms. */
  readonly at: number;
  /** What it said: the console's text, the error's name and message, the failure (`net::ERR_CONNECTION_REFUSED`), the status (`404 Not Found`), or the request the transcript did not expect. */
  readonly text: string;
  /** Where the script that logged or threw was (`url:line:column`), when the browser knew. */
  readonly location?: string;
  /** A request's method and URL (for a replay mismatch, none: its text names it). */
  readonly method?: string;
  readonly url?: string;
  /** How many times the same event came, when more than once. */
  readonly count?: number;
}

/** The events of a test: the first ones, in order; how many more were left out; and when the test's own steps ended, in epoch ms. */
export interface PageEventsMetadata {
  readonly events: ReadonlyArray<PageEventMetadata>;
  readonly omitted: number;
  readonly testEnd: number;
}

/** An excerpt of the app's output while a failed test ran: the line that says why is often not in the test's error. */
export const serverLogExcerptAnnotation = "scenario-harness:server-log-excerpt";

/** Says that the test's own error came before the app's first unexpected request, so the prover names that error first. */
export const mismatchAfterFailureAnnotation = "scenario-harness:replay-mismatch-after-failure";

/** What stopped the harness from giving a test a running app, or what its replay agent caught: a HarnessError's kind. */
export const harnessErrorKinds = ["config", "boot", "browser", "transcript", "replay-mismatch", "transcript-unplayed"] as const;

export type HarnessErrorKind = (typeof harnessErrorKinds)[number];

/** The tag a HarnessError's message starts with, by which the prover tells its kind. */
export const harnessErrorTag = (kind: HarnessErrorKind) => `[scenario-harness:${kind}]`;

const taggedKind = /\[scenario-harness:([a-z-]+)\]/;

/** The kind the harness error tag in `message` names; undefined when it has none, or one of no known kind. */
export function harnessErrorKind(message: string): HarnessErrorKind | undefined {
  const kind = taggedKind.exec(message)?.[1];
  return harnessErrorKinds.find((known) => known === kind);
}

/**
 * What the page's main thread did over a block a scenario measured (`app.measure(label, fn)`,
 * harness): one annotation per block, in order, each a JSON MeasureMetadata. A performance proof
 * (`prove-scenario --faster <metric>`) reads them from each sample's run.
 */
export const measureAnnotation = "scenario-harness:measure";

/**
 * The metrics of a measured block; for every one, lower is better.
 * - `task`, `script`, `layout`, `style`: ms the renderer's main thread spent in tasks, in script,
 *   in layout and in style recalculation over the block (the DevTools protocol's Performance
 *   domain, TaskDuration, ScriptDuration, LayoutDuration, RecalcStyleDuration, in thread time: CPU time);
 *   `task` leaves out the protocol's own commands (DevToolsCommandDuration: Playwright's checks and polling);
 * - `cpu`: ms of CPU time of the renderer's main thread over the block (ThreadTime), less those commands too;
 * - `blocking`: total blocking time, ms: the sum over the block's long tasks (50 ms or more) of what each lasted beyond 50 ms;
 * - `long-tasks`: how many long tasks the block had;
 * - `dropped-frames`: frames the page did not render while the block ran, against the display's rate;
 * - `interaction`: the longest interaction's latency in the block (Event Timing), ms; 0 without one;
 * - `heap`: the JS heap in use at the block's end, bytes;
 * - `wall`: how long the block took, ms.
 */
export const measureMetrics = [
  "task",
  "script",
  "layout",
  "style",
  "cpu",
  "blocking",
  "long-tasks",
  "dropped-frames",
  "interaction",
  "heap",
  "wall",
] as const;

export type MeasureMetric = (typeof measureMetrics)[number];

/** One measured block of a test. */
export interface MeasureMetadata {
  readonly label: string;
  readonly metrics: Readonly<Record<MeasureMetric, number>>;
  /** The block's Chromium trace (a JSON file DevTools' Performance panel opens), absolute, when the run asked for one (measureTraceEnv). */
  readonly trace?: string;
  /** The CPU slowdown the renderer ran at over the block, when throttled (cpuSlowdownEnv). */
  readonly cpuSlowdown?: number;
}

/** Set to "1" on a performance proof's runs: each measured block also records its Chromium trace, in the test's output folder. */
export const measureTraceEnv = "SCENARIO_MEASURE_TRACE";

/** A CPU slowdown factor (--cpu-slowdown, a number above 1): the renderer is throttled by it through the DevTools protocol while a block is measured. */
export const cpuSlowdownEnv = "SCENARIO_CPU_SLOWDOWN";

import { dirname, resolve } from "node:path";
import { test as base, type TestInfo } from "@playwright/test";
import {
  failureScreenshotAttachment,
  mismatchAfterFailureAnnotation,
  pageEventsAnnotation,
  serverLogAttachment,
  serverLogExcerptAnnotation,
  strayCallsAnnotation,
  agentsUnreachedAnnotation,
} from "../common/contract.ts";
import type { ScenarioAgent, TestEnd, TranscriptOption } from "./agent.ts";
import type { ScenarioApp } from "./app.ts";
import { isHeadlessShell, resolveChromium } from "./chromium.ts";
import type { StrayCallMetadata } from "../common/contract.ts";
import type { RouteConfig, ScenarioAppConfig, ScenarioWorkerOptions } from "./config.ts";
import { HarnessError } from "./errors.ts";
import { logExcerpt } from "./log-excerpt.ts";
import { untilPrepared } from "./prepared.ts";

export interface ScenarioTestOptions {
  /**
   * The replay transcript for this test, relative to the scenario file; or several, by name (`{ chat: "chat.ndjson",
   * title: "title.ndjson" }`), each served by its own replay agent (`agent.of(name)`, `{replay.<name>}`).
   */
  transcript: TranscriptOption;
  /** Extra environment for this test's app, over the config's; `{port}`, `{home}`, `{replay}`, `{replayCommand}`, `{replayExecutable}` are substituted. */
  appEnv: Readonly<Record<string, string>>;
  /**
   * Runs each `app.measure()` block with the page's CPU slowed down this many times (a factor above 1), through the
   * DevTools protocol; a proof's `--cpu-slowdown` (SCENARIO_CPU_SLOWDOWN) overrides it.
   */
  cpuSlowdown: number | undefined;
}

/** The scenario's fixtures, beside Playwright's own (the browser page is its `page`). */
export interface ScenarioFixtures extends ScenarioTestOptions {
  app: ScenarioApp;
  agent: ScenarioAgent;
}

interface InternalWorkerFixtures extends ScenarioWorkerOptions {
  scenarioBrowserCheck: void;
}

/** Where each test's own steps ended, noted as the app fixture's teardown begins (the agent's comes later): one for each agent. */
const testEnds = new WeakMap<TestInfo, ReadonlyArray<TestEnd>>();

/** The test's agents with their transcripts' names ("" for a test given one), the fixture's own first. */
const eachAgent = (agent: ScenarioAgent): ReadonlyArray<{ readonly name: string; readonly agent: ScenarioAgent }> =>
  agent.names.length === 0 ? [{ name: "", agent }] : agent.names.map((name) => ({ name, agent: agent.of(name) }));

/** The test's end as first noted, for each agent: by the app fixture when the test used the app, else by the agent fixture. */
function noteTestEnd(testInfo: TestInfo, agent: ScenarioAgent): ReadonlyArray<TestEnd> {
  const noted = testEnds.get(testInfo);
  if (noted !== undefined) return noted;
  const at = Date.now();
  const failed = testInfo.status !== "passed" && testInfo.status !== "skipped";
  const ends = eachAgent(agent).map((one) => ({ at, failed, mismatches: one.agent.status().mismatches.length }));
  testEnds.set(testInfo, ends);
  return ends;
}

/** Whether the config's `app.route` asks for a route. */
const asksForRoute = (scenarioApp: ScenarioAppConfig): scenarioApp is ScenarioAppConfig & { readonly route: true | RouteConfig } =>
  scenarioApp.route !== undefined && scenarioApp.route !== false;

/** Starts the route the config's `app.route` asks for, to the test's agents; undefined when it asks for none. */
async function startRouteFor(
  scenarioApp: ScenarioAppConfig,
  agents: ReadonlyArray<{ readonly name: string; readonly agent: ScenarioAgent }>,
): Promise<{ env: Readonly<Record<string, string>>; strays(): ReadonlyArray<StrayCallMetadata>; stop(): Promise<void> } | undefined> {
  if (!asksForRoute(scenarioApp)) return undefined;
  const { startAppRoute } = await import("./route/app-route.ts").catch((error: unknown) => {
    throw missingMockttp(error) ?? error;
  });
  return startAppRoute(
    scenarioApp.route,
    agents.map(({ name, agent }) => ({ name, url: agent.url, provider: agent.provider })),
  );
}

/**
 * The error for an app.route whose proxy package is not installed: mockttp is an optional peer dependency, so that
 * installs of scenario-prover without a route (yarn v1 refuses a dependency of mockttp's on Node 20) carry none of it.
 */
function missingMockttp(error: unknown): HarnessError | undefined {
  const text = error instanceof Error ? error.message : String(error);
  if (!/Cannot find (package|module) 'mockttp'/.test(text)) return undefined;
  return new HarnessError(
    "config",
    "app.route needs the mockttp package, which scenario-prover loads only for it: add it beside scenario-prover " +
      "(npm install --save-dev mockttp@4.6.3, or your package manager's add -D), or leave app.route out of the config.",
  );
}

/** Names the calls the route refused: in the test's output, and in an annotation the prover's report reads. */
function noteStrays(testInfo: TestInfo, strays: ReadonlyArray<StrayCallMetadata>, started: number): void {
  testInfo.annotations.push({ type: strayCallsAnnotation, description: JSON.stringify(strays) });
  for (const stray of strays) {
    const into = ((stray.at - started) / 1000).toFixed(1);
    process.stderr.write(
      stray.tlsFailure === undefined
        ? `scenario-prover route: refused ${stray.method} ${stray.host}${stray.path} (${into} s into the test): ` +
            "its host is neither routed to the replay agent nor allowed (app.route in the config).\n"
        : `scenario-prover route: refused HTTPS to an IP address (${into} s into the test): its TLS handshake with the route ` +
            `failed (${stray.tlsFailure}), as the route makes certificates for host names only; it did not leave this machine. ` +
            "Call the provider by its host name, which app.route can route.\n",
    );
  }
}

/** The replay agent fixture's own timeout, for its start and its end. */
const agentTimeoutMs = 30_000;

/**
 * The scenario `test`: Playwright's, with the `app` and `agent` fixtures. Those import their code
 * lazily: this module loads with the config, and eager imports would slow every run and listing.
 */
export const test = base.extend<ScenarioFixtures, InternalWorkerFixtures>({
  scenarioApp: [{ start: "" } satisfies ScenarioAppConfig, { option: true, scope: "worker" }],
  transcript: [undefined, { option: true }],
  appEnv: [{}, { option: true }],
  cpuSlowdown: [undefined, { option: true }],

  // A headed run (--headed, --debug) cannot use the headless shell the config picked. Only the
  // project's `use` holds the command line's headless: false; the config was loaded before it.
  launchOptions: [
    async ({ launchOptions }, use, workerInfo) => {
      if (workerInfo.project.use.headless !== false || !isHeadlessShell(launchOptions.executablePath)) return use(launchOptions);
      const choice = resolveChromium(process.env, false);
      if (!choice.found) throw new HarnessError("browser", choice.problem);
      const { executablePath: _shell, ...rest } = launchOptions;
      return use(choice.executablePath === undefined ? rest : { ...rest, executablePath: choice.executablePath });
    },
    { scope: "worker" },
  ],

  scenarioBrowserCheck: [
    async ({ browserName }, use) => {
      const choice = resolveChromium();
      if (browserName === "chromium" && !choice.found) throw new HarnessError("browser", choice.problem);
      await use();
    },
    { scope: "worker", auto: true },
  ],

  // Starting the agent is the harness's work, so it has its own timeout, outside the test's.
  agent: [
    async ({ transcript, scenarioApp }, use, testInfo) => {
      const { afterFailure, agentProblems, startAgents, unreachedAgents } = await import("./agent.ts");
      const { agent, each, dispose } = await startAgents(
        transcript,
        (path) => resolve(dirname(testInfo.file), path),
        asksForRoute(scenarioApp),
      );
      let ends: ReadonlyArray<TestEnd>;
      try {
        await use(agent);
      } finally {
        ends = noteTestEnd(testInfo, agent);
        await dispose();
      }
      const finished = each.map((one, index) => ({ name: one.name, status: one.agent.status(), end: ends[index] as TestEnd }));
      // The first unexpected request of all the agents': whether the test had failed before it came.
      const firsts = finished.flatMap(({ status, end }) =>
        status.mismatches[0] === undefined ? [] : [{ first: status.mismatches[0], end }],
      );
      const earliest = firsts.sort((a, b) => a.first.at - b.first.at)[0];
      if (earliest !== undefined && afterFailure(earliest.first, 0, earliest.end)) {
        testInfo.annotations.push({
          type: mismatchAfterFailureAnnotation,
          description: "the test failed before the app sent its first unexpected request",
        });
      }
      const unreached = unreachedAgents(finished, testInfo.status === "passed");
      if (unreached !== undefined && testInfo.status !== "interrupted") {
        testInfo.annotations.push({ type: agentsUnreachedAnnotation, description: unreached });
        process.stderr.write(`scenario-prover: ${unreached}\n`);
      }
      const problem = agentProblems(finished, testInfo.status === "passed");
      if (problem !== undefined) throw problem;
    },
    { timeout: agentTimeoutMs },
  ],

  // Boot has its own budget (the ready timeout, enforced by the harness); timeout 0 keeps this
  // fixture's setup and teardown out of the test's timeout.
  app: [
    async ({ scenarioApp, appEnv, cpuSlowdown, agent, page }, use, testInfo) => {
      const { appRoot, startApp } = await import("./app.ts");
      const { groupedLogs } = await import("./app-processes.ts");
      const { collectPageEvents } = await import("./page-events.ts");
      const pageEvents = collectPageEvents(page);
      const root = appRoot(scenarioApp, testInfo.config.configFile);
      const agents = eachAgent(agent);
      const route = await startRouteFor(scenarioApp, agents);
      let running: Awaited<ReturnType<typeof startApp>>;
      try {
        // In a proof's run started while its side installs, the browser is up by now: the app waits for the install.
        await untilPrepared();
        running = await startApp({
          config: { ...scenarioApp, env: { ...scenarioApp.env, ...appEnv } },
          root,
          page,
          testInfo,
          replayUrl: scenarioApp.provider === undefined ? undefined : agent.url,
          replayCommand: scenarioApp.provider === undefined ? undefined : agent.command,
          replayExecutable: scenarioApp.provider === undefined ? undefined : agent.executable,
          replayNamed: Object.fromEntries(
            agents.flatMap(({ name, agent: one }) => (name === "" || one.url === undefined ? [] : [[name, one.url]])),
          ),
          routeEnv: route?.env,
          cpuSlowdown,
        });
      } catch (error) {
        await route?.stop();
        throw error;
      }
      const started = Date.now();
      try {
        await use(running.app);
      } finally {
        const testEnd = noteTestEnd(testInfo, agent)[0]?.at ?? Date.now();
        pageEvents.stop();
        const failed = testInfo.status !== testInfo.expectedStatus;
        // An interrupted test (Ctrl-C, a stopped proof) has no outcome to show, and a shot of a page whose script hangs
        // would hold the stop up to its timeout.
        if (failed && testInfo.status !== "interrupted") {
          const { failureScreenshotPng } = await import("./screenshot.ts");
          const png = await failureScreenshotPng(page);
          if (png !== undefined) await testInfo.attach(failureScreenshotAttachment, { body: png, contentType: "image/png" });
        }
        // The excerpt is of the output while the test ran: shutdown noise ("[ELIFECYCLE] Command failed") is not why it failed.
        const whileRunning = running.outputs();
        await running.dispose();
        if (route !== undefined) {
          const strays = route.strays();
          await route.stop();
          if (strays.length > 0) noteStrays(testInfo, strays, started);
        }
        const events = pageEvents.metadata(
          agents.flatMap(({ agent: one }) => one.status().mismatches),
          testEnd,
        );
        if (events.events.length > 0) testInfo.annotations.push({ type: pageEventsAnnotation, description: JSON.stringify(events) });
        if (failed || agents.some(({ agent: one }) => one.status().mismatches.length > 0)) {
          await testInfo.attach(serverLogAttachment, { body: running.app.logs(), contentType: "text/plain" });
          testInfo.annotations.push({ type: serverLogExcerptAnnotation, description: groupedLogs(whileRunning, logExcerpt) });
        }
      }
    },
    { timeout: 0 },
  ],
});

export { expect } from "@playwright/test";

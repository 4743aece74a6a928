import { dirname, resolve } from "node:path";
import { test as base, type TestInfo } from "@playwright/test";
import {
  failureScreenshotAttachment,
  mismatchAfterFailureAnnotation,
  serverLogAttachment,
  serverLogExcerptAnnotation,
} from "../common/contract.ts";
import type { ScenarioAgent, TestEnd } from "./agent.ts";
import type { ScenarioApp } from "./app.ts";
import { isHeadlessShell, resolveChromium } from "./chromium.ts";
import type { ScenarioAppConfig, ScenarioWorkerOptions } from "./config.ts";
import { HarnessError } from "./errors.ts";
import { logExcerpt } from "./log-excerpt.ts";

export interface ScenarioTestOptions {
  /** The replay transcript for this test, relative to the scenario file. */
  transcript: string | undefined;
  /** Extra environment for this test's app, over the config's; `{port}`, `{home}`, `{replay}`, `{replayCommand}` are substituted. */
  appEnv: Readonly<Record<string, string>>;
}

/** The scenario's fixtures, beside Playwright's own (the browser page is its `page`). */
export interface ScenarioFixtures extends ScenarioTestOptions {
  app: ScenarioApp;
  agent: ScenarioAgent;
}

interface InternalWorkerFixtures extends ScenarioWorkerOptions {
  scenarioBrowserCheck: void;
}

/**
 * Where each running test's own steps ended, noted by the app fixture as its teardown begins (the
 * agent fixture tears down after the app, so its own teardown comes too late to say).
 */
const testEnds = new WeakMap<TestInfo, TestEnd>();

/** The test's end as first noted: by the app fixture when the test used the app, else by the agent fixture. */
function noteTestEnd(testInfo: TestInfo, agent: ScenarioAgent): TestEnd {
  const noted = testEnds.get(testInfo);
  if (noted !== undefined) return noted;
  const end = {
    at: Date.now(),
    failed: testInfo.status !== "passed" && testInfo.status !== "skipped",
    mismatches: agent.status().mismatches.length,
  };
  testEnds.set(testInfo, end);
  return end;
}

/** The replay agent fixture's own timeout, for its start and its end. */
const agentTimeoutMs = 30_000;

/**
 * The replay agent and the app's process code are imported by the fixtures that use them, not
 * here: Playwright's runner loads this module with the config, and loading them there would cost
 * every run (and every listing) a second or more for nothing.
 */
export const test = base.extend<ScenarioFixtures, InternalWorkerFixtures>({
  scenarioApp: [{ start: "" } satisfies ScenarioAppConfig, { option: true, scope: "worker" }],
  transcript: [undefined, { option: true }],
  appEnv: [{}, { option: true }],

  // A headed run (--headed, --debug) cannot use the headless shell the config picked for a headless
  // one: it gets the browser a headed run would. The project's `use` holds the command line's
  // headless: false, which the config, loaded before, could not see.
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

  // The replay agent's start (loading the harness's code, the transcript) is the harness's work, not
  // the test's: it has a timeout of its own, outside the test's.
  agent: [
    async ({ transcript }, use, testInfo) => {
      const { afterFailure, agentProblems, startAgent } = await import("./agent.ts");
      const file = transcript === undefined ? undefined : resolve(dirname(testInfo.file), transcript);
      const { agent, dispose } = await startAgent(file);
      let end: TestEnd;
      try {
        await use(agent);
      } finally {
        end = noteTestEnd(testInfo, agent);
        await dispose();
      }
      const status = agent.status();
      const first = status.mismatches[0];
      if (first !== undefined && afterFailure(first, 0, end)) {
        testInfo.annotations.push({
          type: mismatchAfterFailureAnnotation,
          description: "the test failed before the app sent its first unexpected request",
        });
      }
      const problem = agentProblems(status, testInfo.status === "passed", end);
      if (problem !== undefined) throw problem;
    },
    { timeout: agentTimeoutMs },
  ],

  // Boot (and a dev server's first compile, which readiness includes) has its own budget, the
  // ready timeout, which the harness enforces: this fixture's own timeout slot (0, none) keeps its
  // setup and teardown out of the test's timeout, which then counts the test's own steps only.
  app: [
    async ({ scenarioApp, appEnv, agent, page }, use, testInfo) => {
      const { appRoot, startApp } = await import("./app.ts");
      const root = appRoot(scenarioApp, testInfo.config.configFile);
      const running = await startApp({
        config: { ...scenarioApp, env: { ...scenarioApp.env, ...appEnv } },
        root,
        page,
        testInfo,
        replayUrl: scenarioApp.provider === undefined ? undefined : agent.url,
        replayCommand: scenarioApp.provider === undefined ? undefined : agent.command,
      });
      try {
        await use(running.app);
      } finally {
        noteTestEnd(testInfo, agent);
        const failed = testInfo.status !== testInfo.expectedStatus;
        if (failed) {
          const { failureScreenshotPng } = await import("./screenshot.ts");
          const png = await failureScreenshotPng(page);
          if (png !== undefined) await testInfo.attach(failureScreenshotAttachment, { body: png, contentType: "image/png" });
        }
        // The excerpt is of what the app printed while the test ran: its shutdown (a package
        // manager's "[ELIFECYCLE] Command failed" once stopped) is not why the test failed.
        const whileRunning = running.app.logs();
        await running.dispose();
        if (failed || agent.status().mismatches.length > 0) {
          await testInfo.attach(serverLogAttachment, { body: running.app.logs(), contentType: "text/plain" });
          testInfo.annotations.push({ type: serverLogExcerptAnnotation, description: logExcerpt(whileRunning) });
        }
      }
    },
    { timeout: 0 },
  ],
});

export { expect } from "@playwright/test";

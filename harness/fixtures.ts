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
import { untilPrepared } from "./prepared.ts";

export interface ScenarioTestOptions {
  /** The replay transcript for this test, relative to the scenario file. */
  transcript: string | undefined;
  /** Extra environment for this test's app, over the config's; `{port}`, `{home}`, `{replay}`, `{replayCommand}`, `{replayExecutable}` are substituted. */
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

/** Where each test's own steps ended, noted as the app fixture's teardown begins (the agent's comes later). */
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
 * The scenario `test`: Playwright's, with the `app` and `agent` fixtures. Those import their code
 * lazily: this module loads with the config, and eager imports would slow every run and listing.
 */
export const test = base.extend<ScenarioFixtures, InternalWorkerFixtures>({
  scenarioApp: [{ start: "" } satisfies ScenarioAppConfig, { option: true, scope: "worker" }],
  transcript: [undefined, { option: true }],
  appEnv: [{}, { option: true }],

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

  // Boot has its own budget (the ready timeout, enforced by the harness); timeout 0 keeps this
  // fixture's setup and teardown out of the test's timeout.
  app: [
    async ({ scenarioApp, appEnv, agent, page }, use, testInfo) => {
      const { appRoot, startApp } = await import("./app.ts");
      const root = appRoot(scenarioApp, testInfo.config.configFile);
      // In a proof's run started while its side installs, the browser is up by now: the app waits for the install.
      await untilPrepared();
      const running = await startApp({
        config: { ...scenarioApp, env: { ...scenarioApp.env, ...appEnv } },
        root,
        page,
        testInfo,
        replayUrl: scenarioApp.provider === undefined ? undefined : agent.url,
        replayCommand: scenarioApp.provider === undefined ? undefined : agent.command,
        replayExecutable: scenarioApp.provider === undefined ? undefined : agent.executable,
      });
      try {
        await use(running.app);
      } finally {
        noteTestEnd(testInfo, agent);
        const failed = testInfo.status !== testInfo.expectedStatus;
        // An interrupted test (Ctrl-C, a stopped proof) has no outcome to show, and a shot of a page whose script hangs
        // would hold the stop up to its timeout.
        if (failed && testInfo.status !== "interrupted") {
          const { failureScreenshotPng } = await import("./screenshot.ts");
          const png = await failureScreenshotPng(page);
          if (png !== undefined) await testInfo.attach(failureScreenshotAttachment, { body: png, contentType: "image/png" });
        }
        // The excerpt is of the output while the test ran: shutdown noise ("[ELIFECYCLE] Command failed") is not why it failed.
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

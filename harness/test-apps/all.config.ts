import { defineConfig, type PlaywrightTestConfig, type Project } from "@playwright/test";
import type { ScenarioWorkerOptions } from "../config.ts";
import compileApp from "./compile-app/playwright.config.ts";
import envApp from "./env-app/playwright.config.ts";
import hydrateApp from "./hydrate-app/playwright.config.ts";
import hydrateNever from "./hydrate-app/never.config.ts";
import hydrateNoWait from "./hydrate-app/no-wait.config.ts";
import lateRequest from "./late-request/playwright.config.ts";
import measureApp from "./measure-app/playwright.config.ts";
import originDefaultHost from "./origin-app/default-host.config.ts";
import originApp from "./origin-app/playwright.config.ts";
import processesApiFails from "./processes-app/api-fails.config.ts";
import processesApp from "./processes-app/playwright.config.ts";
import readinessApp from "./readiness-app/playwright.config.ts";
import routeAiSdk from "./route-app/ai-sdk.config.ts";
import routeHttps from "./route-app/https.config.ts";
import routePython from "./route-app/python.config.ts";
import servicesFailingPrepare from "./services-app/failing-prepare.config.ts";
import servicesApp from "./services-app/playwright.config.ts";
import stdioApp from "./stdio-app/playwright.config.ts";
import wrongTranscript from "./wrong-transcript/playwright.config.ts";

type AppConfig = PlaywrightTestConfig<object, ScenarioWorkerOptions>;

/** A test app's config as one project: its folder, its tests, its timeouts and its `use`, which holds its app. */
const project = (name: string, folder: string, config: AppConfig, only: Pick<Project, "testMatch" | "grep"> = {}) =>
  ({
    name,
    testDir: `./${folder}`,
    testMatch: only.testMatch ?? config.testMatch,
    grep: only.grep,
    timeout: config.timeout,
    expect: config.expect,
    use: config.use,
  }) satisfies Project<object, ScenarioWorkerOptions>;

/** hydrate-app's first click test alone: the one other configs of the app fail. */
const firstClick = { testMatch: "interactive.e2e.ts", grep: /A click right after app\.open\(\) counts$/ };

/**
 * Every test app of harness/harness.test.ts in one Playwright run, a project per app config: one
 * runner start instead of one per config. Each project's app starts per test, as in its own run.
 * Two workers: several tests wait out a delay of their app's (a slow first render, a late script).
 */
export default defineConfig<object, ScenarioWorkerOptions>({
  workers: 2,
  projects: [
    project("env-app", "env-app", envApp),
    project("stdio-app", "stdio-app", stdioApp),
    project("readiness-app", "readiness-app", readinessApp, { grep: /warms up/ }),
    project("origin-app", "origin-app", originApp),
    project("origin-app default-host", "origin-app", originDefaultHost),
    project("compile-app", "compile-app", compileApp),
    project("hydrate-app", "hydrate-app", hydrateApp),
    project("hydrate-app no-wait", "hydrate-app", hydrateNoWait, firstClick),
    project("hydrate-app never", "hydrate-app", hydrateNever, firstClick),
    project("wrong-transcript", "wrong-transcript", wrongTranscript),
    project("late-request", "late-request", lateRequest),
    project("measure-app", "measure-app", measureApp),
    project("route-app ai-sdk", "route-app", routeAiSdk),
    project("route-app https", "route-app", routeHttps),
    project("route-app python", "route-app", routePython),
    project("services-app", "services-app", servicesApp),
    project("services-app failing-prepare", "services-app", servicesFailingPrepare),
    project("processes-app", "processes-app", processesApp),
    project("processes-app api-fails", "processes-app", processesApiFails),
  ],
});

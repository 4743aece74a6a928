import { writeFileSync } from "node:fs";
import { sep } from "node:path";
import type { Reporter, TestCase, TestResult, TestStep } from "@playwright/test/reporter";
import { stepsFileEnv, type StepMetadata } from "../common/contract.ts";

/** The steps a scenario's reader knows: its own `test.step`s, its page and locator calls, its assertions. */
const shown = new Set(["test.step", "pw:api", "expect"]);

/** The folder of the harness's own files (this module's: the sources in a clone, the package's bundles once installed). */
const harnessFolder = `${import.meta.dirname}${sep}`;

/**
 * Where a step is in the scenario: its own place, or for a call the harness made (app.open's navigation) the place of
 * the nearest step around it that is the scenario's; undefined when none is (the reader is not sent into the harness).
 */
function scenarioLocation(step: TestStep): string | undefined {
  for (let at: TestStep | undefined = step; at !== undefined; at = at.parent) {
    if (at.location !== undefined && !at.location.file.startsWith(harnessFolder)) return `${at.location.file}:${at.location.line}`;
  }
  return undefined;
}

/**
 * A Playwright reporter the prover adds to a proof's run beside the JSON one: it writes each step of the test, with
 * when it began and ended, to the file stepsFileEnv names, so that what the app did at a moment (a call the route
 * refused) can be named by the step the test was in.
 */
export default class StepsReporter implements Reporter {
  private readonly steps: StepMetadata[] = [];

  onStepEnd(_test: TestCase, _result: TestResult, step: TestStep): void {
    if (!shown.has(step.category)) return;
    const start = step.startTime.getTime();
    const location = scenarioLocation(step);
    this.steps.push({ title: step.title, start, end: start + step.duration, ...(location === undefined ? {} : { location }) });
  }

  onEnd(): void {
    const file = process.env[stepsFileEnv];
    if (file !== undefined && file !== "") writeFileSync(file, JSON.stringify(this.steps));
  }

  printsToStdio(): boolean {
    return false;
  }
}

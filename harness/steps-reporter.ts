import { writeFileSync } from "node:fs";
import type { Reporter, TestCase, TestResult, TestStep } from "@playwright/test/reporter";
import { stepsFileEnv, type StepMetadata } from "../common/contract.ts";

/** The steps a scenario's reader knows: its own `test.step`s, its page and locator calls, its assertions. */
const shown = new Set(["test.step", "pw:api", "expect"]);

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
    const location = step.location === undefined ? undefined : `${step.location.file}:${step.location.line}`;
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

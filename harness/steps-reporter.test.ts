import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestCase, TestResult, TestStep } from "@playwright/test/reporter";
import { afterEach, describe, expect, it, vi } from "vitest";
import { stepsFileEnv } from "../common/contract.ts";
import StepsReporter from "./steps-reporter.ts";

const scratch: string[] = [];
afterEach(async () => {
  vi.unstubAllEnvs();
  await Promise.all(scratch.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A step as Playwright reports it, with the fields the reporter reads. */
const step = (title: string, category: string, file: string | undefined, line: number, parent?: TestStep): TestStep =>
  ({
    title,
    category,
    startTime: new Date(Date.parse("2026-12-04T10:00:00Z") + line),
    duration: 5,
    ...(file === undefined ? {} : { location: { file, line, column: 3 } }),
    ...(parent === undefined ? {} : { parent }),
  }) as unknown as TestStep;

describe("the steps reporter", () => {
  it("places a call the harness made (app.open's navigation) at the scenario's step around it, or nowhere, never in the harness's own files", async () => {
    const dir = await mkdtemp(join(tmpdir(), "steps-reporter-"));
    scratch.push(dir);
    vi.stubEnv(stepsFileEnv, join(dir, "steps.json"));
    const scenario = "/repo/scenarios/chat.e2e.ts";
    const harnessFile = join(import.meta.dirname, "app.ts");
    const reporter = new StepsReporter();
    const opening = step("open the chat", "test.step", scenario, 6);
    for (const one of [
      step("Navigate", "pw:api", harnessFile, 318, opening),
      step("Navigate", "pw:api", harnessFile, 319),
      step("Click", "pw:api", scenario, 9),
    ]) {
      reporter.onStepEnd({} as TestCase, {} as TestResult, one);
    }
    reporter.onEnd();
    const written = JSON.parse(await readFile(join(dir, "steps.json"), "utf8")) as Array<{ title: string; location?: string }>;
    expect(written.map(({ title, location }) => [title, location])).toEqual([
      ["Navigate", `${scenario}:6`],
      ["Navigate", undefined],
      ["Click", `${scenario}:9`],
    ]);
  });
});

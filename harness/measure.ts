import { randomUUID } from "node:crypto";
import { rm } from "node:fs/promises";
import type { CDPSession, Page, TestInfo } from "@playwright/test";
import { cpuSlowdownEnv, measureAnnotation, measureTraceEnv, type MeasureMetadata, type MeasureMetric } from "../common/contract.ts";
import { HarnessError } from "./errors.ts";
import { collectPage, stopWatch, watchPage } from "./measure-page.ts";

/** What app.measure() returns: each metric of the block (common/contract.ts, measureMetrics), in its unit. */
export type Measurement = Readonly<Record<MeasureMetric, number>>;

/** How long the page has to draw its first frames before a block: a visible page draws one each 16 ms at 60 Hz. */
const frameWaitMs = 2_000;

/**
 * The Performance domain's durations, seconds of thread time, by the metric each one gives. Its categories are exclusive:
 * the time the protocol's own commands took (DevToolsCommandDuration: Playwright's actionability checks and expect's
 * polling, this module's getMetrics) is apart from the script, layout and style they caused, so `task` and `cpu` leave it out.
 */
const threadTimes = {
  task: "TaskDuration",
  script: "ScriptDuration",
  layout: "LayoutDuration",
  style: "RecalcStyleDuration",
  cpu: "ThreadTime",
} as const;

/**
 * The CPU slowdown a block runs at: cpuSlowdownEnv when set (a proof's --cpu-slowdown, over the scenario's own), else
 * the test's `cpuSlowdown` option; undefined for none. A factor must be a number above 1.
 */
export function cpuSlowdown(option: number | undefined, env: NodeJS.ProcessEnv = process.env): number | undefined {
  const fromEnv = env[cpuSlowdownEnv];
  if (fromEnv !== undefined && fromEnv !== "") {
    const factor = Number(fromEnv);
    if (Number.isFinite(factor) && factor > 1) return factor;
    throw new HarnessError(
      "config",
      `${cpuSlowdownEnv} is ${JSON.stringify(fromEnv)}: set it to a CPU slowdown factor above 1 (4 runs the page 4× slower), or unset it.`,
    );
  }
  if (option === undefined) return undefined;
  if (Number.isFinite(option) && option > 1) return option;
  throw new HarnessError(
    "config",
    `the cpuSlowdown option is ${String(option)}: set it to a factor above 1 (test.use({ cpuSlowdown: 4 })), or leave it out.`,
  );
}

/**
 * What a block's trace records: the main thread's tasks, with the script, style, layout and paint in
 * them and the functions each script task called (DevTools' Performance panel reads all of it), but not
 * the JS sampling profiler nor screenshots, which Playwright's default adds: those made a block's task
 * time half as long again (3.4 s untraced, 5.1 s traced, the zoo's long reply) and its trace 40 MB.
 */
const traceCategories = [
  "devtools.timeline",
  "disabled-by-default-devtools.timeline",
  "v8.execute",
  "blink.user_timing",
  "loading",
  "latencyInfo",
] as const;

/** A label as part of a file name. */
const fileSafe = (label: string) => label.replace(/[^\w.-]+/g, "-").slice(0, 60);

const commands = "DevToolsCommandDuration";
const heapUsed = "JSHeapUsedSize";

/** The Performance domain's metrics the block reads, now, by name. */
async function metrics(session: CDPSession): Promise<Readonly<Record<string, number>>> {
  const { metrics: all } = await session.send("Performance.getMetrics");
  const byName = new Map(all.map(({ name, value }) => [name, value]));
  const read = [...Object.values(threadTimes), commands, heapUsed];
  const missing = read.filter((name) => byName.get(name) === undefined);
  if (missing.length > 0) {
    throw new HarnessError(
      "browser",
      `this Chromium's Performance.getMetrics has no ${missing.join(", ")}: app.measure() needs a Chromium that reports them: point SCENARIO_CHROMIUM at a recent one, or unset it.`,
    );
  }
  return Object.fromEntries(read.map((name) => [name, byName.get(name) as number]));
}

/** Labels measured so far in each test: a label names one block of its test. */
const measured = new WeakMap<TestInfo, Set<string>>();

/**
 * Measures what the page's main thread did while `block` ran (app.measure), notes it as a measureAnnotation and returns
 * it. The block's own error propagates as it was; the DevTools session, the throttling and the trace end on every path.
 */
export async function measure(
  input: { readonly page: Page; readonly testInfo: TestInfo; readonly cpuSlowdown: number | undefined },
  label: string,
  block: () => Promise<unknown>,
): Promise<Measurement> {
  const { page, testInfo } = input;
  if (label.trim() === "") throw new Error('app.measure() needs a label naming the block, e.g. app.measure("send a message", ...).');
  const labels = measured.get(testInfo) ?? new Set<string>();
  if (labels.has(label)) {
    throw new Error(
      `app.measure(${JSON.stringify(label)}): this test has measured a block of that label already: give each block its own label.`,
    );
  }
  const browser = page.context().browser();
  const browserName = browser?.browserType().name();
  if (browser === null || browserName !== "chromium") {
    throw new HarnessError(
      "browser",
      `app.measure(${JSON.stringify(label)}) reads the page's work from Chromium's DevTools protocol, and this test runs in ${browserName ?? "a persistent context"}: ` +
        'run it in a chromium project (use: { browserName: "chromium" }).',
    );
  }
  const slowdown = cpuSlowdown(input.cpuSlowdown);
  labels.add(label);
  measured.set(testInfo, labels);
  const trace =
    process.env[measureTraceEnv] === "1" ? testInfo.outputPath(`measure-${String(labels.size)}-${fileSafe(label)}.trace.json`) : undefined;

  if (trace !== undefined) await browser.startTracing(page, { path: trace, screenshots: false, categories: [...traceCategories] });
  const blockRun = { page, label, slowdown, token: `__scenarioMeasure_${randomUUID().replaceAll("-", "")}` };
  let measurement: Measurement;
  let session: CDPSession | undefined;
  try {
    session = await page.context().newCDPSession(page);
    measurement = await measureBlock(session, blockRun, block);
  } catch (error) {
    // The block's own error is the one to see: a cleanup that fails after it (a closed page) says nothing more.
    await end(page, session, slowdown, trace).catch(() => undefined);
    // A block that failed leaves the page's watch running: its frame loop would go on through the rest of the test.
    await page.evaluate(stopWatch, blockRun.token).catch(() => undefined);
    if (trace !== undefined) await rm(trace, { force: true });
    throw error;
  }
  await end(page, session, slowdown, trace);
  const metadata: MeasureMetadata = {
    label,
    metrics: measurement,
    ...(trace === undefined ? {} : { trace }),
    ...(slowdown === undefined ? {} : { cpuSlowdown: slowdown }),
  };
  testInfo.annotations.push({ type: measureAnnotation, description: JSON.stringify(metadata) });
  return measurement;
}

/** Runs the block between two readings of the Performance domain and of the page's watch, at the slowdown asked for. */
async function measureBlock(
  session: CDPSession,
  {
    page,
    label,
    slowdown,
    token,
  }: { readonly page: Page; readonly label: string; readonly slowdown: number | undefined; readonly token: string },
  block: () => Promise<unknown>,
): Promise<Measurement> {
  // Thread time: the durations are CPU time of the renderer's main thread, which a busy machine stretches less than wall time.
  await session.send("Performance.enable", { timeDomain: "threadTicks" });
  await page.evaluate(watchPage, [token, frameWaitMs] as const).catch((error: unknown) => {
    throw new Error(
      `app.measure(${JSON.stringify(label)}) could not watch the page's frames before the block: ${String(error)}. Measure a visible, open page.`,
    );
  });
  if (slowdown !== undefined) await session.send("Emulation.setCPUThrottlingRate", { rate: slowdown });
  const before = await metrics(session);
  const started = performance.now();
  await block();
  const wall = performance.now() - started;
  const after = await metrics(session);
  const seen = await page.evaluate(collectPage, token);
  if (seen === undefined) {
    throw new Error(
      `app.measure(${JSON.stringify(label)}): the page navigated while the block ran (now at ${page.url()}), and a new document loses what the page saw: ` +
        "open the page before app.measure(), and measure what each page does in its own block.",
    );
  }
  const spent = (name: string) => ((after[name] as number) - (before[name] as number)) * 1000;
  return {
    task: Math.max(0, spent(threadTimes.task) - spent(commands)),
    script: spent(threadTimes.script),
    layout: spent(threadTimes.layout),
    style: spent(threadTimes.style),
    cpu: Math.max(0, spent(threadTimes.cpu) - spent(commands)),
    blocking: seen.blocking,
    "long-tasks": seen.longTasks,
    "dropped-frames": seen.droppedFrames,
    interaction: seen.interaction,
    heap: after[heapUsed] as number,
    wall,
  };
}

/** Ends a block's measuring, on every path: its throttling reset, its session detached, its trace stopped. */
async function end(page: Page, session: CDPSession | undefined, slowdown: number | undefined, trace: string | undefined): Promise<void> {
  if (session !== undefined) {
    // A page closed in the block took its throttling and its session with it.
    if (slowdown !== undefined) await session.send("Emulation.setCPUThrottlingRate", { rate: 1 }).catch(() => undefined);
    await session.detach().catch(() => undefined);
  }
  if (trace !== undefined) await page.context().browser()?.stopTracing();
}

// A performance proof's part of the report: report.json's `performance`, the plot of every sample, each side's warm-up trace, and report.md's section.
import { readFile, writeFile, mkdir } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { gzip } from "node:zlib";
import type { SideName } from "../outcome/types.ts";
import type { PerfRequest } from "../perf/request.ts";
import type { Sampled, SideSamples } from "../perf/samples.ts";
import { median, ratioInterval } from "../perf/stats.ts";
import { formatRange, formatRatio, formatValue } from "../perf/words.ts";
import { escapeXml } from "./comparison.ts";
import { redact, type Redactions, type Replacement } from "./redact.ts";
import type { ReportPerformance } from "./schema.ts";
import { loadSharp } from "./sharp.ts";

/** What the report is given of a performance proof. */
export interface PerformanceInput {
  readonly request: PerfRequest;
  readonly sampled: Sampled;
}

const plotFile = "images/performance.png";
const colors: Readonly<Record<SideName, string>> = { base: "#cf222e", head: "#1a7f37" };

/** The plot as SVG: every sample of each side, in sample order along x, its value up y from 0, base and head in their colours. */
export function plotSvg(request: PerfRequest, base: ReadonlyArray<number>, head: ReadonlyArray<number>): string {
  const width = 720;
  const height = 360;
  const left = 90;
  const right = 20;
  const top = 40;
  const bottom = 50;
  const count = Math.max(base.length, head.length, 2);
  const highest = Math.max(...base, ...head, Number.MIN_VALUE);
  const x = (index: number) => left + ((width - left - right) * index) / (count - 1);
  const y = (value: number) => top + (height - top - bottom) * (1 - value / highest);
  const font = `font-family="DejaVu Sans, Liberation Sans, sans-serif"`;
  const dots = (side: SideName, values: ReadonlyArray<number>) =>
    values
      .map(
        (value, index) =>
          `<circle cx="${x(index).toFixed(1)}" cy="${y(value).toFixed(1)}" r="5" fill="${colors[side]}" fill-opacity="0.8"/>`,
      )
      .join("");
  const ticks = [0, 0.5, 1].map(
    (share) =>
      `<line x1="${left}" x2="${width - right}" y1="${y(highest * share)}" y2="${y(highest * share)}" stroke="#d0d7de"/>` +
      `<text x="${left - 8}" y="${y(highest * share) + 4}" text-anchor="end" ${font} font-size="12" fill="#656d76">${escapeXml(formatValue(request.metric, highest * share))}</text>`,
  );
  const legend = (["base", "head"] as const).map(
    (side, index) =>
      `<circle cx="${left + index * 140 + 6}" cy="20" r="6" fill="${colors[side]}"/>` +
      `<text x="${left + index * 140 + 18}" y="25" ${font} font-size="14" fill="#1f2328">${side} (${side === "base" ? base.length : head.length})</text>`,
  );
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
    `<rect width="${width}" height="${height}" fill="#ffffff"/>` +
    ticks.join("") +
    legend.join("") +
    `<text x="${width - right}" y="25" text-anchor="end" ${font} font-size="14" fill="#1f2328">${escapeXml(request.typed)}, lower is better</text>` +
    `<text x="${(left + width - right) / 2}" y="${height - 15}" text-anchor="middle" ${font} font-size="12" fill="#656d76">sample, in the order each side ran</text>` +
    dots("base", base) +
    dots("head", head) +
    `</svg>`
  );
}

/**
 * A side's warm-up run's traces, copied redacted and gzipped into `<side>/` of the report folder (one
 * per measured block with a trace): a block of many layouts traces to tens of MB (94 MB, 4.7 MB gzipped,
 * for 300 list renders), and DevTools' Performance panel opens a .json.gz as it is. Only the warm-up is traced: tracing slows the page (the zoo's long reply's task
 * time by a fifth), which the app can observe, so no counted sample is.
 */
async function keepWarmupTraces(
  name: SideName,
  side: SideSamples,
  dir: string,
  replacements: ReadonlyArray<Replacement>,
  found: Redactions,
): Promise<ReadonlyArray<string>> {
  const kept: string[] = [];
  if (side.warmup !== undefined) {
    const traces = (side.warmup.artifacts.measures ?? []).flatMap((block) => (block.trace === undefined ? [] : [block.trace]));
    for (const [number, trace] of traces.entries()) {
      const text = await readFile(trace, "utf8").catch(() => undefined);
      if (text === undefined) continue;
      const path = `${name}/measure-trace${traces.length > 1 ? `-${number + 1}` : ""}.json.gz`;
      await mkdir(join(dir, name), { recursive: true });
      await writeFile(join(dir, path), await gzipped(redact(text, replacements, found)));
      kept.push(path);
    }
  }
  return kept;
}

const gzipped = promisify(gzip);

/**
 * The CPU slowdown the compared blocks ran at, as their runs noted it: `--cpu-slowdown`, or the
 * scenario's own `cpuSlowdown` option without it; null when they ran at full speed. Before any run
 * measured a compared block (a proof ended by base's warm-up), the one `--cpu-slowdown` asked for.
 */
function slowdownOf(request: PerfRequest, sampled: Sampled): number | null {
  const runs = [sampled.base, sampled.head].flatMap((side) => [
    ...(side.warmup === undefined ? [] : [side.warmup]),
    ...side.samples.map((sample) => sample.attempt),
  ]);
  const blocks = runs
    .flatMap((run) => run.artifacts.measures ?? [])
    .filter((block) => request.label === undefined || block.label === request.label);
  if (blocks.length === 0) return request.cpuSlowdown ?? null;
  return blocks.find((block) => block.cpuSlowdown !== undefined)?.cpuSlowdown ?? null;
}

/** report.json's `performance`, writing its plot and traces into report folder `dir`. */
export async function writePerformance(
  input: PerformanceInput,
  dir: string,
  replacements: ReadonlyArray<Replacement>,
  found: Redactions,
): Promise<ReportPerformance> {
  const { request, sampled } = input;
  const values = (side: SideSamples) => side.samples.map((sample) => sample.value);
  const base = values(sampled.base);
  const head = values(sampled.head);
  const shown = ratioInterval(base, head);
  let plot: string | null = null;
  if (base.length + head.length > 0) {
    await mkdir(join(dir, "images"), { recursive: true });
    await (
      await loadSharp()
    )(Buffer.from(plotSvg(request, base, head)))
      .png()
      .toFile(join(dir, plotFile));
    plot = plotFile;
  }
  const end = sampled.end;
  return {
    mode: request.mode,
    metric: request.typed,
    margin: request.marginPercent,
    maxSamples: request.maxSamples,
    cpuSlowdown: slowdownOf(request, sampled),
    outcome: end.kind === "decided" ? end.outcome : null,
    samples: { base, head },
    order: sampled.order,
    median: { base: base.length === 0 ? null : median(base), head: head.length === 0 ? null : median(head) },
    ratio: shown?.ratio ?? null,
    interval: shown === undefined ? null : { confidence: shown.confidence, low: shown.low, high: shown.high },
    decidedOn:
      end.kind === "decided" && end.decidedOn !== undefined
        ? { confidence: end.decidedOn.confidence, low: end.decidedOn.low, high: end.decidedOn.high }
        : null,
    plot,
    traces: {
      base: await keepWarmupTraces("base", sampled.base, dir, replacements, found),
      head: await keepWarmupTraces("head", sampled.head, dir, replacements, found),
    },
  };
}

/** report.md's performance section. */
export function performanceMarkdown(performance: ReportPerformance, metric: Parameters<typeof formatValue>[0]): string {
  const value = (number: number | null) => (number === null ? "—" : formatValue(metric, number));
  const interval = performance.interval;
  const rows = [
    `| | base | head |`,
    `| - | - | - |`,
    `| median ${performance.metric} | ${value(performance.median.base)} | ${value(performance.median.head)} |`,
    `| samples | ${performance.samples.base.length} | ${performance.samples.head.length} |`,
    `| warm-up run's trace | ${traceLinks(performance.traces.base)} | ${traceLinks(performance.traces.head)} |`,
  ];
  const ratio =
    performance.ratio === null || interval === null
      ? performance.outcome === null
        ? "head ÷ base: not compared: a run ended the proof before each side had two samples (the verdict says which and why)"
        : "head ÷ base: none (base's value is 0 in every sample)"
      : `head ÷ base **${formatRatio(performance.ratio)}**, 95 % interval ${formatRange(interval.low, interval.high)}` +
        (performance.decidedOn === null
          ? ""
          : ` (decided on its 99 % interval, ${formatRange(performance.decidedOn.low, performance.decidedOn.high)})`);
  const question =
    performance.mode === "faster"
      ? `--faster ${performance.metric}: head must be faster by more than ${performance.margin} %`
      : `--not-slower ${performance.metric}: head must not be slower by more than ${performance.margin} %`;
  const slowdown = performance.cpuSlowdown === null ? "" : `, the renderer ${performance.cpuSlowdown}× slower while measured`;
  return [
    "### Performance",
    "",
    `${question}; samples in turns (base, head, head, base, …) after a warm-up run of each side, at most ${performance.maxSamples} a side${slowdown}.`,
    "",
    ratio,
    "",
    ...rows,
    ...(performance.plot === null ? [] : ["", `<img src="${performance.plot}" width="720" alt="every sample of base and head, in order">`]),
  ].join("\n");
}

const traceLinks = (paths: ReadonlyArray<string>) => (paths.length === 0 ? "—" : paths.map((path) => `[${path}](${path})`).join(", "));

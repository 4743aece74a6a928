import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join, posix, relative, sep } from "node:path";
import * as Effect from "effect/Effect";
import { scenarioFolder } from "../report/folders.ts";
import type { ProofReport } from "../report/schema.ts";
import type { ProofSummary, SummaryRow } from "../summary/schema.ts";
import type { BranchFile } from "./branch.ts";
import { BadReport, ReportNotFound } from "./errors.ts";
import { reportForPr, reportPr, summaryPr, type ScenarioSection } from "./pr-markdown.ts";
import { fileUrl } from "./remote-url.ts";

/** What publishing a proof folder (one report, or a summary of several) puts on the branch, and its pr.md. */
export interface ProofFolder {
  /** pr.md, beside report.md or summary.md. */
  readonly prFile: string;
  /** The proof's folders on the branch: each is replaced by exactly its files. */
  readonly folders: ReadonlyArray<string>;
  readonly files: ReadonlyArray<BranchFile>;
  readonly message: string;
  /** pr.md's text, given the URL the branch's paths are appended to. */
  readonly prMarkdown: (urlBase: string) => string;
}

/** A proof's folder on the branch is `<base7>-<head7>`; a side without a sha is named by its ref, made safe. */
type Side = { readonly sha: string | null; readonly ref: string };
const short = (side: Side) => side.sha?.slice(0, 7) ?? (side.ref.replace(/[^A-Za-z0-9._-]+/g, "_") || "ref");
const pair = (base: Side, head: Side, separator = "-") => `${short(base)}${separator}${short(head)}`;

const readText = (file: string) =>
  Effect.tryPromise({
    try: () => readFile(file, "utf8"),
    catch: (error) => new BadReport({ file, detail: `could not be read (${error instanceof Error ? error.message : String(error)})` }),
  });

const readJson = (file: string) =>
  Effect.flatMap(readText(file), (text) =>
    Effect.try({
      try: (): unknown => JSON.parse(text),
      catch: (error) => new BadReport({ file, detail: `is not JSON (${error instanceof Error ? error.message : String(error)})` }),
    }),
  );

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null;

function asReport(file: string, value: unknown): Effect.Effect<ProofReport, BadReport> {
  const ok =
    isObject(value) &&
    value["schema"] === "scenario-proof/v1" &&
    isObject(value["scenario"]) &&
    typeof value["scenario"]["file"] === "string" &&
    isObject(value["base"]) &&
    isObject(value["head"]) &&
    typeof value["markdown"] === "string";
  return ok
    ? Effect.succeed(value as unknown as ProofReport)
    : Effect.fail(new BadReport({ file, detail: 'is not a report of schema "scenario-proof/v1"' }));
}

function asSummary(file: string, value: unknown): Effect.Effect<ProofSummary, BadReport> {
  const ok =
    isObject(value) &&
    value["schema"] === "scenario-proof-summary/v1" &&
    isObject(value["base"]) &&
    isObject(value["head"]) &&
    Array.isArray(value["scenarios"]) &&
    value["scenarios"].every((row: unknown) => isObject(row) && typeof row["dir"] === "string" && typeof row["file"] === "string");
  return ok
    ? Effect.succeed(value as unknown as ProofSummary)
    : Effect.fail(new BadReport({ file, detail: 'is not a summary of schema "scenario-proof-summary/v1"' }));
}

/** The report's images, relative to its folder: every file under images/, and comparison.png when there is one. Never traces or logs. */
const imagesOf = (dir: string) =>
  Effect.tryPromise({
    try: async () => {
      const images = existsSync(join(dir, "images")) ? await readdir(join(dir, "images"), { recursive: true, withFileTypes: true }) : [];
      const paths = images
        .filter((entry) => entry.isFile())
        .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join("/"));
      if (existsSync(join(dir, "comparison.png"))) paths.push("comparison.png");
      return paths.sort();
    },
    catch: (error) =>
      new BadReport({
        file: join(dir, "images"),
        detail: `could not be listed (${error instanceof Error ? error.message : String(error)})`,
      }),
  });

interface PublishedReport {
  readonly files: ReadonlyArray<BranchFile>;
  readonly markdown: string;
  /** The URL of each image, by its path relative to the report's folder. */
  readonly urls: (urlBase: string) => ReadonlyMap<string, string>;
}

/** One report folder's images at `folder` on the branch, and its Markdown (report.md, compare.md, bisect.md). */
const publishedReport = Effect.fn("Publish.publishedReport")(function* (
  dir: string,
  report: { readonly markdown: string },
  folder: string,
) {
  const images = yield* imagesOf(dir);
  const markdown = yield* readText(join(dir, report.markdown));
  return {
    files: images.map((path) => ({ path: `${folder}/${path}`, source: join(dir, path) })),
    markdown,
    urls: (urlBase: string) => new Map(images.map((path) => [path, fileUrl(urlBase, `${folder}/${path}`)])),
  } satisfies PublishedReport;
});

const singleReport = Effect.fn("Publish.singleReport")(function* (dir: string) {
  const report = yield* asReport(join(dir, "report.json"), yield* readJson(join(dir, "report.json")));
  const folder = `${scenarioFolder(report.scenario.file, undefined)}/${pair(report.base, report.head)}`;
  const published = yield* publishedReport(dir, report, folder);
  return {
    prFile: join(dir, "pr.md"),
    folders: [folder],
    files: published.files,
    message: `Publish ${report.scenario.file} ${pair(report.base, report.head, "..")}`,
    prMarkdown: (urlBase: string) => reportPr(published.markdown, published.urls(urlBase)),
  } satisfies ProofFolder;
});

/** A summary row's report folder, relative to the summary's folder; BadReport when it points outside it. */
function rowFolder(file: string, row: SummaryRow): Effect.Effect<string, BadReport> {
  const dir = posix.normalize(row.dir.replace(/\\/g, "/")).replace(/\/+$/, "");
  if (dir === ".." || dir.startsWith("../") || dir.startsWith("/") || /^[A-Za-z]:/.test(dir)) {
    return Effect.fail(
      new BadReport({ file, detail: `the row of ${row.file} names folder ${JSON.stringify(row.dir)}, outside the summary's folder` }),
    );
  }
  return Effect.succeed(dir);
}

/** A row whose folder holds no report.json (it stopped before writing one) shows its reason and publishes nothing. */
const summaryRow = Effect.fn("Publish.summaryRow")(function* (summaryDir: string, summary: ProofSummary, row: SummaryRow) {
  const dir = yield* rowFolder(join(summaryDir, "summary.json"), row);
  const folder = posix.join(dir, pair(summary.base, summary.head));
  const reportDir = join(summaryDir, dir);
  const reportFile = join(reportDir, "report.json");
  const reason = `**${row.reasonCode}** — ${row.reason}`;
  if (!existsSync(reportFile)) return { dir, folder, files: [], body: () => reason, urls: () => new Map<string, string>() };
  const report = yield* asReport(reportFile, yield* readJson(reportFile));
  const published = yield* publishedReport(reportDir, report, folder);
  return {
    dir,
    folder,
    files: published.files,
    body: (urlBase: string) => reportForPr(published.markdown, published.urls(urlBase), dir === "." ? "" : dir),
    urls: (urlBase: string) => new Map([...published.urls(urlBase)].map(([path, url]) => [posix.join(dir, path), url])),
  };
});

const summaryFolder = Effect.fn("Publish.summaryFolder")(function* (dir: string) {
  const file = join(dir, "summary.json");
  const summary = yield* asSummary(file, yield* readJson(file));
  const markdown = yield* readText(join(dir, "summary.md"));
  const rows = yield* Effect.forEach(summary.scenarios, (row) => summaryRow(dir, summary, row));
  return {
    prFile: join(dir, "pr.md"),
    folders: [...new Set(rows.map((row) => row.folder))],
    files: rows.flatMap((row) => row.files),
    message: `Publish ${summary.scenarios.length} scenarios ${pair(summary.base, summary.head, "..")}`,
    prMarkdown: (urlBase: string) => {
      const urls = new Map(rows.flatMap((row) => [...row.urls(urlBase)]));
      const sections: ScenarioSection[] = summary.scenarios.map((scenario, index) => ({
        verdict: scenario.verdict,
        file: scenario.file,
        title: scenario.title,
        body: rows[index]?.body(urlBase) ?? "",
      }));
      return summaryPr(markdown, urls, sections);
    },
  } satisfies ProofFolder;
});

/** A comparison's or a bisection's report: what publishing needs of compare.json or bisect.json. */
interface OtherReport {
  readonly scenario: { readonly file: string };
  readonly markdown: string;
  /** The two commits, as the folder on the branch is named: base and head, or old and new. */
  readonly ends: readonly [Side, Side];
}

const isSide = (value: unknown): value is Side =>
  isObject(value) && typeof value["ref"] === "string" && (value["sha"] === null || typeof value["sha"] === "string");

/** compare.json or bisect.json of `schema`, whose two commits are the fields `ends` names. */
function asOther(
  file: string,
  value: unknown,
  schema: string,
  ends: readonly [string, string],
  markdown: string,
): Effect.Effect<OtherReport, BadReport> {
  if (
    !isObject(value) ||
    value["schema"] !== schema ||
    !isObject(value["scenario"]) ||
    typeof value["scenario"]["file"] !== "string" ||
    value["markdown"] !== markdown
  ) {
    return Effect.fail(new BadReport({ file, detail: `is not a report of schema "${schema}"` }));
  }
  const [first, second] = [value[ends[0]], value[ends[1]]];
  if (!isSide(first) || !isSide(second)) return Effect.fail(new BadReport({ file, detail: `has no ${ends[0]} and ${ends[1]} commits` }));
  return Effect.succeed({ scenario: { file: value["scenario"]["file"] }, markdown, ends: [first, second] });
}

/** A comparison's (compare.json) or bisection's (bisect.json) folder: its images beside the scenario's proofs on the branch. */
const otherReport = (kind: "compare" | "bisect", verb: string, ends: readonly [string, string], name: (pair: string) => string) =>
  Effect.fn("Publish.otherReport")(function* (dir: string) {
    const file = join(dir, `${kind}.json`);
    const report = yield* asOther(file, yield* readJson(file), `scenario-${kind}/v1`, ends, `${kind}.md`);
    const [first, second] = report.ends;
    const folder = `${scenarioFolder(report.scenario.file, undefined)}/${name(pair(first, second))}`;
    const published = yield* publishedReport(dir, report, folder);
    return {
      prFile: join(dir, "pr.md"),
      folders: [folder],
      files: published.files,
      message: `Publish ${verb} of ${report.scenario.file} ${pair(first, second, "..")}`,
      prMarkdown: (urlBase: string) => reportPr(published.markdown, published.urls(urlBase)),
    } satisfies ProofFolder;
  });

// Named on the branch as their default report folders are: <base7>-<head7>-compare and bisect-<old7>-<new7>.
const compareFolder = otherReport("compare", "the comparison", ["base", "head"], (ends) => `${ends}-compare`);
const bisectFolder = otherReport("bisect", "the bisection", ["old", "new"], (ends) => `bisect-${ends}`);

/** Reads a folder holding report.json, summary.json, compare.json or bisect.json, in that order. */
export const readProofFolder = (dir: string): Effect.Effect<ProofFolder, ReportNotFound | BadReport> => {
  if (existsSync(join(dir, "report.json"))) return singleReport(dir);
  if (existsSync(join(dir, "summary.json"))) return summaryFolder(dir);
  if (existsSync(join(dir, "compare.json"))) return compareFolder(dir);
  if (existsSync(join(dir, "bisect.json"))) return bisectFolder(dir);
  return Effect.fail(new ReportNotFound({ dir }));
};

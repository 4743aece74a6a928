import { appendFile, readFile } from "node:fs/promises";
import { join } from "node:path";
import { prMarker } from "../publish/pr-markdown.ts";
import { GithubFileNotWritable, NoReportToSummarize } from "./errors.ts";
import { githubOutputText } from "./github-output.ts";
import { artifactNote, summaryText } from "./summary-text.ts";

/** GitHub Actions integration: the job summary and the step outputs a proof, merge or publish leaves. */

async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/**
 * The Markdown for `$GITHUB_STEP_SUMMARY`: pr.md without its marker when published (its links are
 * absolute); else summary.md, report.md, compare.md or bisect.md shortened, relative links as text.
 */
export async function stepSummary(reportDir: string): Promise<string> {
  const pr = await readIfExists(join(reportDir, "pr.md"));
  if (pr !== undefined) {
    const withoutMarker = pr
      .split(/\r?\n/)
      .filter((line) => line.trim() !== prMarker)
      .join("\n");
    return `${summaryText(withoutMarker, false).text}\n`;
  }
  let markdown: string | undefined;
  for (const name of ["summary.md", "report.md", "compare.md", "bisect.md"]) markdown ??= await readIfExists(join(reportDir, name));
  if (markdown === undefined) throw new NoReportToSummarize({ dir: reportDir });
  const { text, shortened } = summaryText(markdown, true);
  return shortened ? `${text}\n\n${artifactNote}\n` : `${text}\n`;
}

/** What a proof, merge or publish leaves for GitHub Actions. */
export interface GithubFilesInput {
  readonly verdict: string;
  readonly exitCode: number;
  /** Absolute. */
  readonly reportDir: string;
  /** Absolute; only after a publish. */
  readonly prFile?: string;
}

async function append(variable: GithubFileNotWritable["variable"], path: string, text: string): Promise<void> {
  try {
    await appendFile(path, text, "utf8");
  } catch (error) {
    throw new GithubFileNotWritable({ variable, path, detail: error instanceof Error ? error.message : String(error) });
  }
}

const present = (value: string | undefined): value is string => value !== undefined && value !== "";

/**
 * Sets the step's outputs (`verdict`, `exit-code`, `report-dir`, `pr-md` after a publish) and appends
 * the job summary, each only when its variable is set; returns the variables written. Rejects with
 * GithubFileNotWritable when a set variable names a file it cannot append to.
 */
export async function writeGithubFiles(env: NodeJS.ProcessEnv, input: GithubFilesInput): Promise<ReadonlyArray<string>> {
  const written: string[] = [];
  const outputFile = env["GITHUB_OUTPUT"];
  if (present(outputFile)) {
    const outputs = [
      { name: "verdict", value: input.verdict, multiline: false },
      { name: "exit-code", value: String(input.exitCode), multiline: false },
      { name: "report-dir", value: input.reportDir, multiline: true },
      ...(input.prFile === undefined ? [] : [{ name: "pr-md", value: input.prFile, multiline: true }]),
    ];
    await append("GITHUB_OUTPUT", outputFile, githubOutputText(outputs));
    written.push("GITHUB_OUTPUT");
  }
  const summaryFile = env["GITHUB_STEP_SUMMARY"];
  if (present(summaryFile)) {
    const summary = await stepSummary(input.reportDir).catch((error: unknown) => {
      if (error instanceof NoReportToSummarize)
        return `**${input.verdict}** (exit code ${input.exitCode}): no report was written; the step's log says why.\n`;
      throw error;
    });
    // A blank line after it, so the next step's summary starts a block of its own.
    await append("GITHUB_STEP_SUMMARY", summaryFile, `${summary}\n`);
    written.push("GITHUB_STEP_SUMMARY");
  }
  return written;
}

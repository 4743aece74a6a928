import type { Attempt } from "../outcome/types.ts";
import { describeError } from "../outcome/verdict.ts";
import { failureCaption, type ComparisonRow } from "../report/rows.ts";
import { formatShare } from "../report/share.ts";
import type { CompareLabel, CompareReasonCode, CompareReport } from "./schema.ts";

/** One label per row of the screenshot table (not the failure row): what each side reached, and the verdict. */
export function compareLabels(rows: ReadonlyArray<ComparisonRow>): CompareLabel[] {
  return rows
    .filter((row) => row.caption !== failureCaption)
    .map((row) => {
      const base = row.failure === "base" ? undefined : row.base;
      const head = row.failure === "head" ? undefined : row.head;
      const difference = row.difference;
      const verdict =
        difference !== undefined ? (difference.changed ? "changed" : "unchanged") : base !== undefined ? "only-on-base" : "only-on-head";
      return {
        label: row.caption,
        verdict,
        base: base?.path ?? null,
        head: head?.path ?? null,
        difference: difference?.path ?? null,
        changedPixels: difference?.changedPixels ?? null,
        changedShare: difference?.changedShare ?? null,
      };
    });
}

export function countLabels(labels: ReadonlyArray<CompareLabel>): CompareReport["counts"] {
  const count = (verdict: CompareLabel["verdict"]) => labels.filter((label) => label.verdict === verdict).length;
  return { changed: count("changed"), unchanged: count("unchanged"), onlyOnBase: count("only-on-base"), onlyOnHead: count("only-on-head") };
}

/** What a side ran: its attempts, and how many screenshots the attempt the report shows took. */
export interface ComparedSide {
  readonly ref: string;
  readonly attempts: ReadonlyArray<Attempt>;
  readonly screenshots: number;
}

export interface CompareOutcome {
  readonly exitCode: 0 | 2;
  readonly reasonCode: CompareReasonCode;
  readonly reason: string;
}

const shownAttempt = (side: ComparedSide) => side.attempts.find((attempt) => attempt.outcome !== "passed") ?? side.attempts[0];

/** Why a side gave nothing to compare: it did not run, or it could not run before its first screenshot. */
function couldNotRun(side: ComparedSide): string | undefined {
  const attempt = shownAttempt(side);
  if (attempt === undefined) return "it did not run";
  return attempt.outcome === "error" && side.screenshots === 0 ? describeError(attempt.error) : undefined;
}

/** " Base failed: assertion at …" for each side that did not pass: why a label is only on the other side. */
function failures(base: ComparedSide, head: ComparedSide): string {
  return [["Base", base] as const, ["Head", head] as const]
    .flatMap(([name, side]) => {
      const attempt = shownAttempt(side);
      return attempt === undefined || attempt.outcome === "passed"
        ? []
        : [
            ` ${name} (${side.ref}) ${attempt.outcome === "failed" ? "failed" : "stopped"}: ${describeError(attempt.error).replace(/\.$/, "")}.`,
          ];
    })
    .join("");
}

const names = (labels: ReadonlyArray<CompareLabel>) => labels.map((label) => label.label).join(", ");

/** "1 of 2 labels changed: tool-calls (5.12 %); unchanged: asked; only on head: finished." */
function summary(labels: ReadonlyArray<CompareLabel>): string {
  const of = (verdict: CompareLabel["verdict"]) => labels.filter((label) => label.verdict === verdict);
  const changed = of("changed");
  const compared = changed.length + of("unchanged").length;
  const parts = [
    compared === 0
      ? "No label was reached by both sides"
      : `${changed.length} of ${compared} label${compared === 1 ? "" : "s"} changed${changed.length === 0 ? "" : `: ${changed.map((label) => `${label.label} (${formatShare(label.changedShare ?? 0)})`).join(", ")}`}`,
    ...(of("unchanged").length === 0 ? [] : [`unchanged: ${names(of("unchanged"))}`]),
    ...(of("only-on-base").length === 0 ? [] : [`only on base: ${names(of("only-on-base"))}`]),
    ...(of("only-on-head").length === 0 ? [] : [`only on head: ${names(of("only-on-head"))}`]),
  ];
  return `${parts.join("; ")}.`;
}

/**
 * How a comparison that ran both sides ended: exit 2 when a side could not run before its first
 * screenshot (base first) or neither side took one, else exit 0 whatever changed.
 */
export function compareOutcome(base: ComparedSide, head: ComparedSide, labels: ReadonlyArray<CompareLabel>): CompareOutcome {
  const baseError = couldNotRun(base);
  if (baseError !== undefined)
    return { exitCode: 2, reasonCode: "base-error", reason: `The scenario could not run on base (${base.ref}): ${baseError}` };
  const headError = couldNotRun(head);
  if (headError !== undefined)
    return { exitCode: 2, reasonCode: "head-error", reason: `The scenario could not run on head (${head.ref}): ${headError}` };
  if (labels.length === 0) {
    return {
      exitCode: 2,
      reasonCode: "no-screenshots",
      reason: `Neither side took a screenshot, so there is nothing to compare; take one at each state to compare with app.screenshot(label).${failures(base, head)}`,
    };
  }
  return { exitCode: 0, reasonCode: "compared", reason: `${summary(labels)}${failures(base, head)}` };
}

import { describe, expect, it } from "vitest";
import type { Attempt } from "../outcome/types.ts";
import { screenshotRows, type ComparisonRow } from "../report/rows.ts";
import type { ReportDifference, ReportScreenshot } from "../report/schema.ts";
import { compareLabels, compareOutcome, countLabels, type ComparedSide } from "./outcome.ts";

const shot = (side: string, label: string): ReportScreenshot => ({ label, path: `images/${side}-${label}.png`, width: 100, height: 100 });
const difference = (label: string, changedPixels: number): ReportDifference => ({
  label,
  path: `images/diff-${label}.png`,
  width: 100,
  height: 100,
  changedPixels,
  changedShare: changedPixels / 10_000,
  changed: changedPixels / 10_000 > 0.001,
});

/** The table of a base that failed after `asked` against a head that reached `asked` (1 pixel changed), `answered` and `done`. */
function rows(): ComparisonRow[] {
  const table = screenshotRows(
    { screenshots: [shot("base", "asked")], failureScreenshot: shot("failure", "base") },
    { screenshots: [shot("head", "asked"), shot("head", "answered"), shot("head", "done")] },
  );
  return table.map((row) => (row.caption === "asked" ? { ...row, difference: difference("asked", 1) } : row));
}

const passed: Attempt = { outcome: "passed", durationMs: 900, runMs: 2000 };
const failed: Attempt = {
  outcome: "failed",
  durationMs: 900,
  runMs: 2000,
  error: { kind: "assertion", message: "Error: expect(locator).toBeVisible() failed", location: "scenarios/x.e2e.ts:9" },
};
const installFailed: Attempt = {
  outcome: "error",
  durationMs: 400,
  runMs: null,
  error: { kind: "install", message: "install failed: `pnpm install --frozen-lockfile` exited with code 1." },
};
const interrupted: Attempt = {
  outcome: "error",
  durationMs: 900,
  runMs: 2000,
  error: { kind: "runner", message: "The run was interrupted." },
};

const side = (ref: string, attempts: ReadonlyArray<Attempt>, screenshots: number): ComparedSide => ({ ref, attempts, screenshots });

describe("a comparison's labels", () => {
  it("are the table's label rows: compared where both sides reached them, else only on the side that did, a failure screenshot in a row counting as not reached", () => {
    const labels = compareLabels(rows());
    expect(labels.map((label) => [label.label, label.verdict, label.base, label.head, label.difference, label.changedShare])).toEqual([
      ["asked", "unchanged", "images/base-asked.png", "images/head-asked.png", "images/diff-asked.png", 0.0001],
      ["answered", "only-on-head", null, "images/head-answered.png", null, null],
      ["done", "only-on-head", null, "images/head-done.png", null, null],
    ]);
    expect(countLabels(labels)).toEqual({ changed: 0, unchanged: 1, onlyOnBase: 0, onlyOnHead: 2 });
  });
});

describe("how a comparison ends", () => {
  const changed = compareLabels([
    { caption: "asked", base: shot("base", "asked"), head: shot("head", "asked"), difference: difference("asked", 0) },
    {
      caption: "tool-calls",
      base: shot("base", "tool-calls"),
      head: shot("head", "tool-calls"),
      difference: difference("tool-calls", 238),
    },
    { caption: "banner", base: shot("base", "banner"), head: undefined },
  ]);

  it.each([
    {
      when: "both sides ran: exit 0, the summary names what changed and what is on one side only",
      base: side("main", [passed], 3),
      head: side("fix", [passed], 2),
      labels: changed,
      outcome: {
        exitCode: 0,
        reasonCode: "compared",
        reason: "1 of 2 labels changed: tool-calls (2.38 %); unchanged: asked; only on base: banner.",
      },
    },
    {
      when: "base failed after its first screenshot: still exit 0, saying how base ended",
      base: side("main", [failed], 1),
      head: side("fix", [passed], 3),
      labels: compareLabels(rows()),
      outcome: {
        exitCode: 0,
        reasonCode: "compared",
        reason:
          "0 of 1 label changed; unchanged: asked; only on head: answered, done. Base (main) failed: assertion at scenarios/x.e2e.ts:9: Error: expect(locator).toBeVisible() failed.",
      },
    },
    {
      when: "a side's run errored after it took screenshots: what it took is compared",
      base: side("main", [passed], 3),
      head: side("fix", [interrupted], 2),
      labels: changed,
      outcome: {
        exitCode: 0,
        reasonCode: "compared",
        reason:
          "1 of 2 labels changed: tool-calls (2.38 %); unchanged: asked; only on base: banner. Head (fix) stopped: runner: The run was interrupted.",
      },
    },
    {
      when: "base could not install: exit 2, whatever head did",
      base: side("main", [installFailed], 0),
      head: side("fix", [], 0),
      labels: [],
      outcome: {
        exitCode: 2,
        reasonCode: "base-error",
        reason: "The scenario could not run on base (main): install: install failed: `pnpm install --frozen-lockfile` exited with code 1.",
      },
    },
    {
      when: "head could not install",
      base: side("main", [passed], 2),
      head: side("fix", [installFailed], 0),
      labels: [],
      outcome: {
        exitCode: 2,
        reasonCode: "head-error",
        reason: "The scenario could not run on head (fix): install: install failed: `pnpm install --frozen-lockfile` exited with code 1.",
      },
    },
    {
      when: "neither side took a screenshot",
      base: side("main", [passed], 0),
      head: side("fix", [failed], 0),
      labels: [],
      outcome: {
        exitCode: 2,
        reasonCode: "no-screenshots",
        reason:
          "Neither side took a screenshot, so there is nothing to compare; take one at each state to compare with app.screenshot(label). Head (fix) failed: assertion at scenarios/x.e2e.ts:9: Error: expect(locator).toBeVisible() failed.",
      },
    },
  ])("when $when", ({ base, head, labels, outcome }) => {
    expect(compareOutcome(base, head, labels)).toEqual(outcome);
  });
});

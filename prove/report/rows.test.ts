import { describe, expect, it } from "vitest";
import type { SideName } from "../outcome/types.ts";
import { bothReached, emptyCell, failureBesideLabel, screenshotRows, type ComparisonRow, type SideShots } from "./rows.ts";
import type { ReportScreenshot } from "./schema.ts";

const shot = (side: SideName, label: string): ReportScreenshot => ({
  label,
  path: `images/${side}-${label}.png`,
  width: 1280,
  height: 720,
});
const failure = (side: SideName): ReportScreenshot => ({ label: "failure", path: `images/failure-${side}.png`, width: 1280, height: 720 });

/** A side that took these labels, and failed after them when `failed`. */
function side(name: SideName, labels: ReadonlyArray<string>, failed = false): SideShots {
  return { screenshots: labels.map((label) => shot(name, label)), ...(failed ? { failureScreenshot: failure(name) } : {}) };
}

/** Each row as `caption: base cell | head cell`, a cell being its image's file name or what the empty cell says; `!` marks a failure screenshot in a label's row. */
const shown = (rows: ReadonlyArray<ComparisonRow>) =>
  rows.map((row) => {
    const cell = (name: SideName) => {
      const image = row[name];
      if (image === undefined) return emptyCell(row, name);
      return `${image.path.replace("images/", "")}${row.failure === name ? "!" : ""}`;
    };
    return `${row.caption}: ${cell("base")} | ${cell("head")}`;
  });

/** The rows that get a difference image: `caption` for a label both reached, `caption: <side>'s failure` for a failure screenshot beside the other side's label. */
const compared = (rows: ReadonlyArray<ComparisonRow>) =>
  rows.flatMap((row) => (bothReached(row) ? [row.caption] : failureBesideLabel(row) ? [`${row.caption}: ${row.failure}'s failure`] : []));

describe("the screenshot table", () => {
  it.each([
    {
      when: "base failed before a label head reached: its failure sits beside head's screenshot of it, and there is no failure row",
      base: side("base", ["opened", "streaming"], true),
      head: side("head", ["opened", "streaming", "finished", "reloaded"]),
      rows: [
        "opened: base-opened.png | head-opened.png",
        "streaming: base-streaming.png | head-streaming.png",
        "finished: failure-base.png! | head-finished.png",
        "reloaded: not reached | head-reloaded.png",
      ],
      compared: ["opened", "streaming", "finished: base's failure"],
    },
    {
      when: "base failed before its first label: the failure sits beside head's first",
      base: side("base", [], true),
      head: side("head", ["asked", "answered"]),
      rows: ["asked: failure-base.png! | head-asked.png", "answered: not reached | head-answered.png"],
      compared: ["asked: base's failure"],
    },
    {
      when: "base failed after every label head took: the failure keeps its own row",
      base: side("base", ["asked", "answered"], true),
      head: side("head", ["asked", "answered"]),
      rows: [
        "asked: base-asked.png | head-asked.png",
        "answered: base-answered.png | head-answered.png",
        "failure screenshot: failure-base.png | no failure",
      ],
      compared: ["asked", "answered"],
    },
    {
      when: "head failed before a label base reached (a regression): head's failure sits beside base's screenshot",
      base: side("base", ["asked", "answered"]),
      head: side("head", ["asked"], true),
      rows: ["asked: base-asked.png | head-asked.png", "answered: base-answered.png | failure-head.png!"],
      compared: ["asked", "answered: head's failure"],
    },
    {
      when: "both failed, base earlier: base's failure goes in head's row, head's in the failure row, which points to base's",
      base: side("base", ["asked"], true),
      head: side("head", ["asked", "answered"], true),
      rows: [
        "asked: base-asked.png | head-asked.png",
        "answered: failure-base.png! | head-answered.png",
        "failure screenshot: in the answered row | failure-head.png",
      ],
      compared: ["asked", "answered: base's failure"],
    },
    {
      when: "both failed at the same step: one failure row with both",
      base: side("base", ["asked"], true),
      head: side("head", ["asked"], true),
      rows: ["asked: base-asked.png | head-asked.png", "failure screenshot: failure-base.png | failure-head.png"],
      compared: ["asked"],
    },
    {
      when: "base took a label head did not, then failed: its failure goes after the last label it reached, not into an earlier gap",
      base: side("base", ["opened", "error shown"], true),
      head: side("head", ["opened", "streaming", "finished"]),
      rows: [
        "opened: base-opened.png | head-opened.png",
        "error shown: base-error shown.png | not reached",
        "streaming: failure-base.png! | head-streaming.png",
        "finished: not reached | head-finished.png",
      ],
      compared: ["opened", "streaming: base's failure"],
    },
    {
      when: "neither failed",
      base: side("base", ["asked"]),
      head: side("head", ["asked"]),
      rows: ["asked: base-asked.png | head-asked.png"],
      compared: ["asked"],
    },
    {
      when: "neither took a screenshot and base failed: only the failure row",
      base: side("base", [], true),
      head: side("head", []),
      rows: ["failure screenshot: failure-base.png | no failure"],
      compared: [],
    },
  ])("when $when", ({ base, head, rows, compared: differences }) => {
    const table = screenshotRows(base, head);
    expect(shown(table)).toEqual(rows);
    expect(compared(table)).toEqual(differences);
  });

  it("compares the labels both sides reached, and apart from them a failure screenshot with the other side's screenshot of its row's label, never one in the failure row", () => {
    const rows = screenshotRows(side("base", ["asked", "error shown"], true), side("head", ["asked", "answered", "done"], true));
    expect(rows.filter(bothReached).map((row) => row.caption)).toEqual(["asked"]);
    expect(rows.filter(failureBesideLabel).map((row) => [row.caption, row.failure])).toEqual([["answered", "base"]]);
    expect(shown(rows)).toEqual([
      "asked: base-asked.png | head-asked.png",
      "error shown: base-error shown.png | not reached",
      "answered: failure-base.png! | head-answered.png",
      "done: not reached | head-done.png",
      "failure screenshot: in the answered row | failure-head.png",
    ]);
  });
});

import { describe, expect, it } from "vitest";
import { distinctLabels, labelSlug, mergeLabels } from "./labels.ts";

describe("screenshot rows", () => {
  it.each([
    ["both sides took the same", ["open", "streaming", "finished"], ["open", "streaming", "finished"], ["open", "streaming", "finished"]],
    ["base stopped early", ["open", "streaming"], ["open", "streaming", "finished"], ["open", "streaming", "finished"]],
    ["head stopped early", ["open", "streaming", "finished"], ["open"], ["open", "streaming", "finished"]],
    [
      "a label only base took",
      ["open", "error shown"],
      ["open", "streaming", "finished"],
      ["open", "error shown", "streaming", "finished"],
    ],
    ["a label only base took, first", ["banner", "open"], ["open", "done", "more"], ["banner", "open", "done", "more"]],
    ["neither took any", [], [], []],
  ])("are the union in scenario order when %s", (_case, base, head, rows) => {
    expect(mergeLabels(base, head)).toEqual(rows);
  });

  it("number a label taken twice, and name files safely", () => {
    expect(distinctLabels(["step", "step", "end", "step"])).toEqual(["step", "step (2)", "end", "step (3)"]);
    expect(labelSlug("Stop button (2)")).toBe("stop-button-2");
    expect(labelSlug("../../etc")).toBe("etc");
    expect(labelSlug("😀")).toBe("screenshot");
  });
});

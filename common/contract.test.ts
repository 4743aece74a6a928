import { describe, expect, it } from "vitest";
import { harnessErrorKind, harnessErrorKinds, harnessErrorTag, screenshotAttachment, screenshotLabel } from "./contract.ts";

describe("the harness's error tag", () => {
  it("starts a message and gives its kind back, for every kind", () => {
    for (const kind of harnessErrorKinds) expect(harnessErrorKind(`HarnessError: ${harnessErrorTag(kind)} what happened`)).toBe(kind);
    expect(harnessErrorTag("replay-mismatch")).toBe("[scenario-harness:replay-mismatch]");
  });

  it("of no known kind, or none at all, names no kind", () => {
    for (const message of [
      "[scenario-harness:later] x",
      "[scenario-harness: port 3000 was in use]",
      "Error: expect(locator).toBeVisible() failed",
    ]) {
      expect(harnessErrorKind(message)).toBeUndefined();
    }
  });
});

describe("a screenshot's attachment", () => {
  it("is named after its label, which its name gives back; other attachments have no label", () => {
    expect(screenshotAttachment("after tax")).toBe("screenshot:after tax");
    expect(screenshotLabel(screenshotAttachment("after tax"))).toBe("after tax");
    for (const name of ["screenshot", "scenario-harness:failure-screenshot", "trace", "server.log"])
      expect(screenshotLabel(name)).toBeUndefined();
  });
});

import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { cleanMessage, tail } from "./error-text.ts";

/** A real PNG of noise (it does not compress), as base64: what a JSON report printed to a log carries for a screenshot. */
async function screenshotBase64(): Promise<string> {
  const pixels = Buffer.from(Array.from({ length: 160 * 120 * 3 }, (_, index) => (index * 7919) % 251));
  return (
    await sharp(pixels, { raw: { width: 160, height: 120, channels: 3 } })
      .png()
      .toBuffer()
  ).toString("base64");
}

describe("log excerpts in a report", () => {
  it("keeps the last lines of a log, at most 30 and 3000 characters, naming how much was left out", async () => {
    const png = await screenshotBase64();
    const minified = `  "stdout": ["${"x = 1; ".repeat(700)}"]`;
    const log = [
      ...Array.from({ length: 470 }, (_, index) => `[WebServer] compiled page ${index}`),
      "{",
      '  "attachments": [',
      `    { "name": "screenshot", "contentType": "image/png", "body": "${png}" }`,
      "  ],",
      minified,
      ...Array.from({ length: 25 }, (_, index) => `  line ${index} of the report`),
      "}",
    ].join("\n");

    const excerpt = tail(log);
    const lines = excerpt.split("\n");
    expect(lines).toHaveLength(31);
    expect(lines[0]).toBe("[471 earlier lines left out]");
    expect(lines[2]).toBe(
      `    { "name": "screenshot", "contentType": "image/png", "body": "[${png.length} characters of base64 left out]" }`,
    );
    expect(lines[4]).toBe(`${minified.slice(0, 200)}… [${minified.length - 200} more characters]`);
    expect(lines.at(-1)).toBe("}");
    expect(excerpt.length).toBeLessThanOrEqual(3000 + (lines[0] ?? "").length + 1);
  });

  it("stops at 3000 characters when the last lines are long", () => {
    const log = Array.from({ length: 40 }, (_, index) => `${String(index).padStart(2, "0")} ${"word ".repeat(50)}`).join("\n");
    const lines = tail(log).split("\n");
    expect(lines[0]).toBe("[29 earlier lines left out]");
    expect(lines.slice(1).map((line) => line.slice(0, 2))).toEqual(["29", "30", "31", "32", "33", "34", "35", "36", "37", "38", "39"]);
  });

  it("takes a base64 blob out of an error message, and leaves its other lines whole", async () => {
    const png = await screenshotBase64();
    const received = `Received: "${"a long text the page showed ".repeat(20)}"`;
    expect(cleanMessage(`Error: the app wrote\n${png}\n${received}`)).toBe(
      `Error: the app wrote\n[${png.length} characters of base64 left out]\n${received}`,
    );
  });
});

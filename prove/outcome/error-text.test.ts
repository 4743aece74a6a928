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

/** A name of two letters for 0 to 99: lines told apart by numbers alone are one line repeated. */
const letters = (i: number) => `${"abcdefghij"[Math.floor(i / 10)] ?? ""}${"abcdefghij"[i % 10] ?? ""}`;

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
      ...Array.from({ length: 25 }, (_, index) => `  line ${letters(index)} of the report`),
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
    const log = Array.from({ length: 40 }, (_, index) => `${letters(index)} ${"word ".repeat(50)}`).join("\n");
    const lines = tail(log).split("\n");
    expect(lines[0]).toBe("[29 earlier lines left out]");
    expect(lines.slice(1).map((line) => line.slice(0, 2))).toEqual(["cj", "da", "db", "dc", "dd", "de", "df", "dg", "dh", "di", "dj"]);
  });

  it("shows a line that repeats, the same but for its numbers, once where it came last with its count, and counts it in what was left out", () => {
    const log = [
      "npm warn deprecated inflight@1.0.6",
      ...Array.from(
        { length: 100 },
        (_, index) => `npm http fetch GET 200 https://registry.npmjs.org/pkg-${letters(index)} ${index}ms (cache hit)`,
      ),
      ...Array.from({ length: 100 }, (_, index) => `npm error request to https://fonts.example/css failed, attempt ${index}`),
      "npm error A complete log of this run can be found in: /home/me/.npm/_logs/debug-0.log",
    ].join("\n");
    expect(tail(log, 3).split("\n")).toEqual([
      "[100 earlier lines left out]",
      `npm http fetch GET 200 https://registry.npmjs.org/pkg-jj 99ms (cache hit)`,
      "npm error request to https://fonts.example/css failed, attempt 99 [×100]",
      "npm error A complete log of this run can be found in: /home/me/.npm/_logs/debug-0.log",
    ]);
  });

  it("takes a base64 blob out of an error message, and leaves its other lines whole", async () => {
    const png = await screenshotBase64();
    const received = `Received: "${"a long text the page showed ".repeat(20)}"`;
    expect(cleanMessage(`Error: the app wrote\n${png}\n${received}`)).toBe(
      `Error: the app wrote\n[${png.length} characters of base64 left out]\n${received}`,
    );
  });
});

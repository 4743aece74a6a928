import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { afterEach, describe, expect, it } from "vitest";
import type { SideName } from "../outcome/types.ts";
import { addDifferences } from "./differences.ts";
import { screenshotRows, type SideShots } from "./rows.ts";
import type { ReportScreenshot } from "./schema.ts";

const scratch: string[] = [];
afterEach(async () => {
  await Promise.all(scratch.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** Writes a plain PNG into the report folder `dir` at `path` and returns it as the report lists it. */
async function picture(dir: string, path: string, label: string, width: number, height: number, colour: string): Promise<ReportScreenshot> {
  await mkdir(join(dir, "images"), { recursive: true });
  await writeFile(
    join(dir, path),
    await sharp({ create: { width, height, channels: 3, background: colour } })
      .png()
      .toBuffer(),
  );
  return { label, path, width, height };
}

/**
 * A report folder where both sides took `asked` alike, then `failed` failed before `answered`,
 * which the other side took of the page (400 × 300, as the failure screenshot) or of one element.
 */
async function folder(failed: SideName, answered: "page" | "element" = "page") {
  const dir = await mkdtemp(join(tmpdir(), "prove-differences-"));
  scratch.push(dir);
  const reached = failed === "base" ? "head" : "base";
  const failing: SideShots = {
    screenshots: [await picture(dir, `images/${failed}-asked.png`, "asked", 200, 100, "#eeeeee")],
    failureScreenshot: await picture(dir, `images/failure-${failed}.png`, "failure", 400, 300, "#eeeeee"),
  };
  const other: SideShots = {
    screenshots: [
      await picture(dir, `images/${reached}-asked.png`, "asked", 200, 100, "#eeeeee"),
      await picture(
        dir,
        `images/${reached}-answered.png`,
        "answered",
        answered === "page" ? 400 : 120,
        answered === "page" ? 300 : 40,
        "#336699",
      ),
    ],
  };
  return { dir, rows: failed === "base" ? screenshotRows(failing, other) : screenshotRows(other, failing) };
}

describe("the differences of a report", () => {
  it.each([
    {
      when: "base failed before a label head reached: base's failure screenshot against head's screenshot of it",
      failed: "base" as const,
      failureRows: true,
      answered: "page" as const,
      failures: [
        {
          label: "answered",
          failure: "base",
          path: "images/failure-base-diff.png",
          width: 400,
          height: 300,
          changedPixels: 400 * 300,
          changedShare: 1,
          changed: true,
        },
      ],
    },
    {
      when: "head failed before a label base reached: base's screenshot of it against head's failure screenshot",
      failed: "head" as const,
      failureRows: true,
      answered: "page" as const,
      failures: [
        {
          label: "answered",
          failure: "head",
          path: "images/failure-head-diff.png",
          width: 400,
          height: 300,
          changedPixels: 400 * 300,
          changedShare: 1,
          changed: true,
        },
      ],
    },
    {
      when: "the other side's screenshot of the label is of one element: a failure screenshot of the page is not compared with it",
      failed: "base" as const,
      failureRows: true,
      answered: "element" as const,
      failures: [],
    },
    {
      when: "failure rows are not asked for (a comparison): only the labels both reached",
      failed: "base" as const,
      failureRows: false,
      answered: "page" as const,
      failures: [],
    },
  ])("when $when", async ({ failed, failureRows, answered, failures }) => {
    const { dir, rows } = await folder(failed, answered);
    const { rows: compared, differences } = await addDifferences(dir, rows, { failureRows });
    expect(differences.labels.map((difference) => [difference.label, difference.path, difference.changedPixels])).toEqual([
      ["asked", "images/diff-asked.png", 0],
    ]);
    expect(differences.failures).toEqual(failures);
    expect(compared.map((row) => [row.caption, row.difference?.path ?? null, row.failureDifference?.path ?? null])).toEqual([
      ["asked", "images/diff-asked.png", null],
      ["answered", null, failures[0]?.path ?? null],
    ]);
    for (const side of ["base", "head"] as const) {
      const path = join(dir, `images/failure-${side}-diff.png`);
      const written = failures.some((difference) => difference.failure === side);
      expect(existsSync(path), path).toBe(written);
      if (written) expect(await sharp(path).metadata()).toMatchObject({ width: 400, height: 300 });
    }
  });
});

import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { defaultThreshold, defaultTolerance, diffScreenshots, highlightColour } from "./diff-image.ts";

let dir = "";
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "prove-diff-image-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

type Colour = { readonly r: number; readonly g: number; readonly b: number };
interface Rect {
  readonly left: number;
  readonly top: number;
  readonly width: number;
  readonly height: number;
  readonly colour: Colour;
}

const grey = (level: number): Colour => ({ r: level, g: level, b: level });
const white = grey(255);
const page = { width: 200, height: 120 };
/** A dark header bar across the top of the page: unchanged, so it shows how head is dimmed. */
const header: Rect = { left: 0, top: 0, width: 200, height: 20, colour: grey(32) };
/** #202020 in greyscale, faded 60 % of the way to white. */
const dimmedHeader = [166, 166, 166];
const button = { left: 40, top: 50, width: 30, height: 20 };

/** Writes a PNG of solid rectangles on a plain background and returns its path. */
async function screenshot(name: string, rects: ReadonlyArray<Rect>, size = page, background = white): Promise<string> {
  const file = join(dir, name);
  await sharp({ create: { ...size, channels: 3, background } })
    .composite(
      rects.map(({ colour, left, top, width, height }) => ({
        input: { create: { width, height, channels: 4, background: { ...colour, alpha: 1 } } },
        left,
        top,
      })),
    )
    .png()
    .toFile(file);
  return file;
}

/** The difference image's pixels, to look at one by one. */
async function pixelsOf(file: string) {
  const { data, info } = await sharp(file).raw().toBuffer({ resolveWithObject: true });
  const at = (x: number, y: number) => [...data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3)];
  const highlighted: Array<{ x: number; y: number }> = [];
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) {
      const [r, g, b] = at(x, y);
      if (r === highlightColour.r && g === highlightColour.g && b === highlightColour.b) highlighted.push({ x, y });
    }
  }
  return { width: info.width, height: info.height, at, highlighted };
}

const magenta = [highlightColour.r, highlightColour.g, highlightColour.b];

describe("diffScreenshots", () => {
  it("finds nothing changed between identical screenshots and writes a dimmed copy of head, making the output folder", async () => {
    const rects = [header, { ...button, colour: { r: 31, g: 111, b: 235 } }];
    const base = await screenshot("base.png", rects);
    const head = await screenshot("head.png", rects);
    const out = join(dir, "nested/deeper/diff.png");

    const diff = await diffScreenshots({ base, head, out });

    expect(diff).toEqual({
      changedPixels: 0,
      totalPixels: 200 * 120,
      changedShare: 0,
      changed: false,
      threshold: defaultThreshold,
      tolerance: defaultTolerance,
      base: page,
      head: page,
      file: out,
    });
    const image = await pixelsOf(out);
    expect({ width: image.width, height: image.height }).toEqual(page);
    expect(image.highlighted).toEqual([]);
    expect(image.at(5, 5)).toEqual(dimmedHeader);
    expect(image.at(150, 100)).toEqual([255, 255, 255]);
  });

  it("counts exactly a recoloured rectangle's area as changed and paints only that area in the highlight colour", async () => {
    const base = await screenshot("base.png", [header, { ...button, colour: { r: 31, g: 111, b: 235 } }]);
    const head = await screenshot("head.png", [header, { ...button, colour: { r: 209, g: 36, b: 47 } }]);
    const out = join(dir, "diff.png");

    const diff = await diffScreenshots({ base, head, out });

    expect(diff).toMatchObject({ changedPixels: 30 * 20, totalPixels: 200 * 120, changedShare: 600 / 24000, changed: true });
    const image = await pixelsOf(out);
    expect(image.highlighted).toHaveLength(600);
    const xs = image.highlighted.map(({ x }) => x);
    const ys = image.highlighted.map(({ y }) => y);
    expect([Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)]).toEqual([40, 69, 50, 69]);
    expect(image.at(40, 50)).toEqual(magenta);
    expect(image.at(69, 69)).toEqual(magenta);
    expect(image.at(39, 50)).toEqual([255, 255, 255]);
    expect(image.at(5, 5)).toEqual(dimmedHeader);
  });

  it.each([
    ["by 10 stay unchanged under the default tolerance", 10, undefined, 0],
    ["by exactly the default tolerance stay unchanged", 16, undefined, 0],
    ["by one step over the default tolerance count", 17, undefined, 3],
    ["by 10 count under a tolerance of 8", 10, 8, 3],
  ])("three pixels differing %s", async (_case, step, tolerance, changedPixels) => {
    const background = grey(128);
    const base = await screenshot("base.png", [], page, background);
    const head = await screenshot("head.png", [{ left: 100, top: 60, width: 3, height: 1, colour: grey(128 + step) }], page, background);

    const diff = await diffScreenshots({ base, head, out: join(dir, "diff.png"), tolerance });

    expect(diff).toMatchObject({ changedPixels, changed: false, tolerance: tolerance ?? defaultTolerance });
    expect((await pixelsOf(diff.file)).highlighted).toHaveLength(changedPixels);
  });

  it.each([
    ["20 pixels (0.083 %) are under the default threshold", 4, 5, undefined, false],
    ["24 pixels (exactly 0.1 %) are not over the default threshold", 4, 6, undefined, false],
    ["25 pixels (0.104 %) are over the default threshold", 5, 5, undefined, true],
    ["20 pixels are over a threshold of 0.05 %", 4, 5, 0.0005, true],
  ])(
    "counts every changed pixel but calls the screenshots changed only over the threshold: %s",
    async (_case, width, height, threshold, changed) => {
      const base = await screenshot("base.png", [header]);
      const head = await screenshot("head.png", [header, { left: 120, top: 80, width, height, colour: grey(0) }]);

      const diff = await diffScreenshots({ base, head, out: join(dir, "diff.png"), threshold });

      expect(diff).toMatchObject({
        changedPixels: width * height,
        changedShare: (width * height) / 24000,
        changed,
        threshold: threshold ?? 0.001,
      });
    },
  );

  it("compares screenshots of different sizes on the union canvas, counting what only one of them covers as changed", async () => {
    const base = await screenshot("base.png", [header], { width: 200, height: 120 });
    const head = await screenshot("head.png", [{ ...header, width: 220 }], { width: 220, height: 100 });
    const out = join(dir, "diff.png");

    const diff = await diffScreenshots({ base, head, out });

    expect(diff).toMatchObject({
      changedPixels: 220 * 120 - 200 * 100,
      totalPixels: 220 * 120,
      changed: true,
      base: { width: 200, height: 120 },
      head: { width: 220, height: 100 },
    });
    const image = await pixelsOf(out);
    expect({ width: image.width, height: image.height }).toEqual({ width: 220, height: 120 });
    expect(image.highlighted).toHaveLength(6400);
    expect([image.at(210, 50), image.at(50, 110), image.at(210, 110)]).toEqual([magenta, magenta, magenta]);
    expect([image.at(50, 50), image.at(199, 5)]).toEqual([[255, 255, 255], dimmedHeader]);
  });

  it.each(["base", "head"] as const)(
    "rejects naming the %s screenshot when it is missing or not an image, and writes no difference image",
    async (side) => {
      const present = await screenshot("present.png", [header]);
      const missing = join(dir, "missing.png");
      const garbled = join(dir, "garbled.png");
      await writeFile(garbled, "not a png");
      const out = join(dir, "diff.png");
      const input = (file: string) => ({ base: side === "base" ? file : present, head: side === "head" ? file : present, out });

      await expect(diffScreenshots(input(missing))).rejects.toThrow(
        `${missing} could not be read as a screenshot: the file does not exist.`,
      );
      await expect(diffScreenshots(input(garbled))).rejects.toThrow(`${garbled} could not be read as a screenshot: `);
      await expect(diffScreenshots(input(garbled))).rejects.toBeInstanceOf(Error);
      expect(existsSync(out)).toBe(false);
    },
  );
});

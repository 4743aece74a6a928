import { mkdir, readFile } from "node:fs/promises";
import { dirname } from "node:path";
import * as Data from "effect/Data";
import { defaultThreshold, defaultTolerance } from "./diff-defaults.ts";
import { loadSharp } from "./sharp.ts";

export { defaultThreshold, defaultTolerance } from "./diff-defaults.ts";

/** The colour every changed pixel is painted in the difference image: magenta, absent from most pages. */
export const highlightColour = { r: 255, g: 0, b: 255 } as const;

/** How much of the way to white head's greyscale is faded in the difference image, so highlights stand out. */
const fade = 0.6;

export interface ImageSize {
  readonly width: number;
  readonly height: number;
}

export interface ScreenshotDiff {
  readonly changedPixels: number;
  /** The pixels of the union canvas: the larger width by the larger height. */
  readonly totalPixels: number;
  /** changedPixels / totalPixels, 0..1. */
  readonly changedShare: number;
  /** Whether changedShare is above threshold. */
  readonly changed: boolean;
  readonly threshold: number;
  readonly tolerance: number;
  readonly base: ImageSize;
  readonly head: ImageSize;
  /** The difference PNG: head dimmed, every changed pixel in the highlight colour, on the union canvas. */
  readonly file: string;
}

export interface DiffInput {
  /** The base screenshot, a PNG path. */
  readonly base: string;
  /** The head screenshot, a PNG path. */
  readonly head: string;
  /** Where to write the difference PNG; its folder is made if needed. */
  readonly out: string;
  readonly threshold?: number;
  readonly tolerance?: number;
}

/** A screenshot to compare is missing or is not an image. */
export class ScreenshotUnreadable extends Data.TaggedError("ScreenshotUnreadable")<{ readonly file: string; readonly detail: string }> {
  override get message(): string {
    return `${this.file} could not be read as a screenshot: ${this.detail}. Pass the path of a PNG the proof wrote (its images/ folder).`;
  }
}

/** The difference image could not be written. */
export class DiffImageNotWritten extends Data.TaggedError("DiffImageNotWritten")<{ readonly file: string; readonly detail: string }> {
  override get message(): string {
    return `The difference image could not be written to ${this.file}: ${this.detail}. Pass an output path in a folder you can write to.`;
  }
}

interface RgbaImage extends ImageSize {
  /** Four bytes a pixel, row by row. */
  readonly data: Buffer;
}

const messageOf = (cause: unknown) => (cause instanceof Error ? cause.message : String(cause));

const missing = (cause: unknown) => typeof cause === "object" && cause !== null && "code" in cause && cause.code === "ENOENT";

async function readRgba(file: string): Promise<RgbaImage> {
  const sharp = await loadSharp();
  try {
    const { data, info } = await sharp(await readFile(file))
      .toColourspace("srgb")
      .ensureAlpha()
      .raw({ depth: "uchar" })
      .toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height };
  } catch (cause) {
    throw new ScreenshotUnreadable({ file, detail: missing(cause) ? "the file does not exist" : messageOf(cause) });
  }
}

/** A grey level (head's pixel laid over white) faded toward white. */
const dimmed = (grey: number) => Math.round(grey + (255 - grey) * fade);

/** Whether the pixels at `a` and `b` differ by more than `tolerance` in any of their four channels. */
function differs(base: Buffer, a: number, head: Buffer, b: number, tolerance: number): boolean {
  for (let channel = 0; channel < 4; channel++) {
    if (Math.abs((base[a + channel] ?? 0) - (head[b + channel] ?? 0)) > tolerance) return true;
  }
  return false;
}

/**
 * Compares two screenshots pixel by pixel on the union canvas and writes the difference image.
 * A pixel outside the area both screenshots cover counts as changed.
 */
export async function diffScreenshots(input: DiffInput): Promise<ScreenshotDiff> {
  const threshold = input.threshold ?? defaultThreshold;
  const tolerance = input.tolerance ?? defaultTolerance;
  const [base, head] = await Promise.all([readRgba(input.base), readRgba(input.head)]);
  const width = Math.max(base.width, head.width);
  const height = Math.max(base.height, head.height);
  const pixels = Buffer.alloc(width * height * 3);
  let changedPixels = 0;

  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const inBase = x < base.width && y < base.height;
      const inHead = x < head.width && y < head.height;
      const a = (y * base.width + x) * 4;
      const b = (y * head.width + x) * 4;
      const out = (y * width + x) * 3;
      if (!inBase || !inHead || differs(base.data, a, head.data, b, tolerance)) {
        changedPixels++;
        pixels[out] = highlightColour.r;
        pixels[out + 1] = highlightColour.g;
        pixels[out + 2] = highlightColour.b;
        continue;
      }
      const alpha = (head.data[b + 3] ?? 255) / 255;
      const luma = 0.299 * (head.data[b] ?? 0) + 0.587 * (head.data[b + 1] ?? 0) + 0.114 * (head.data[b + 2] ?? 0);
      // Three stores, not Buffer.fill: a call a pixel cost more than the comparison itself.
      const grey = dimmed(luma * alpha + 255 * (1 - alpha));
      pixels[out] = grey;
      pixels[out + 1] = grey;
      pixels[out + 2] = grey;
    }
  }

  const sharp = await loadSharp();
  try {
    await mkdir(dirname(input.out), { recursive: true });
    await sharp(pixels, { raw: { width, height, channels: 3 } })
      .png()
      .toFile(input.out);
  } catch (cause) {
    throw new DiffImageNotWritten({ file: input.out, detail: messageOf(cause) });
  }

  const totalPixels = width * height;
  const changedShare = changedPixels / totalPixels;
  return {
    changedPixels,
    totalPixels,
    changedShare,
    changed: changedShare > threshold,
    threshold,
    tolerance,
    base: { width: base.width, height: base.height },
    head: { width: head.width, height: head.height },
    file: input.out,
  };
}

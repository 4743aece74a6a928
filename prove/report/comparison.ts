import { join } from "node:path";
import sharp, { type OverlayOptions } from "sharp";
import type { ReportScreenshot } from "./schema.ts";

export interface ComparisonRow {
  readonly caption: string;
  readonly base: ReportScreenshot | undefined;
  readonly head: ReportScreenshot | undefined;
}

export interface ComparisonInput {
  /** The report folder the screenshots' paths are relative to. */
  readonly dir: string;
  readonly file: string;
  readonly title: string;
  readonly subtitle: string;
  readonly columns: readonly [base: string, head: string];
  readonly rows: ReadonlyArray<ComparisonRow>;
}

const cellWidth = 640;
const pad = 16;
const captionHeight = 34;
const lineHeight = 22;
const placeholderHeight = 360;

const escapeXml = (text: string) =>
  text.replace(/[&<>"']/g, (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[char] ?? char);

/** Breaks text into lines of at most `width` characters, at spaces where it can. */
function wrap(text: string, width: number, maxLines: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    if (line !== "" && line.length + 1 + word.length > width) {
      lines.push(line);
      line = "";
    }
    line = line === "" ? word.slice(0, width) : `${line} ${word}`;
  }
  if (line !== "") lines.push(line);
  return lines.length > maxLines ? [...lines.slice(0, maxLines - 1), `${lines[maxLines - 1] ?? ""}…`] : lines;
}

function textBlock(lines: ReadonlyArray<string>, width: number, size: number, weight: "normal" | "bold", fill = "#1f2328"): Buffer {
  const height = Math.max(1, lines.length) * (size + 8) + 6;
  const spans = lines
    .map((line, index) => `<text x="0" y="${(index + 1) * (size + 8) - 4}" font-family="DejaVu Sans, Liberation Sans, sans-serif" font-size="${size}" font-weight="${weight}" fill="${fill}">${escapeXml(line)}</text>`)
    .join("");
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${spans}</svg>`);
}

function placeholder(height: number, text: string): Buffer {
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${cellWidth}" height="${height}">` +
      `<rect x="0.5" y="0.5" width="${cellWidth - 1}" height="${height - 1}" fill="#f6f8fa" stroke="#d0d7de" stroke-dasharray="6 4"/>` +
      `<text x="${cellWidth / 2}" y="${height / 2}" text-anchor="middle" font-family="DejaVu Sans, sans-serif" font-size="20" fill="#656d76">${escapeXml(text)}</text></svg>`,
  );
}

/** A thin outline, so a white page does not melt into the white canvas. */
const frame = (height: number) =>
  Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${cellWidth}" height="${height}"><rect x="0.5" y="0.5" width="${cellWidth - 1}" height="${height - 1}" fill="none" stroke="#d0d7de"/></svg>`,
  );

const scaledHeight = (shot: ReportScreenshot) => Math.max(1, Math.round((shot.height * cellWidth) / shot.width));

/** One image with every row, base left and head right, each captioned: to drop into a PR comment. */
export async function writeComparison(input: ComparisonInput): Promise<{ width: number; height: number }> {
  const width = pad * 3 + cellWidth * 2;
  const layers: OverlayOptions[] = [];
  let y = pad;
  const titleLines = wrap(input.title, 70, 2);
  layers.push({ input: textBlock(titleLines, width - 2 * pad, 24, "bold"), top: y, left: pad });
  y += titleLines.length * 32 + 6;
  const subtitleLines = wrap(input.subtitle, 120, 4);
  layers.push({ input: textBlock(subtitleLines, width - 2 * pad, 15, "normal", "#424a53"), top: y, left: pad });
  y += subtitleLines.length * 23 + 6 + pad;
  for (const [index, column] of input.columns.entries()) {
    layers.push({ input: textBlock(wrap(column, 56, 1), cellWidth, 17, "bold"), top: y, left: pad + index * (cellWidth + pad) });
  }
  y += lineHeight + 14;

  for (const row of input.rows) {
    layers.push({ input: textBlock(wrap(row.caption, 110, 1), width - 2 * pad, 16, "bold", "#0969da"), top: y, left: pad });
    y += captionHeight;
    const shots = [row.base, row.head];
    const rowHeight = Math.max(...shots.map((shot) => (shot === undefined ? 0 : scaledHeight(shot))), 0) || placeholderHeight;
    for (const [index, shot] of shots.entries()) {
      const left = pad + index * (cellWidth + pad);
      const image =
        shot === undefined
          ? placeholder(rowHeight, row.caption === "failure screenshot" ? "no failure" : "not reached")
          : await sharp(join(input.dir, shot.path)).resize({ width: cellWidth, height: scaledHeight(shot), fit: "fill" }).png().toBuffer();
      layers.push({ input: image, top: y, left });
      if (shot !== undefined) layers.push({ input: frame(scaledHeight(shot)), top: y, left });
    }
    y += rowHeight + pad;
  }

  const height = y + pad;
  await sharp({ create: { width, height, channels: 4, background: "#ffffff" } })
    .composite(layers)
    .png()
    .toFile(input.file);
  return { width, height };
}

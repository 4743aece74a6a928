import { join } from "node:path";
import type { OverlayOptions } from "sharp";
import { emptyCell, failureNote, hasDifference, rowDifference, type ComparisonRow } from "./rows.ts";
import type { ReportScreenshot } from "./schema.ts";
import { loadSharp } from "./sharp.ts";
import { describeShare } from "./share.ts";

export type { ComparisonRow } from "./rows.ts";

export interface ComparisonInput {
  /** The report folder the screenshots' paths are relative to. */
  readonly dir: string;
  readonly file: string;
  readonly title: string;
  readonly subtitle: string;
  readonly columns: readonly [base: string, head: string];
  readonly rows: ReadonlyArray<ComparisonRow>;
}

/** Two columns of 640 pixels; with the difference column, three that fill the same width, so the text is as large in a PR. */
const twoColumnWidth = 640;
const pad = 16;
const captionHeight = 34;
const lineHeight = 22;
const placeholderHeight = 360;

/** Text as SVG text content or an attribute value, for the images sharp renders. */
export const escapeXml = (text: string) =>
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
    .map(
      (line, index) =>
        `<text x="0" y="${(index + 1) * (size + 8) - 4}" font-family="DejaVu Sans, Liberation Sans, sans-serif" font-size="${size}" font-weight="${weight}" fill="${fill}">${escapeXml(line)}</text>`,
    )
    .join("");
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${spans}</svg>`);
}

function placeholder(cellWidth: number, height: number, text: string): Buffer {
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${cellWidth}" height="${height}">` +
      `<rect x="0.5" y="0.5" width="${cellWidth - 1}" height="${height - 1}" fill="#f6f8fa" stroke="#d0d7de" stroke-dasharray="6 4"/>` +
      `<text x="${cellWidth / 2}" y="${height / 2}" text-anchor="middle" font-family="DejaVu Sans, sans-serif" font-size="20" fill="#656d76">${escapeXml(text)}</text></svg>`,
  );
}

/** A thin outline, so a white page does not melt into the white canvas. */
const frame = (cellWidth: number, height: number) =>
  Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${cellWidth}" height="${height}"><rect x="0.5" y="0.5" width="${cellWidth - 1}" height="${height - 1}" fill="none" stroke="#d0d7de"/></svg>`,
  );

const scaledHeight = (shot: ReportScreenshot, cellWidth: number) => Math.max(1, Math.round((shot.height * cellWidth) / shot.width));

/** A row's caption: its label, and what its difference or a failure screenshot in it is. */
function rowCaption(row: ComparisonRow): string {
  const difference = rowDifference(row);
  const notes = [
    ...(row.failure === undefined ? [] : [`${row.failure}: ${failureNote}`]),
    ...(difference === undefined ? [] : [`difference: ${describeShare(difference)}`]),
  ];
  return [row.caption, ...notes].join(" · ");
}

/**
 * comparison.png: every row captioned, base left and head right, for a PR comment. A third column
 * holds the difference images when any row has one, in the same total width.
 */
export async function writeComparison(input: ComparisonInput): Promise<{ width: number; height: number }> {
  const sharp = await loadSharp();
  const width = pad * 3 + twoColumnWidth * 2;
  const withDifferences = input.rows.some(hasDifference);
  const columns = withDifferences ? [...input.columns, "difference: changed pixels in magenta"] : [...input.columns];
  const cellWidth = Math.floor((width - pad * (columns.length + 1)) / columns.length);
  const layers: OverlayOptions[] = [];
  let y = pad;
  const titleLines = wrap(input.title, 70, 2);
  layers.push({ input: textBlock(titleLines, width - 2 * pad, 24, "bold"), top: y, left: pad });
  y += titleLines.length * 32 + 6;
  const subtitleLines = wrap(input.subtitle, 120, 4);
  layers.push({ input: textBlock(subtitleLines, width - 2 * pad, 15, "normal", "#424a53"), top: y, left: pad });
  y += subtitleLines.length * 23 + 6 + pad;
  // A narrower column gets a second line, so its title still shows the ref after the SHA.
  const titles = columns.map((column) => wrap(column, Math.floor(cellWidth / 11.4), withDifferences ? 2 : 1));
  for (const [index, lines] of titles.entries()) {
    layers.push({ input: textBlock(lines, cellWidth, 17, "bold"), top: y, left: pad + index * (cellWidth + pad) });
  }
  y += lineHeight + 14 + (Math.max(...titles.map((lines) => lines.length)) - 1) * 25;

  for (const row of input.rows) {
    layers.push({ input: textBlock(wrap(rowCaption(row), 110, 1), width - 2 * pad, 16, "bold", "#0969da"), top: y, left: pad });
    y += captionHeight;
    const cells: ReadonlyArray<{ readonly shot: ReportScreenshot | undefined; readonly missing: string }> = [
      { shot: row.base, missing: emptyCell(row, "base") },
      { shot: row.head, missing: emptyCell(row, "head") },
      ...(withDifferences ? [{ shot: rowDifference(row), missing: "not compared" }] : []),
    ];
    const rowHeight =
      Math.max(...cells.map(({ shot }) => (shot === undefined ? 0 : scaledHeight(shot, cellWidth))), 0) ||
      Math.round((placeholderHeight * cellWidth) / twoColumnWidth);
    for (const [index, { shot, missing }] of cells.entries()) {
      const left = pad + index * (cellWidth + pad);
      const image =
        shot === undefined
          ? placeholder(cellWidth, rowHeight, missing)
          : await sharp(join(input.dir, shot.path))
              .resize({ width: cellWidth, height: scaledHeight(shot, cellWidth), fit: "fill" })
              .png()
              .toBuffer();
      layers.push({ input: image, top: y, left });
      if (shot !== undefined) layers.push({ input: frame(cellWidth, scaledHeight(shot, cellWidth)), top: y, left });
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

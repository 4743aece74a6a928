import { describe, expect, it } from "vitest";
import { NdjsonLineParser } from "./ndjson-lines.ts";

const encoder = new TextEncoder();

/** Every line of `reads`, pushed one read at a time into one parser, and what is left at the end. */
function parse(reads: ReadonlyArray<Uint8Array | string>): string[] {
  const parser = new NdjsonLineParser();
  return [...reads.flatMap((read) => parser.push(typeof read === "string" ? encoder.encode(read) : read)), ...parser.end()];
}

describe("NdjsonLineParser", () => {
  it("returns the same lines wherever a read ends: inside a line, at its newline, or inside a UTF-8 character", () => {
    const lines = [
      '{"message":{"role":"assistant","content":"The capital of France is"},"done":false}',
      '{"message":{"role":"assistant","content":" Paris — café ✓"},"done":false}',
      '{"done":true}',
    ];
    const body = encoder.encode(lines.map((line) => `${line}\n`).join(""));

    for (let at = 1; at < body.length; at++) {
      expect(parse([body.subarray(0, at), body.subarray(at)]), `cut at byte ${at}`).toEqual(lines);
    }
  });

  it("completes a line only at its newline, reads CRLF line ends and blank lines, and keeps a last line without a newline", () => {
    const parser = new NdjsonLineParser();

    expect(parser.push(encoder.encode('{"a":1}'))).toEqual([]);
    expect(parser.push(encoder.encode("\r\n\n"))).toEqual(['{"a":1}']);
    expect(parse(['{"b":2}\n{"c":', "3}"])).toEqual(['{"b":2}', '{"c":3}']);
  });
});

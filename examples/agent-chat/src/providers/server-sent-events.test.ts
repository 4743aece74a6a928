import { describe, expect, it } from "vitest";
import { EventStreamParser } from "./server-sent-events.ts";

const encoder = new TextEncoder();

/** The data of every event in `reads`, pushed one read at a time into one parser. */
function parse(reads: ReadonlyArray<Uint8Array | string>): string[] {
  const parser = new EventStreamParser();
  return reads.flatMap((read) => parser.push(typeof read === "string" ? encoder.encode(read) : read));
}

describe("EventStreamParser", () => {
  it("returns the same events wherever a read ends: inside a `data:` line, between its lines, or inside a UTF-8 character", () => {
    const events = ['{"choices":[{"index":0,"delta":{"content":"The capital of France is"}}]}', '{"choices":[{"index":0,"delta":{"content":" Paris — café ✓"}}]}', "[DONE]"];
    const body = encoder.encode(events.map((data) => `data: ${data}\n\n`).join(""));

    for (let at = 1; at < body.length; at++) {
      expect(parse([body.subarray(0, at), body.subarray(at)]), `cut at byte ${at}`).toEqual(events);
    }
  });

  it("completes an event only at its blank line", () => {
    const parser = new EventStreamParser();

    expect(parser.push(encoder.encode('data: {"a":1}\n'))).toEqual([]);
    expect(parser.push(encoder.encode("\n"))).toEqual(['{"a":1}']);
  });

  it("joins an event's data lines with a newline, reads CRLF line ends, and skips comments and the other fields", () => {
    expect(parse([": keep-alive\r\n\r\nevent: chunk\r\nid: 7\r\ndata: first\r\ndata:second\r\n\r\n", "retry: 100\n\n"])).toEqual(["first\nsecond"]);
  });
});

import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { startRecorder } from "../fixtures/cli-process.ts";
import { clients } from "../fixtures/clients.ts";
import { writeVariant, type Line } from "../fixtures/variant.ts";
import { startReplayServer } from "../index.ts";
import { frameCuts } from "./frame-cuts.ts";
import { makeTimeline } from "./timeline.ts";

const chunk = (delta: object, fields: object = {}): Line => ({
  type: "emit_inbound",
  sse: {
    data: {
      id: "chatcmpl-paced1",
      object: "chat.completion.chunk",
      created: 1764500000,
      model: "gpt-4o-mini-2024-07-18",
      choices: [{ index: 0, delta, finish_reason: null }],
    },
  },
  ...fields,
});

/**
 * An upstream that takes known times: a paced transcript (its first frame 300 ms after the
 * request, then one every 50 ms) whose third text frame is cut in two writes 120 ms apart; it
 * answers two requests, one recorded with timing and one without.
 */
const pacedUpstream: ReadonlyArray<Line> = [
  { type: "meta", format: "replay-transcript", version: 1, provider: "openai-chat", pace: { tokensPerSecond: 20, firstTokenMs: 300 } },
  { type: "expect_outbound", times: 2, request: { method: "POST", path: "/v1/chat/completions", body: { stream: true } } },
  chunk({ role: "assistant", content: "" }),
  chunk({ content: "Hello" }),
  chunk({ content: " paced" }),
  chunk({ content: " world" }, { cut: [{ at: 30, delay: 120 }] }),
  { type: "emit_inbound", sse: { data: "[DONE]" } },
];

/** When each write of the upstream was due, in ms after the request, and how many of its own waits (each a timer) it took to get there. */
const upstreamSchedule = [
  { write: "frame 1", at: 300, waits: 1 },
  { write: "frame 2", at: 350, waits: 2 },
  { write: "frame 3", at: 400, waits: 3 },
  { write: "frame 4", at: 450, waits: 4 },
  { write: "frame 4, after its cut", at: 570, waits: 5 },
  { write: "frame 5", at: 620, waits: 6 },
];

/** The time a recording keeps before each of its writes: delay lines and cut delays added up from the request. */
const keptTimes = (lines: ReadonlyArray<Record<string, unknown>>) => {
  let kept = 0;
  let frame = 0;
  const writes: Array<{ readonly write: string; readonly at: number }> = [];
  for (const line of lines) {
    if (line["type"] === "delay") kept += Number(line["ms"]);
    if (line["type"] !== "emit_inbound" || !("sse" in line)) continue;
    frame++;
    writes.push({ write: `frame ${frame}`, at: kept });
    for (const cut of Array.isArray(line["cut"]) ? (line["cut"] as ReadonlyArray<unknown>) : []) {
      if (typeof cut !== "object" || cut === null || !("delay" in cut)) continue;
      kept += Number(cut.delay);
      writes.push({ write: `frame ${frame}, after its cut`, at: kept });
    }
  }
  return writes;
};

describe("replay-agent record's timing", () => {
  it("keeps the time the upstream took before each chunk as delay lines and cut delays, and --no-timing keeps none", async () => {
    const dir = await mkdtemp(join(tmpdir(), "replay-agent-record-timing-"));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const upstream = await startReplayServer({ transcript: await writeVariant(pacedUpstream) });
    onTestFinished(() => upstream.close());
    const env = { OPENAI_API_KEY: "sk-timing0test1key2for3recorder" };
    const record = async (name: string, timing: boolean) => {
      const out = join(dir, name);
      const recorder = await startRecorder({ provider: "openai-chat", upstream: upstream.url, out, env, timing });
      const texts: Array<string> = [];
      for await (const item of await clients["openai-chat"].stream(recorder.url, "Hi")) if ("text" in item) texts.push(item.text);
      expect(texts).toEqual(["Hello", " paced", " world"]);
      expect((await recorder.stop("SIGINT")).exitCode).toBe(0);
      return (await readFile(out, "utf8"))
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    };

    const timed = await record("timed.ndjson", true);
    const kept = keptTimes(timed);
    // The recorder reads the cut frame's two writes apart unless it stalls for their 120 ms; then it
    // is one chunk, and no cut is kept. Every frame is kept either way.
    const expected = upstreamSchedule.filter(
      ({ write }) => write !== "frame 4, after its cut" || kept.some((seen) => seen.write === write),
    );
    expect(kept.map(({ write }) => write)).toEqual(expected.map(({ write }) => write));
    // Lower bounds only: each write came no sooner than the upstream made it, less up to 1 ms a timer
    // of the upstream (Node's timers keep whole milliseconds) and half a ms of rounding.
    for (const [index, { write, at, waits }] of expected.entries()) {
      expect({ write, kept: kept[index]?.at ?? 0 }).toEqual({ write, kept: expect.toSatisfy((ms: number) => ms >= at - waits - 0.5) });
    }
    expect(timed.every((line) => line["type"] !== "delay" || (Number.isInteger(line["ms"]) && Number(line["ms"]) >= 1))).toBe(true);

    const replay = await startReplayServer({ transcript: join(dir, "timed.ndjson") });
    onTestFinished(() => replay.close());
    const replayed: Array<string> = [];
    for await (const item of await clients["openai-chat"].stream(replay.url, "Hi")) if ("text" in item) replayed.push(item.text);
    expect(replayed).toEqual(["Hello", " paced", " world"]);
    expect(replay.status()).toMatchObject({ remaining: 0, mismatches: [] });

    const untimed = await record("untimed.ndjson", false);
    expect(untimed.filter((line) => line["type"] === "delay")).toEqual([]);
    // A plain offset, without a delay (or none, if the recorder read both writes as one chunk).
    expect(untimed.flatMap((line) => (Array.isArray(line["cut"]) ? line["cut"] : []))).toEqual(
      expect.toSatisfy((cuts: ReadonlyArray<unknown>) => cuts.length === 0 || (cuts.length === 1 && cuts[0] === 30)),
    );
  });

  it("rounds each wait to whole ms and carries what rounding left out over to the next, so the waits add up to the time that passed", () => {
    const timeline = makeTimeline(1000);
    const waits = [1000.4, 1000.8, 1001.2, 1050.7, 1050.9, 1051.3].map((at) => timeline.until(at));
    expect(waits).toEqual([0, 1, 0, 50, 0, 0]);
    expect(waits.reduce((sum, ms) => sum + ms, 0)).toBe(Math.round(1051.3 - 1000));
  });

  it("keeps a chunk boundary's delay on its cut, adding the delays of boundaries that land on one byte", () => {
    const bytes = new TextEncoder().encode('data: {"n":1}\n\n');
    expect(frameCuts(bytes, bytes, [4, 9], [0, 120])).toEqual([4, { at: 9, delay: 120 }]);
    const written = new TextEncoder().encode('data: {"n":1}\n\n');
    const crlf = new TextEncoder().encode('data: {"n":1}\r\n\r\n');
    expect(frameCuts(crlf, written, [15, 16], [30, 40])).toEqual([{ at: 14, delay: 70 }]);
  });
});

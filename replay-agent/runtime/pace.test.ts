import * as Clock from "effect/Clock";
import * as Effect from "effect/Effect";
import * as Fiber from "effect/Fiber";
import { TestClock } from "effect/testing";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { writeNew } from "../fixtures/new-file.ts";
import { readTranscript, serveTranscript } from "../index.ts";
import { parseTranscript } from "../transcript/parse.ts";
import { makeReplayRuntime } from "./make-replay-runtime.ts";
import type { AnswerRun, ResponseSink } from "./response-sink.ts";

const meta = (provider: string, pace?: object) =>
  JSON.stringify({ type: "meta", format: "replay-transcript", version: 1, provider, ...(pace === undefined ? {} : { pace }) });
const request = JSON.stringify({ type: "expect_outbound", request: { method: "POST", path: "/v1/chat/completions" } });
const chunk = (content: string, fields: object = {}) =>
  JSON.stringify({
    type: "emit_inbound",
    sse: { data: { id: "c1", object: "chat.completion.chunk", choices: [{ index: 0, delta: { content } }] } },
    ...fields,
  });
const head = JSON.stringify({ type: "emit_inbound", head: { status: 200 } });
const done = JSON.stringify({ type: "emit_inbound", sse: { data: "[DONE]" } });
const delay = (ms: number) => JSON.stringify({ type: "delay", ms });
const whole = JSON.stringify({ type: "emit_inbound", response: { status: 200, body: { object: "chat.completion" } } });
const fail = JSON.stringify({ type: "fail", status: 429, body: { error: { message: "Rate limit reached" } } });

/**
 * Plays `lines` (after the meta line) for one request under the test clock, and says when each
 * write left, in virtual ms from the match: `line:from` for each piece of the write.
 */
const writeTimes = (metaLine: string, lines: ReadonlyArray<string>, matched: unknown = { method: "POST", path: "/v1/chat/completions" }) =>
  Effect.gen(function* () {
    const transcript = yield* parseTranscript("paced.ndjson", [metaLine, ...lines].join("\n"));
    const runtime = yield* makeReplayRuntime<unknown, AnswerRun>(transcript, (run) => run);
    const writes: Array<{ readonly at: number; readonly pieces: string }> = [];
    const sink: ResponseSink = {
      send: (run) =>
        Clock.currentTimeMillis.pipe(
          Effect.map((at) => {
            writes.push({ at, pieces: run.map((piece) => `${piece.entry.line}:${piece.from}`).join(" ") });
          }),
        ),
      end: Effect.void,
    };
    const playing = yield* Effect.forkChild(runtime.serve(matched, sink));
    yield* TestClock.adjust("1 minute");
    yield* Fiber.join(playing);
    expect(yield* runtime.status).toMatchObject({ remaining: 0, mismatches: [] });
    return writes;
  }).pipe(Effect.scoped, Effect.provide(TestClock.layer()), Effect.runPromise);

describe("pace", () => {
  it("without a pace, every frame leaves at once, as before", async () => {
    expect(await writeTimes(meta("openai-chat"), [request, head, chunk("Hello"), chunk(" there"), done])).toEqual([
      { at: 0, pieces: "3:0 4:0 5:0 6:0" },
    ]);
  });

  it("sends the first frame firstTokenMs after the match and each later one 1000 / tokensPerSecond ms after the one before; a head goes at once", async () => {
    const paced = meta("openai-chat", { tokensPerSecond: 20, firstTokenMs: 600 });
    expect(await writeTimes(paced, [request, head, chunk("Hello"), chunk(" there"), chunk("!"), done])).toEqual([
      { at: 0, pieces: "3:0" },
      { at: 600, pieces: "4:0" },
      { at: 650, pieces: "5:0" },
      { at: 700, pieces: "6:0" },
      { at: 750, pieces: "7:0" },
    ]);
  });

  it("adds delay lines and a cut's delay to the pace, and a frame the one before joins goes out in the same write", async () => {
    const paced = meta("openai-chat", { tokensPerSecond: 10, firstTokenMs: 200 });
    const lines = [
      request,
      chunk("Hello"),
      delay(1000),
      chunk(" there", { cut: [{ at: 20, delay: 30 }] }),
      chunk("!", { join: true }),
      done,
    ];
    expect(await writeTimes(paced, lines)).toEqual([
      { at: 200, pieces: "3:0" },
      { at: 1300, pieces: "5:0" },
      { at: 1330, pieces: "5:20" },
      { at: 1430, pieces: "6:0 7:0" },
    ]);
  });

  it("with tokensPerSecond alone the first frame leaves at once; with firstTokenMs alone the later ones follow it at once", async () => {
    const frames = [request, chunk("Hello"), chunk(" there"), done];
    expect(await writeTimes(meta("openai-chat", { tokensPerSecond: 4 }), frames)).toEqual([
      { at: 0, pieces: "3:0" },
      { at: 250, pieces: "4:0" },
      { at: 500, pieces: "5:0" },
    ]);
    expect(await writeTimes(meta("openai-chat", { firstTokenMs: 900 }), frames)).toEqual([{ at: 900, pieces: "3:0 4:0 5:0" }]);
  });

  it("holds a whole response firstTokenMs, and answers a fail at once", async () => {
    const paced = meta("openai-chat", { tokensPerSecond: 20, firstTokenMs: 600 });
    expect(await writeTimes(paced, [request, whole])).toEqual([{ at: 600, pieces: "3:0" }]);
    expect(await writeTimes(paced, [request, fail])).toEqual([{ at: 0, pieces: "3:0" }]);
  });

  it("waits firstTokenMs after a pause before the first frame is resumed, not while it is held", async () => {
    const program = Effect.gen(function* () {
      const paced = meta("openai-chat", { tokensPerSecond: 20, firstTokenMs: 600 });
      const transcript = yield* parseTranscript(
        "paced.ndjson",
        [paced, request, JSON.stringify({ type: "pause", name: "before" }), chunk("Hi"), done].join("\n"),
      );
      const runtime = yield* makeReplayRuntime<unknown, AnswerRun>(transcript, (run) => run);
      const writes: Array<number> = [];
      const sink: ResponseSink = { send: () => Effect.map(Clock.currentTimeMillis, (at) => void writes.push(at)), end: Effect.void };
      const playing = yield* Effect.forkChild(runtime.serve({ method: "POST", path: "/v1/chat/completions" }, sink));
      yield* runtime.awaitPause("before");
      yield* TestClock.adjust(5000);
      expect(writes).toEqual([]);
      yield* runtime.resume("before");
      yield* TestClock.adjust("1 minute");
      yield* Fiber.join(playing);
      expect(writes).toEqual([5600, 5650]);
    });
    await Effect.runPromise(program.pipe(Effect.scoped, Effect.provide(TestClock.layer())));
  });

  it("paces the messages a stdio agent sends in an answer the same way", async () => {
    const message = (text: string) =>
      JSON.stringify({
        type: "emit_inbound",
        message: { jsonrpc: "2.0", method: "session/update", params: { update: { content: { type: "text", text } } } },
      });
    const prompt = JSON.stringify({ type: "expect_outbound", message: { method: "session/prompt" } });
    const result = JSON.stringify({ type: "emit_inbound", message: { jsonrpc: "2.0", id: 2, result: { stopReason: "end_turn" } } });
    const paced = meta("jsonrpc-stdio", { tokensPerSecond: 50, firstTokenMs: 300 });
    expect(await writeTimes(paced, [prompt, message("Hello"), message(" there"), result], { method: "session/prompt" })).toEqual([
      { at: 300, pieces: "3:0" },
      { at: 320, pieces: "4:0" },
      { at: 340, pieces: "5:0" },
    ]);
  });

  it("streams a paced transcript written by new to the official openai client, each chunk once the agent's clock reaches its time", async () => {
    const { file } = await writeNew({
      provider: "openai-chat",
      pace: { tokensPerSecond: 20, firstTokenMs: 200 },
      turns: [{ user: "Hi", reply: "One two three four five." }],
    });
    const program = Effect.gen(function* () {
      const { url, runtime } = yield* serveTranscript(yield* readTranscript(file));
      const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: "replay", maxRetries: 0 });
      // The head line goes at once, so the client's call resolves before the first chunk.
      const stream = yield* Effect.promise(() =>
        client.chat.completions.create({
          model: "gpt-4o-mini",
          messages: [{ role: "user", content: "Hi" }],
          stream: true,
          stream_options: { include_usage: true },
        }),
      );
      const chunks = stream[Symbol.asyncIterator]();
      const [request] = yield* runtime.requests;
      const arrivals: Array<{ readonly text: string; readonly after: number }> = [];
      for (let chunk = 0; ; chunk++) {
        const due = chunk === 0 ? 200 : 50;
        yield* TestClock.adjust(due - 1);
        // One ms before it is due, the agent still waits out the pace before this chunk.
        expect((yield* runtime.status).next?.summary).toMatch(
          chunk === 0 ? /^pace 200ms \(before the first frame at line \d+\)$/ : /^pace 50ms \(before the frame at line \d+\)$/,
        );
        yield* TestClock.adjust(1);
        const next = yield* Effect.promise(() => chunks.next());
        if (next.done === true) break;
        arrivals.push({ text: next.value.choices[0]?.delta.content ?? "", after: (yield* Clock.currentTimeMillis) - (request?.at ?? 0) });
      }
      expect(arrivals.map(({ text }) => text)).toEqual(["", "One", " two", " three", " four", " five", ".", "", ""]);
      expect(arrivals.map(({ after }) => after)).toEqual([200, 250, 300, 350, 400, 450, 500, 550, 600]);
      expect(yield* runtime.status).toMatchObject({ remaining: 0, mismatches: [] });
    });
    await Effect.runPromise(program.pipe(Effect.scoped, Effect.provide(TestClock.layer())));
  });
});

import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Cohere, CohereClientV2 } from "cohere-ai";
import * as Effect from "effect/Effect";
import { describe, expect, it, onTestFinished } from "vitest";
import { fixture } from "../fixtures/fixture.ts";
import { fixtureLines, writeVariant, type Line } from "../fixtures/variant.ts";
import { recordProxy, startReplayServer, TranscriptError, validateTranscript, type ReplayServer } from "../index.ts";
import type { SseFrame } from "../transcript/schema.ts";
import { sseFrameText } from "../wire/sse.ts";

/** The official `cohere-ai` v2 client, pointed at the replay agent with its base URL option. */
const cohere = (url: string) => new CohereClientV2({ token: "replay", baseUrl: url, maxRetries: 0 });

const model = "command-a-03-2025";

const serveFile = async (transcript: string) => {
  const server = await startReplayServer({ transcript });
  onTestFinished(() => server.close());
  return server;
};

const serve = (name: string) => serveFile(fixture(`cohere/${name}`));

/** Resolves once `count` texts arrived; a plain promise the test can await without timers. */
const arrivals = (count: number) => {
  let arrived = () => {};
  const promise = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  return { promise, seen: (received: number) => received === count && arrived() };
};

/** Streams the short tour and records each text delta the SDK parsed, and whether it came after the test resumed `pause`. */
const readTour = async (server: ReplayServer, pause: string, before: number) => {
  const stream = await cohere(server.url).chatStream({ model, messages: [{ role: "user", content: "Give me a short tour" }] });
  let resumed = false;
  const events: Array<string> = [];
  const received: Array<{ readonly text: string; readonly afterResume: boolean }> = [];
  let end: { readonly reason: unknown; readonly input: unknown; readonly output: unknown } | undefined;
  const beforePause = arrivals(before);
  const reading = (async () => {
    for await (const event of stream) {
      events.push(event.type);
      if (event.type === "content-delta") received.push({ text: event.delta?.message?.content?.text ?? "", afterResume: resumed });
      if (event.type === "message-end") {
        const billed = event.delta?.usage?.billedUnits;
        end = { reason: event.delta?.finishReason, input: billed?.inputTokens, output: billed?.outputTokens };
      }
      beforePause.seen(received.length);
    }
  })();
  await beforePause.promise;
  await server.paused(pause);
  resumed = true;
  server.resume();
  await reading;
  return { events, received, end };
};

const toolQuestion = { role: "user", content: "What does src/math.ts export?" } as const;
const readFileTool: Cohere.ToolV2 = {
  type: "function",
  function: {
    name: "read_file",
    description: "Read a file of the project",
    parameters: { type: "object", properties: { path: { type: "string", description: "The file's path" } }, required: ["path"] },
  },
};

/** Asks what src/math.ts exports, assembles the tool call from the SDK's events as an app does, and sends the tool's result back: what each turn gave. */
const toolTurn = async (url: string) => {
  const client = cohere(url);
  let plan = "";
  const call = { id: "", name: "", arguments: "" };
  let end: unknown;
  for await (const event of await client.chatStream({ model, messages: [toolQuestion], tools: [readFileTool] })) {
    if (event.type === "tool-plan-delta") plan += event.delta?.message?.toolPlan ?? "";
    if (event.type === "tool-call-start") {
      const started = event.delta?.message?.toolCalls;
      Object.assign(call, { id: started?.id ?? "", name: started?.function?.name ?? "", arguments: started?.function?.arguments ?? "" });
    }
    if (event.type === "tool-call-delta") call.arguments += event.delta?.message?.toolCalls?.function?.arguments ?? "";
    if (event.type === "message-end") end = event.delta?.finishReason;
  }
  const messages: Array<Cohere.ChatMessageV2> = [
    toolQuestion,
    {
      role: "assistant",
      toolPlan: plan,
      toolCalls: [{ id: call.id, type: "function", function: { name: call.name, arguments: call.arguments } }],
    },
    { role: "tool", toolCallId: call.id, content: "export const sum = 1 + 1;\n" },
  ];
  let answer = "";
  for await (const event of await client.chatStream({ model, messages, tools: [readFileTool] })) {
    if (event.type === "content-delta") answer += event.delta?.message?.content?.text ?? "";
  }
  return { plan, call, end, answer };
};

describe("cohere over HTTP, read by the official cohere-ai client", () => {
  it("holds a stream at a pause: the deltas before it arrive, the rest and message-end only after resume", async () => {
    const server = await serve("short-tour.ndjson");
    const { events, received, end } = await readTour(server, "mid-stream", 3);
    expect(received).toEqual([
      { text: "This", afterResume: false },
      { text: " project", afterResume: false },
      { text: " has", afterResume: false },
      { text: " two", afterResume: true },
      { text: " files.", afterResume: true },
    ]);
    expect(events).toEqual([
      "message-start",
      "content-start",
      ...Array.from({ length: 5 }, () => "content-delta"),
      "content-end",
      "message-end",
    ]);
    expect(end).toEqual({ reason: "COMPLETE", input: 12, output: 6 });
    expect(server.status()).toMatchObject({ remaining: 0, paused: null, mismatches: [] });
  });

  it("writes an event cut across two network reads: the SDK parses it whole once the rest arrives", async () => {
    const lines = await fixtureLines("cohere/short-tour.ndjson");
    const deltas = lines.flatMap((line, index) =>
      line["sse"] !== undefined && (line["sse"] as SseFrame).event === "content-delta" ? [index] : [],
    );
    const [first = 0, second = 0] = deltas;
    const half = Math.floor(Buffer.byteLength(sseFrameText(lines[second]?.["sse"] as SseFrame)) / 2);
    // The first delta and half of the second in one write, the rest held at a pause (the fixture's own pause left out).
    const cut = lines.flatMap((line, index): Array<Line> => {
      if (line.type === "pause") return [];
      if (index === first) return [{ ...line, join: true }];
      if (index === second) return [{ ...line, cut: [{ at: half, pause: "half-event" }] }];
      return [line];
    });
    const server = await serveFile(await writeVariant(cut));
    const { received } = await readTour(server, "half-event", 1);
    expect(received).toEqual([
      { text: "This", afterResume: false },
      { text: " project", afterResume: true },
      { text: " has", afterResume: true },
      { text: " two", afterResume: true },
      { text: " files.", afterResume: true },
    ]);
    expect(server.status()).toMatchObject({ remaining: 0, mismatches: [] });
  });

  it("streams a tool plan and a tool call in fragments the app assembles from the SDK's events, then serves the turn carrying its result", async () => {
    const server = await serve("tool-call.ndjson");
    const { plan, call, end, answer } = await toolTurn(server.url);
    expect(plan).toBe("I will read src/math.ts to see what it exports.");
    expect(call).toEqual({ id: "read_file_4mq8x2k7v9ta", name: "read_file", arguments: '{"path": "src/math.ts"}' });
    expect(JSON.parse(call.arguments)).toEqual({ path: "src/math.ts" });
    expect(end).toBe("TOOL_CALL");
    expect(answer).toBe("It exports `sum`.");
    expect(server.status()).toMatchObject({ remaining: 0, mismatches: [] });
  });

  it("records the tool turn through replay-agent record, with the key in CO_API_KEY, and replays it to the same parsed result", async () => {
    const upstream = await serve("tool-call.ndjson");
    const dir = await mkdtemp(join(tmpdir(), "replay-agent-cohere-"));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const out = join(dir, "recorded.ndjson");
    const recording = Effect.gen(function* () {
      const recorder = yield* recordProxy({
        provider: "cohere",
        upstream: new URL(upstream.url),
        out,
        port: 0,
        env: { CO_API_KEY: "co-round0trip1key2for3the4recorder" },
        log: () => {},
      });
      return yield* Effect.promise(() => toolTurn(recorder.url));
    });
    const recorded = await Effect.runPromise(Effect.scoped(recording));
    expect(upstream.status()).toMatchObject({ remaining: 0, mismatches: [] });
    const text = await readFile(out, "utf8");
    expect(text).not.toContain("co-round0trip1key2for3the4recorder");
    expect(text).toContain('"sse":{"event":"tool-call-start"');

    const replay = await serveFile(out);
    expect(await toolTurn(replay.url)).toEqual(recorded);
    expect(recorded).toMatchObject({ call: { id: "read_file_4mq8x2k7v9ta" }, answer: "It exports `sum`." });
    expect(replay.status()).toMatchObject({ remaining: 0, mismatches: [] });
  });

  it("answers a fail with its status, so the SDK raises its error class for it with the body", async () => {
    const server = await serve("failures.ndjson");
    const client = cohere(server.url);
    const limited = await client.chat({ model, messages: [{ role: "user", content: "first" }] }).catch((error: unknown) => error);
    expect(limited).toBeInstanceOf(Cohere.TooManyRequestsError);
    expect(limited).toMatchObject({
      statusCode: 429,
      body: { id: "7a1f3e9c-52b8-4d06-9e4a-c08d2b6f1735", message: expect.stringContaining("You are using a Trial key") },
    });
    const crashed = await client.chatStream({ model, messages: [{ role: "user", content: "second" }] }).catch((error: unknown) => error);
    expect(crashed).toBeInstanceOf(Cohere.InternalServerError);
    expect(crashed).toMatchObject({ statusCode: 500, body: { message: expect.stringContaining("internal server error") } });
    expect(server.status()).toMatchObject({ remaining: 0, mismatches: [] });
  });

  it("answers an unexpected request 400 replay_mismatch with a diff, and keeps the expectation for the right one", async () => {
    const server = await serve("non-streaming.ndjson");
    const ask = (content: string) => cohere(server.url).chat({ model, messages: [{ role: "user", content }] });
    const mismatch = await ask("Name this chat").catch((error: unknown) => error);
    const diff = 'body.messages[0].content: expected "Name this thread", got "Name this chat"';
    expect(mismatch).toBeInstanceOf(Cohere.BadRequestError);
    expect(mismatch).toMatchObject({
      statusCode: 400,
      body: {
        error: {
          type: "replay_mismatch",
          line: 3,
          diff,
          message: expect.stringMatching(/^replay-agent could not replay POST \/v2\/chat \(last user message: "Name this chat"\): /),
        },
      },
    });
    expect(server.status()).toMatchObject({ played: 0, remaining: 2, mismatches: [{ expectedLine: 3, diff }] });

    const answer = await ask("Name this thread");
    expect(answer.message.content).toEqual([{ type: "text", text: "Math helpers tour" }]);
    expect(answer.usage?.billedUnits).toEqual({ inputTokens: 5, outputTokens: 3 });
    expect(server.status()).toMatchObject({ played: 2, remaining: 0 });
  });

  const head = [
    '{"type":"meta","format":"replay-transcript","version":1,"provider":"cohere","model":"command-a-03-2025"}',
    '{"type":"expect_outbound","request":{"method":"POST","path":"/v2/chat","body":{"stream":true}}}',
  ];
  const event = (data: Record<string, unknown>, name: unknown = data["type"]) =>
    JSON.stringify({ type: "emit_inbound", sse: { event: name, data } });
  const start = event({ type: "message-start", id: "5d3c0f2e-8b71-4f0a-9c36-2e7a41b9d805", delta: { message: { role: "assistant" } } });
  const contentStart = event({ type: "content-start", index: 0, delta: { message: { content: { type: "text", text: "" } } } });
  const delta = event({ type: "content-delta", index: 0, delta: { message: { content: { text: "Hi" } } } });
  const contentEnd = event({ type: "content-end", index: 0 });
  const end = event({ type: "message-end", delta: { finish_reason: "COMPLETE" } });
  it.each([
    [
      "[DONE] in place of message-end",
      [start, contentStart, delta, contentEnd, '{"type":"emit_inbound","sse":{"data":"[DONE]"}}'],
      7,
      "[DONE] in a Cohere stream",
      "end the stream with",
    ],
    [
      "a stream that starts with a delta",
      [delta, end],
      3,
      "the stream starts with content-delta, not message-start",
      "Start it with the message-start event",
    ],
    [
      "a delta of no open block",
      [start, delta, end],
      4,
      "content-delta for index 0 while nothing is open",
      "Open the content with content-start",
    ],
    [
      "message-end in an open block",
      [start, contentStart, delta, end],
      6,
      "message-end while content 0 is open",
      "Close it with content-end first",
    ],
    [
      "an event named apart from its type",
      [start, event({ type: "content-start", index: 0 }, "content-delta")],
      4,
      'the event name "content-delta" differs',
      '"event":"content-start"',
    ],
    ["an event without a type", [start, event({ index: 0 }, "content-delta")], 4, 'a Cohere event without a string "type"', '"type"'],
    [
      "a stream without message-end",
      [start, contentStart, delta, contentEnd],
      6,
      "the stream answering line 2 ends without message-end",
      "End it with",
    ],
    ["a frame after message-end", [start, end, delta], 5, "sse frame after message-end (line 4)", "Remove it"],
  ])("check rejects %s, naming its line and the fix", async (_name, answer, number, problem, fix) => {
    const error = await Effect.runPromise(Effect.flip(validateTranscript("bad.ndjson", [...head, ...answer].join("\n"))));
    expect(error).toBeInstanceOf(TranscriptError);
    expect(error.line).toBe(number);
    expect(error.problem).toContain(problem);
    expect(error.fix).toContain(fix);
  });
});

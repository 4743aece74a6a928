import * as Effect from "effect/Effect";
import { describe, expect, it, onTestFinished } from "vitest";
import { formatTranscriptSummary } from "../cli/format.ts";
import { writeVariant, type Line } from "../fixtures/variant.ts";
import { startReplayServer, summarizeTranscript, validateTranscript } from "../index.ts";

const line = (value: Line) => value;
const meta = line({ type: "meta", format: "replay-transcript", version: 1, provider: "openai-chat" });
const expectOutbound = (content: string, fields: object = {}) =>
  line({
    type: "expect_outbound",
    ...fields,
    request: { method: "POST", path: "/v1/chat/completions", body: { messages: { $last: { content } } } },
  });
const reply = (content: string) =>
  line({
    type: "emit_inbound",
    response: {
      status: 200,
      body: {
        id: "chatcmpl-1",
        object: "chat.completion",
        created: 1,
        model: "gpt-4o-mini",
        choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
      },
    },
  });
const chunk = (content: string) =>
  line({
    type: "emit_inbound",
    sse: {
      data: {
        id: "chatcmpl-2",
        object: "chat.completion.chunk",
        created: 1,
        model: "gpt-4o-mini",
        choices: [{ index: 0, delta: { content }, finish_reason: null }],
      },
    },
  });
const done = line({ type: "emit_inbound", sse: { data: "[DONE]" } });
const mark = (name: string) => line({ type: "mark", name });
const wait = (name: string) => line({ type: "wait", for: name });
const hold = line({ type: "hold" });

const serveLines = async (lines: ReadonlyArray<Line>) => {
  const server = await startReplayServer({ transcript: await writeVariant([meta, ...lines]) });
  onTestFinished(() => server.close());
  return server;
};

const post = (url: string, content: string, signal?: AbortSignal) =>
  fetch(`${url}/v1/chat/completions`, {
    method: "POST",
    body: JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content }] }),
    ...(signal === undefined ? {} : { signal }),
  });

/** Sends `content` as a non-streamed request; resolves with the reply's text, or the replay's mismatch diff. */
const ask = async (url: string, content: string) => {
  const body = (await (await post(url, content)).json()) as { choices?: Array<{ message: { content: string } }>; error?: { diff: string } };
  return body.choices?.[0]?.message.content ?? `mismatch: ${body.error?.diff ?? "?"}`;
};

/** Reads a streamed answer as text as it arrives: `until` resolves once the text holds `part`, `all` with the whole text once the stream ends. */
const readStream = async (response: Promise<Response>) => {
  const reader = (await response).body?.getReader();
  if (reader === undefined) throw new Error("the answer has no body");
  const decoder = new TextDecoder();
  let text = "";
  const until = async (ended: (next: ReadableStreamReadResult<Uint8Array>) => boolean) => {
    for (;;) {
      const next = await reader.read();
      if (next.value !== undefined) text += decoder.decode(next.value, { stream: true });
      if (ended(next)) return text;
    }
  };
  return {
    until: (part: string) => until((next) => next.done || text.includes(part)),
    all: () => until((next) => next.done),
  };
};

describe("ordering lanes with mark and wait", () => {
  it("holds an answer at a wait until another lane reaches the mark, while that lane goes on", async () => {
    const server = await serveLines([
      expectOutbound("a"),
      line({ type: "pause", name: "a-started" }),
      wait("b-answered"),
      reply("A"),
      expectOutbound("b", { lane: "b" }),
      reply("B"),
      line({ type: "pause", name: "b-answered" }),
      mark("b-answered"),
    ]);
    let answeredA = false;
    const a = ask(server.url, "a").then((text) => {
      answeredA = true;
      return text;
    });
    await server.paused("a-started");
    server.resume("a-started");
    expect(server.status().next).toEqual({ line: 4, type: "wait", summary: "wait for b-answered" });
    expect(await ask(server.url, "b")).toBe("B");
    await server.paused("b-answered");
    expect({ answeredA, next: server.status().next }).toEqual({
      answeredA: false,
      next: { line: 4, type: "wait", summary: "wait for b-answered" },
    });
    server.resume("b-answered");
    expect(await a).toBe("A");
    expect(server.status()).toMatchObject({ remaining: 0, mismatches: [], next: null });
  });

  it.each([
    {
      name: "a wait for a mark another lane already reached passes at once",
      lines: [expectOutbound("b", { lane: "b" }), mark("m"), reply("B"), expectOutbound("a"), wait("m"), reply("A")],
      sent: ["b", "a"],
      answers: ["B", "A"],
    },
    {
      name: "a wait for a mark reached earlier in its own lane passes at once",
      lines: [expectOutbound("a"), reply("A"), mark("m"), expectOutbound("b"), wait("m"), reply("B")],
      sent: ["a", "b"],
      answers: ["A", "B"],
    },
    {
      name: "a mark stays reached: every later play of a repeated expectation passes its wait",
      lines: [expectOutbound("b", { lane: "b" }), mark("m"), reply("B"), expectOutbound("a", { times: 2 }), wait("m"), reply("A")],
      sent: ["b", "a", "a"],
      answers: ["B", "A", "A"],
    },
  ])("$name", async ({ lines, sent, answers }) => {
    const server = await serveLines(lines);
    const got: Array<string> = [];
    for (const content of sent) got.push(await ask(server.url, content));
    expect(got).toEqual(answers);
    expect(server.status()).toMatchObject({ remaining: 0, mismatches: [] });
  });
});

describe("keeping an answer open with hold", () => {
  it("counts a held stream as played, answers other lanes meanwhile, and plays its lane's next answer once the app closes it", async () => {
    const server = await serveLines([
      expectOutbound("events", { lane: "events" }),
      chunk("first"),
      mark("streamed"),
      hold,
      expectOutbound("events", { lane: "events" }),
      chunk("again"),
      done,
      expectOutbound("a"),
      wait("streamed"),
      reply("A"),
    ]);
    const app = new AbortController();
    const first = await readStream(post(server.url, "events", app.signal));
    expect(await first.until('"first"')).toContain('"content":"first"');
    expect(await ask(server.url, "a")).toBe("A");
    expect(server.status()).toMatchObject({
      remaining: 3,
      next: { line: 6, type: "expect_outbound" },
      mismatches: [],
    });
    const reconnect = post(server.url, "events");
    app.abort();
    const again = await (await readStream(reconnect)).all();
    expect(again).toContain('"content":"again"');
    expect(again.endsWith("data: [DONE]\n\n")).toBe(true);
    expect(server.status()).toMatchObject({ remaining: 0, mismatches: [], next: null });
  });

  it("ends a held stream when the replay agent stops", async () => {
    const server = await serveLines([expectOutbound("events"), chunk("first"), hold]);
    const stream = await readStream(post(server.url, "events"));
    await stream.until('"first"');
    await server.close();
    expect(await stream.all()).toMatch(/"content":"first".*\n\n$/);
  });
});

describe("checking marks, waits and holds", () => {
  it.each([
    {
      name: "a wait for a mark no line sets",
      lines: [expectOutbound("a"), wait("answered"), reply("A"), mark("typed"), expectOutbound("b"), reply("B")],
      message:
        'bad.ndjson:3: wait for mark "answered", but no line of the transcript sets that mark. Add {"type":"mark","name":"answered"} where the wait may go on, or wait for a mark the transcript sets: "typed" (line 5)',
    },
    {
      name: "a wait for a mark only a later answer of its own lane sets",
      lines: [expectOutbound("a"), wait("b"), reply("A"), expectOutbound("b"), mark("b"), reply("B")],
      message:
        'bad.ndjson:3: wait for mark "b" never passes: line 6 sets it, but comes after this wait in lane "main", whose lines play one after another. Set the mark where it plays before this wait: in another lane ("lane" on the expect_outbound), or above the wait in its own answer',
    },
    {
      name: "two lanes waiting on each other",
      lines: [
        expectOutbound("a"),
        wait("b-started"),
        mark("a-started"),
        reply("A"),
        expectOutbound("b", { lane: "b" }),
        wait("a-started"),
        mark("b-started"),
        reply("B"),
      ],
      message:
        'bad.ndjson:3: wait for mark "b-started" never passes: line 8 sets it, but lane "b" never gets past line 7 (wait for "a-started"). Set the mark where it plays before this wait: in another lane ("lane" on the expect_outbound), or above the wait in its own answer',
    },
    {
      name: "a line after a hold in its answer",
      lines: [expectOutbound("a"), chunk("first"), hold, done],
      message:
        "bad.ndjson:5: emit_inbound after the hold at line 4: a held answer stays open and plays nothing more. Move the hold to the end of its answer, or start the next request with an expect_outbound line above this one",
    },
    {
      name: "a hold after the stream ended",
      lines: [expectOutbound("a"), chunk("first"), done, hold],
      message:
        "bad.ndjson:5: hold after [DONE]: the stream has already ended. Remove the hold, or move it before [DONE] to keep the stream open",
    },
    {
      name: "a hold after a whole response",
      lines: [expectOutbound("a"), reply("A"), hold],
      message:
        "bad.ndjson:4: hold after the answer to line 2 was complete (response at line 3). Start the next request with an expect_outbound line above it, or remove it",
    },
  ])("rejects $name, naming the line", async ({ lines, message }) => {
    const text = [meta, ...lines].map((value) => JSON.stringify(value)).join("\n");
    const error = await Effect.runPromise(Effect.flip(validateTranscript("bad.ndjson", text)));
    expect(error.message).toBe(message);
  });

  it("rejects a hold in a stdio transcript: the agent keeps talking until it exits", async () => {
    const stdio = { type: "meta", format: "replay-transcript", version: 1, provider: "jsonrpc-stdio" };
    const lines = [stdio, { type: "expect_outbound", message: { jsonrpc: "2.0", id: 0, method: "initialize" } }, hold];
    const error = await Effect.runPromise(
      Effect.flip(validateTranscript("bad.ndjson", lines.map((value) => JSON.stringify(value)).join("\n"))),
    );
    expect(error.message).toContain("bad.ndjson:3: hold keeps an answer's connection open, and a stdio agent's answers have none");
  });

  it("lists the marks, who waits for them, and the holds in check's summary", async () => {
    const lines = [
      meta,
      expectOutbound("events", { lane: "events" }),
      chunk("first"),
      mark("streamed"),
      hold,
      expectOutbound("a"),
      wait("streamed"),
      reply("A"),
    ];
    const transcript = await Effect.runPromise(validateTranscript("ok.ndjson", lines.map((value) => JSON.stringify(value)).join("\n")));
    expect(formatTranscriptSummary("ok.ndjson", summarizeTranscript(transcript)).split("\n").slice(-3)).toEqual([
      "  lanes:    events (1 request), main (1 request)",
      "  marks:    streamed (line 4, awaited at line 7)",
      "  holds:    line 5",
    ]);
  });
});

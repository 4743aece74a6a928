import type { Event } from "@opencode-ai/sdk";
import * as Effect from "effect/Effect";
import { describe, expect, it, onTestFinished } from "vitest";
import { fixture } from "../fixtures/fixture.ts";
import { writeNew } from "../fixtures/new-file.ts";
import { openSession, textDeltas } from "../fixtures/opencode-app.ts";
import { startReplayServer, validateTranscript } from "../index.ts";

const serve = async (name: string) => {
  const server = await startReplayServer({ transcript: fixture(`opencode/${name}`) });
  onTestFinished(() => server.close());
  return server;
};

describe("opencode, read by @opencode-ai/sdk", () => {
  it("delivers a prompt's part updates and session.idle on the event stream before the prompt's response, then keeps the stream open (hold) with the transcript fully played until the agent stops", async () => {
    const server = await serve("prompt-race.ndjson");
    const opened = await openSession(server.url);
    const prompt = await opened.answered(
      "session.prompt",
      opened.client.session.prompt({
        path: { id: opened.id },
        body: { parts: [{ type: "text", text: "What does src/math.ts export?" }] },
      }),
    );
    expect(opened.log).toEqual([
      "server.connected",
      "session.created",
      "session.updated",
      "← session.create",
      "message.updated",
      "message.part.updated",
      "session.status",
      "message.updated",
      ...Array<string>(8).fill("message.part.updated"),
      "message.updated",
      "session.status",
      "session.idle",
      "← session.prompt",
    ]);
    expect(opened.id).toBe("ses_5265becf3ffeR7uQ2mWn9KxLpA");
    expect(textDeltas(opened.events).join("")).toBe("It exports `add` and `multiply`.");
    expect(prompt.data?.info).toMatchObject({ role: "assistant", finish: "stop", tokens: { input: 2311, output: 14 } });
    expect(prompt.data?.parts.map((part) => (part.type === "text" ? part.text : part.type))).toEqual([
      "step-start",
      "It exports `add` and `multiply`.",
      "step-finish",
    ]);
    expect(server.status()).toMatchObject({ remaining: 0, mismatches: [], next: null, held: [] });
    expect(opened.ended()).toBe(false);

    await server.close();
    await opened.reading;
    expect({ last: opened.log.at(-1), sseErrors: opened.sseErrors }).toEqual({ last: "← session.prompt", sseErrors: [] });
  });

  it("delivers an aborted session's terminal events on the event stream before the abort's response", async () => {
    const server = await serve("abort-race.ndjson");
    const opened = await openSession(server.url);
    const accepted = await opened.client.session.promptAsync({
      path: { id: opened.id },
      body: { parts: [{ type: "text", text: "Rewrite src/math.ts to use BigInt" }] },
    });
    expect(accepted.response.status).toBe(204);
    await opened.seen((event) => event.type === "message.part.updated" && event.properties.delta === " first.");
    const before = opened.log.length;
    const aborted = await opened.answered("session.abort", opened.client.session.abort({ path: { id: opened.id } }));
    expect(aborted.data).toBe(true);
    expect(opened.log.slice(before)).toEqual(["message.updated", "session.error", "session.status", "session.idle", "← session.abort"]);
    const [message, error] = opened.events.slice(-4);
    expect(message?.type === "message.updated" && message.properties.info.role === "assistant" && message.properties.info.error).toEqual({
      name: "MessageAbortedError",
      data: { message: "The operation was aborted." },
    });
    expect(error).toMatchObject({ type: "session.error", properties: { error: { name: "MessageAbortedError" } } });
    expect(textDeltas(opened.events).join("")).toBe("Let me read `src/math.ts` first.");
    expect(server.status()).toMatchObject({ remaining: 0, mismatches: [], next: null });
  });

  it("answers a prompt the transcript did not expect 400 replay_mismatch with the diff, which the SDK hands back as the error", async () => {
    const server = await serve("prompt-race.ndjson");
    const opened = await openSession(server.url);
    const prompt = await opened.client.session.prompt({
      path: { id: opened.id },
      body: { parts: [{ type: "text", text: "What does src/index.ts export?" }] },
    });
    const diff = 'body.parts[0].text: expected "What does src/math.ts export?", got "What does src/index.ts export?"';
    expect(prompt.response.status).toBe(400);
    expect(prompt.error).toMatchObject({ error: { type: "replay_mismatch", line: 35, diff } });
    expect(server.status()).toMatchObject({ mismatches: [{ expectedLine: 35, diff }], next: { line: 13, type: "wait" } });
  });
});

/** A description written to a transcript by `replay-agent new`'s writer and served by the real replay agent. */
const serveNew = async (description: unknown) => {
  const { file } = await writeNew(description);
  const server = await startReplayServer({ transcript: file });
  onTestFinished(() => server.close());
  return server;
};

/** The deltas of the parts of one type (text or reasoning), as the app reads them. */
const partDeltas = (events: ReadonlyArray<Event>, type: "text" | "reasoning") =>
  events.flatMap((event) =>
    event.type === "message.part.updated" && event.properties.part.type === type && event.properties.delta !== undefined
      ? [event.properties.delta]
      : [],
  );

/** Each state a tool part went through, as the app reads it: `read pending`, `read completed: <output>`. */
const toolStates = (events: ReadonlyArray<Event>) =>
  events.flatMap((event) => {
    if (event.type !== "message.part.updated" || event.properties.part.type !== "tool") return [];
    const { tool, state } = event.properties.part;
    return [state.status === "completed" ? `${tool} completed: ${state.output}` : `${tool} ${state.status}`];
  });

/** A prompt's events as the app reads them: its user message and text part, the steps, then the session idle and the prompt's response. */
const promptLog = (...steps: ReadonlyArray<string>) => [
  "message.updated",
  "message.part.updated",
  ...steps,
  "session.status",
  "session.idle",
  "← session.prompt",
];

/** A step's events: the session busy, the assistant message, its `parts` part updates, the message completed. */
const stepLog = (parts: number) => [
  "session.status",
  "message.updated",
  ...Array<string>(parts).fill("message.part.updated"),
  "message.updated",
];

describe("opencode, written by replay-agent new and read by @opencode-ai/sdk", () => {
  it.each([
    {
      name: "a reply, on the model the prompt names",
      description: {
        provider: "opencode",
        model: "openai/gpt-5",
        turns: [{ user: "What does src/math.ts export?", reply: "It exports `add` and `multiply`." }],
      },
      model: { providerID: "openai", modelID: "gpt-5" },
      pause: undefined,
      // step-start, the text part empty, its 9 deltas, the text part ended, step-finish
      log: promptLog(...stepLog(13)),
      text: "It exports `add` and `multiply`.",
      answers: ["It exports `add` and `multiply`."],
      reasoning: "",
      tools: [],
      finishes: ["stop"],
    },
    {
      name: "thinking and a tool call that OpenCode runs, then the reply held at a pause",
      description: {
        provider: "opencode",
        turns: [
          {
            user: "Summarize src/math.ts",
            thinking: "The user wants a summary.",
            reply: "Let me read it.",
            tools: [{ name: "read", arguments: { filePath: "src/math.ts" }, result: "export const add = (a, b) => a + b;" }],
          },
          { reply: "It adds two numbers.", pause: "answering@2" },
        ],
      },
      model: undefined,
      // held after the reply's second delta, " adds"
      pause: { name: "answering", after: " adds" },
      // step-start, the reasoning part (empty, 6 deltas, ended), the text part (empty, 5 deltas, ended), the tool part (pending,
      // running, completed), step-finish; then step-start, the text part (empty, 5 deltas, ended), step-finish
      log: promptLog(...stepLog(20), ...stepLog(9)),
      text: "Let me read it.It adds two numbers.",
      answers: ["It adds two numbers."],
      reasoning: "The user wants a summary.",
      tools: ["read pending", "read running", "read completed: export const add = (a, b) => a + b;"],
      finishes: ["tool-calls", "stop"],
    },
    {
      name: "two prompts in one session, the second answered after a tool call with the description's call id",
      description: {
        provider: "opencode",
        turns: [
          { user: "Hi", reply: "Hello!" },
          { user: "What is in src?", tools: [{ name: "list", arguments: { path: "src" }, result: "math.ts", id: "call_list_src" }] },
          { reply: "One file: math.ts." },
        ],
      },
      model: undefined,
      pause: undefined,
      // step-start, the text part (empty, 2 deltas, ended), step-finish; then step-start, the tool part (pending, running, completed),
      // step-finish; then step-start, the text part (empty, 6 deltas, ended), step-finish
      log: [...promptLog(...stepLog(6)), ...promptLog(...stepLog(5), ...stepLog(10))],
      text: "Hello!One file: math.ts.",
      answers: ["Hello!", "One file: math.ts."],
      reasoning: "",
      tools: ["list pending", "list running", "list completed: math.ts"],
      finishes: ["stop", "tool-calls", "stop"],
    },
  ])("$name: each answer streams on the event stream down to session.idle before session.prompt() resolves", async (row) => {
    const server = await serveNew(row.description);
    const opened = await openSession(server.url);
    const users = row.description.turns.flatMap((turn) => (turn.user === undefined ? [] : [turn.user]));
    const responses = [];
    for (const user of users) {
      const prompting = opened.answered(
        "session.prompt",
        opened.client.session.prompt({
          path: { id: opened.id },
          body: { ...(row.model === undefined ? {} : { model: row.model }), parts: [{ type: "text", text: user }] },
        }),
      );
      if (row.pause !== undefined) {
        const { name, after } = row.pause;
        await server.paused(name);
        // As a scenario does: resume once the app has read the delta before the pause.
        await opened.seen((event) => event.type === "message.part.updated" && event.properties.delta === after);
        expect(server.status()).toMatchObject({ held: [{ name }], mismatches: [] });
        expect(opened.log).not.toContain("session.idle");
        server.resume();
      }
      responses.push((await prompting).data);
    }
    expect(opened.log).toEqual(["server.connected", "session.created", "session.updated", "← session.create", ...row.log]);
    expect(partDeltas(opened.events, "text").join("")).toBe(row.text);
    expect(partDeltas(opened.events, "reasoning").join("")).toBe(row.reasoning);
    expect(toolStates(opened.events)).toEqual(row.tools);
    const finishes = opened.events.flatMap((event) =>
      event.type === "message.updated" && event.properties.info.role === "assistant" && event.properties.info.finish !== undefined
        ? [event.properties.info.finish]
        : [],
    );
    expect(finishes).toEqual(row.finishes);
    expect(responses.map((response) => response?.info)).toEqual(
      row.answers.map(() => expect.objectContaining({ role: "assistant", finish: "stop", sessionID: opened.id })),
    );
    expect(responses.map((response) => response?.parts.map((part) => (part.type === "text" ? part.text : part.type)))).toEqual(
      row.answers.map((answer) => ["step-start", answer, "step-finish"]),
    );
    expect(server.status()).toMatchObject({ remaining: 0, mismatches: [], next: null, held: [] });
  });
});

const meta = { type: "meta", format: "replay-transcript", version: 1, provider: "opencode" };
const subscribe = (path = "/event") => ({ type: "expect_outbound", request: { method: "GET", path } });
const event = (data: unknown, fields: object = {}) => ({ type: "emit_inbound", sse: { data, ...fields } });
const connected = event({ type: "server.connected", properties: {} });
const idle = event({ type: "session.idle", properties: { sessionID: "ses_5265becf3ffeR7uQ2mWn9KxLpA" } });
const hold = { type: "hold" };
const checked = (lines: ReadonlyArray<object>) =>
  Effect.runPromise(
    validateTranscript("events.ndjson", [meta, ...lines].map((line) => JSON.stringify(line)).join("\n")).pipe(
      Effect.match({ onSuccess: () => "valid", onFailure: (error) => error.message }),
    ),
  );

describe("opencode framing, as check enforces it", () => {
  it.each([
    { name: "an event stream held open after its events", lines: [subscribe(), connected, idle, hold], verdict: "valid" },
    {
      name: "the global stream, each event in a payload",
      lines: [subscribe("/global/event"), event({ payload: { type: "server.connected", properties: {} } }), hold],
      verdict: "valid",
    },
    {
      name: "a named event",
      lines: [subscribe(), connected, { ...idle, sse: { event: "session.idle", data: idle.sse.data } }],
      verdict:
        'events.ndjson:4: an event named "session.idle": OpenCode\'s server writes data-only events, their type inside the data, and the SDK drops the name. Remove "event"; the type belongs in the data. Write the event as the server sent it, like {"sse":{"data":{"type":"session.idle","properties":{"sessionID":"ses_…"}}}}',
    },
    {
      name: "[DONE]",
      lines: [subscribe(), connected, idle, event("[DONE]")],
      verdict:
        'events.ndjson:5: "[DONE]": OpenCode\'s event stream has no terminator, and the SDK would hand the app the string "[DONE]" as an event. Remove it. To keep the stream open as the server does, end the answer with {"type":"hold"}',
    },
    {
      name: "an event without properties",
      lines: [subscribe(), connected, event({ type: "session.idle", sessionID: "ses_5265becf3ffeR7uQ2mWn9KxLpA" })],
      verdict:
        'events.ndjson:4: not an OpenCode event: "properties" must be an object (OpenCode sends {} when an event has none), in session.idle. Write the event as the server sent it, like {"sse":{"data":{"type":"session.idle","properties":{"sessionID":"ses_…"}}}}',
    },
    {
      name: "a stream that does not start with server.connected",
      lines: [subscribe(), idle, hold],
      verdict:
        'events.ndjson:3: the event stream starts with session.idle, but OpenCode\'s server writes server.connected first, as soon as the app subscribes. Add the first event above it: {"type":"emit_inbound","sse":{"data":{"type":"server.connected","properties":{}}}}',
    },
    {
      name: "an event after the instance was disposed",
      lines: [
        subscribe(),
        connected,
        event({ type: "server.instance.disposed", properties: { directory: "/home/dev/math-helpers" } }),
        idle,
      ],
      verdict:
        "events.ndjson:5: sse frame after server.instance.disposed (line 4). Remove it, or start the next request with an expect_outbound line above it",
    },
    {
      name: "a global event without its payload",
      lines: [subscribe("/global/event"), event({ type: "server.connected", properties: {} })],
      verdict:
        'events.ndjson:3: not an OpenCode event: a global event needs "payload": the instance event it carries. Write the event as the server sent it, like {"sse":{"data":{"directory":"/home/dev/app","payload":{"type":"session.idle","properties":{"sessionID":"ses_…"}}}}}',
    },
  ])("$name", async ({ lines, verdict }) => {
    expect(await checked(lines)).toBe(verdict);
  });
});

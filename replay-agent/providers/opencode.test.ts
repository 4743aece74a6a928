import * as Effect from "effect/Effect";
import { describe, expect, it, onTestFinished } from "vitest";
import { fixture } from "../fixtures/fixture.ts";
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

import { connect, type NetConnectOpts, type Socket } from "node:net";
import * as Effect from "effect/Effect";
import OpenAI from "openai";
import type { ConversationItemCreateEvent, RealtimeServerEvent, SessionUpdateEvent } from "openai/resources/realtime/realtime";
import { OpenAIRealtimeWS } from "openai/realtime/ws";
import { describe, expect, it, onTestFinished } from "vitest";
import { fixture } from "../fixtures/fixture.ts";
import { writeNew } from "../fixtures/new-file.ts";
import { startReplayServer, validateTranscript, type ReplayServer } from "../index.ts";

const startServer = async (name: string) => {
  const server = await startReplayServer({ transcript: fixture(`openai-realtime/${name}`) });
  onTestFinished(() => server.close());
  return server;
};

/** ws's `createConnection` for the client's wss:// URL: plain TCP to the host and port ws names, as it connects a ws:// URL. */
const plainTcp = (options: NetConnectOpts | number | string): Socket => {
  if (typeof options !== "object" || !("port" in options))
    throw new Error(`ws connects with host and port options, got ${String(options)}`);
  return connect({ host: options.host, port: options.port });
};

/**
 * The app's side: the official realtime client on the replay agent's base URL. OpenAIRealtimeWS
 * always dials wss://, so it is given a plain TCP connection to the same host and port.
 */
const openSession = (server: ReplayServer, model = "gpt-realtime") => {
  const client = new OpenAI({ apiKey: "replay", baseURL: `${server.url}/v1` });
  const rt = new OpenAIRealtimeWS({ model, options: { createConnection: plainTcp } }, client);
  const events: Array<RealtimeServerEvent> = [];
  const deltas: Array<string> = [];
  let deltaArrived = (_count: number) => {};
  rt.on("event", (event) => {
    events.push(event);
    if (event.type === "response.output_text.delta") deltaArrived(deltas.push(event.delta));
  });
  const closed = new Promise<number>((resolve) => rt.socket.once("close", (code) => resolve(code)));
  onTestFinished(async () => {
    rt.close();
    await closed;
  });
  /** Resolves once `count` text deltas have arrived. */
  const deltasArrived = (count: number) =>
    new Promise<void>((resolve) => {
      deltaArrived = (received) => received === count && resolve();
    });
  return { rt, events, deltas, closed, deltasArrived, types: () => events.map((event) => event.type) };
};

const question: ConversationItemCreateEvent = {
  type: "conversation.item.create",
  item: { type: "message", role: "user", content: [{ type: "input_text", text: "What is in this project?" }] },
};
const textSession: SessionUpdateEvent = {
  type: "session.update",
  session: { type: "realtime", output_modalities: ["text"], instructions: "Answer in one short sentence." },
};

describe("openai-realtime, served to the official OpenAIRealtimeWS client", () => {
  it("opens a session, answers session.update, and streams a response held at a pause", async () => {
    const server = await startServer("text-turn.ndjson");
    const session = openSession(server);
    const created = await session.rt.emitted("session.created");
    expect(created.session).toMatchObject({ type: "realtime", id: "sess_CZLm8lLt9IRzGa3lXmtxp", output_modalities: ["audio"] });
    session.rt.send(textSession);
    expect((await session.rt.emitted("session.updated")).session).toMatchObject({ output_modalities: ["text"] });
    session.rt.send(question);
    const twoDeltas = session.deltasArrived(2);
    session.rt.send({ type: "response.create" });
    await server.paused("mid-response");
    await twoDeltas;
    expect(session.deltas).toEqual(["This", " project"]);
    expect(session.types().at(-1)).toBe("response.output_text.delta");
    expect(server.status()).toMatchObject({ paused: "mid-response", held: [{ name: "mid-response", line: 17 }] });
    const done = session.rt.emitted("response.done");
    server.resume();
    const { response } = await done;
    expect(session.deltas.join("")).toBe("This project has two files.");
    expect(response).toMatchObject({
      status: "completed",
      output: [{ role: "assistant", content: [{ type: "output_text", text: "This project has two files." }] }],
    });
    expect(session.types()).toEqual([
      "session.created",
      "session.updated",
      "conversation.item.added",
      "conversation.item.done",
      "response.created",
      "response.output_item.added",
      "conversation.item.added",
      "response.content_part.added",
      "response.output_text.delta",
      "response.output_text.delta",
      "response.output_text.delta",
      "response.output_text.delta",
      "response.output_text.done",
      "response.content_part.done",
      "response.output_item.done",
      "conversation.item.done",
      "response.done",
    ]);
    expect(server.status()).toMatchObject({ played: 22, remaining: 0, paused: null, mismatches: [] });
    expect(server.requests().map(({ method, path, body, matched, line }) => ({ method, path, body, matched, line }))).toEqual([
      { method: "GET", path: "/v1/realtime?model=gpt-realtime", body: undefined, matched: true, line: 3 },
      { method: "MESSAGE", path: "/v1/realtime?model=gpt-realtime", body: textSession, matched: true, line: 5 },
      { method: "MESSAGE", path: "/v1/realtime?model=gpt-realtime", body: question, matched: true, line: 7 },
      { method: "MESSAGE", path: "/v1/realtime?model=gpt-realtime", body: { type: "response.create" }, matched: true, line: 10 },
    ]);
  });

  it("drops the connection at a disconnect: the client sees the deltas before it, then a close with 1006", async () => {
    const server = await startServer("dropped-session.ndjson");
    const session = openSession(server);
    await session.rt.emitted("session.created");
    session.rt.send({
      type: "conversation.item.create",
      item: { type: "message", role: "user", content: [{ type: "input_text", text: "Summarize the README." }] },
    });
    session.rt.send({ type: "response.create" });
    expect(await session.closed).toBe(1006);
    expect(session.deltas).toEqual(["The", " README"]);
    expect(session.types()).not.toContain("response.done");
    expect(server.status()).toMatchObject({ remaining: 0, mismatches: [] });
  });

  it("plays what replay-agent new writes: a function call, its output sent back, and the answer held at a pause", async () => {
    const { file } = await writeNew({
      provider: "openai-realtime",
      turns: [
        { user: "What is in src?", tools: [{ name: "list_files", arguments: { path: "src" }, result: "math.ts" }] },
        { reply: "There is one file in src: math.ts.", pause: "mid-answer@2" },
      ],
    });
    const server = await startReplayServer({ transcript: file });
    onTestFinished(() => server.close());
    const session = openSession(server);
    expect((await session.rt.emitted("session.created")).session).toMatchObject({ model: "gpt-realtime-2025-08-28" });
    session.rt.send({ type: "session.update", session: { type: "realtime", output_modalities: ["text"] } });
    await session.rt.emitted("session.updated");
    session.rt.send({
      type: "conversation.item.create",
      item: { type: "message", role: "user", content: [{ type: "input_text", text: "What is in src?" }] },
    });
    const call = session.rt.emitted("response.function_call_arguments.done");
    const called = session.rt.emitted("response.done");
    session.rt.send({ type: "response.create" });
    const { name, arguments: args, call_id } = await call;
    expect({ name, args: JSON.parse(args) }).toEqual({ name: "list_files", args: { path: "src" } });
    expect((await called).response.output).toEqual([expect.objectContaining({ type: "function_call", call_id, status: "completed" })]);

    session.rt.send({ type: "conversation.item.create", item: { type: "function_call_output", call_id, output: "math.ts" } });
    const twoDeltas = session.deltasArrived(2);
    session.rt.send({ type: "response.create" });
    await server.paused("mid-answer");
    await twoDeltas;
    expect(session.deltas).toEqual(["There", " is"]);
    const done = session.rt.emitted("response.done");
    server.resume();
    expect((await done).response).toMatchObject({ status: "completed", usage: { output_tokens: expect.any(Number) } });
    expect(session.deltas.join("")).toBe("There is one file in src: math.ts.");
    expect(server.status()).toMatchObject({ remaining: 0, mismatches: [] });
  });

  it("answers a message it did not expect with an error event, lists it in status, and keeps the session open", async () => {
    const server = await startServer("text-turn.ndjson");
    const session = openSession(server);
    await session.rt.emitted("session.created");
    const audioSession: SessionUpdateEvent = {
      type: "session.update",
      session: { type: "realtime", output_modalities: ["audio"], instructions: "Answer in one short sentence." },
    };
    const rejected = session.rt.emitted("error");
    session.rt.send(audioSession);
    const { error } = await rejected;
    expect(error).toMatchObject({ type: "invalid_request_error", code: "replay_mismatch", param: null, event_id: null });
    expect(error?.message).toContain(`${fixture("openai-realtime/text-turn.ndjson")}:5 (expect_outbound {"type":"session.update"`);
    expect(error?.message).toContain('session.output_modalities[0]: expected "text", got "audio"');
    expect(server.status().mismatches).toMatchObject([
      {
        request: { method: "MESSAGE", path: "/v1/realtime?model=gpt-realtime", body: audioSession },
        expectedLine: 5,
        diff: 'session.output_modalities[0]: expected "text", got "audio"',
      },
    ]);
    expect(server.requests().map(({ method, matched, line }) => [method, matched, line])).toEqual([
      ["GET", true, 3],
      ["MESSAGE", false, null],
    ]);
    session.rt.send(textSession);
    expect((await session.rt.emitted("session.updated")).session).toMatchObject({ output_modalities: ["text"] });
  });

  it.each([
    {
      name: "a fail line",
      transcript: "refused-connection.ndjson",
      model: "gpt-realtime",
      status: 401,
      mismatches: [],
    },
    {
      name: "a connection it did not expect",
      transcript: "text-turn.ndjson",
      model: "gpt-realtime-mini",
      status: 400,
      mismatches: [
        {
          request: { method: "GET", path: "/v1/realtime?model=gpt-realtime-mini", body: undefined },
          expectedLine: 3,
          diff: 'path: expected "/v1/realtime?model=gpt-realtime", got "/v1/realtime?model=gpt-realtime-mini"',
        },
      ],
    },
  ])("refuses the upgrade for $name: the client raises the HTTP status", async ({ transcript, model, status, mismatches }) => {
    const server = await startServer(transcript);
    const session = openSession(server, model);
    const error = await session.rt.emitted("error");
    expect(error.message).toBe(`Unexpected server response: ${status}`);
    expect(await session.closed).toBe(1006);
    expect(server.status().mismatches).toMatchObject(mismatches);
    expect(server.requests()).toMatchObject([{ method: "GET", path: `/v1/realtime?model=${model}`, matched: mismatches.length === 0 }]);
  });

  const meta =
    '{"type":"meta","format":"replay-transcript","version":1,"provider":"openai-realtime","model":"gpt-realtime","source":"handwritten"}';
  const opening = '{"type":"expect_outbound","request":{"method":"GET","path":"/v1/realtime?model=gpt-realtime"}}';
  const created = '{"type":"emit_inbound","message":{"type":"session.created","event_id":"event_C1LhV31FK5ALAa4UsN5IA","session":{}}}';
  it.each([
    {
      lines: [opening, '{"type":"emit_inbound","message":{"type":"session.created","session":{}}}'],
      message:
        'bad.ndjson:3: the session.created event has no string "event_id". Add the server\'s id, like "event_id":"event_CbqyYnuKbPFa2VUJZvBTK"',
    },
    {
      lines: [opening, created, '{"type":"expect_outbound","message":{"type":"conversation.item.created"}}'],
      message: `bad.ndjson:4: "conversation.item.created" is not an event a Realtime client sends, so no message would match it. Use one of session.update, input_audio_buffer.append, input_audio_buffer.commit, input_audio_buffer.clear, output_audio_buffer.clear, conversation.item.create, conversation.item.retrieve, conversation.item.truncate, conversation.item.delete, response.create, response.cancel`,
    },
    {
      lines: [
        opening,
        created,
        '{"type":"expect_outbound","message":{"type":"response.create"}}',
        '{"type":"emit_inbound","message":{"type":"response.output_text.delta","event_id":"event_C1LhV31FK5ALAa4UsN5IB","response_id":"resp_C1","item_id":"item_C1","output_index":0,"content_index":0,"delta":"Hi"}}',
      ],
      message:
        "bad.ndjson:5: the response.output_text.delta event belongs to response resp_C1, which no response.created above it started. Put the response.created event of resp_C1 above it, as the server sends it first",
    },
    {
      lines: [opening, created, '{"type":"fail","status":429,"body":{"error":{"message":"Too many sessions","type":"rate_limit_error"}}}'],
      message:
        "bad.ndjson:4: fail refuses the connection, but the message at line 3 has already opened it. Move the fail above the messages, or end the open connection with a disconnect",
    },
  ])("rejects a transcript that breaks the Realtime framing: $message", async ({ lines, message }) => {
    const error = await Effect.runPromise(Effect.flip(validateTranscript("bad.ndjson", [meta, ...lines].join("\n"))));
    expect(error.message).toBe(message);
  });
});

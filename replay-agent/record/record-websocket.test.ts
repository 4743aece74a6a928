import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer, type IncomingHttpHeaders, type IncomingMessage } from "node:http";
import { connect, type AddressInfo, type NetConnectOpts, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import OpenAI from "openai";
import type { ConversationItemCreateEvent, RealtimeServerEvent, SessionUpdateEvent } from "openai/resources/realtime/realtime";
import { OpenAIRealtimeWS } from "openai/realtime/ws";
import { describe, expect, it, onTestFinished } from "vitest";
import { WebSocket } from "ws";
import { startRecorder } from "../fixtures/cli-process.ts";
import { fixture } from "../fixtures/fixture.ts";
import { fixtureLines, writeVariant } from "../fixtures/variant.ts";
import { startReplayServer } from "../index.ts";

const scratch = async () => {
  const dir = await mkdtemp(join(tmpdir(), "replay-agent-record-ws-"));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return dir;
};

/** The recorder's own key, and the app's, which must never reach the upstream or the recording. */
const recorderKey = "sk-proj-Recorder0Key1Planted2In3Env4";
const appKey = "sk-app-Own0Key1Never2Forwarded3";

/** ws's `createConnection` for the client's wss:// URL: plain TCP to the host and port ws names, as it connects a ws:// URL. */
const plainTcp = (options: NetConnectOpts | number | string): Socket => {
  if (typeof options !== "object" || !("port" in options))
    throw new Error(`ws connects with host and port options, got ${String(options)}`);
  return connect({ host: options.host, port: options.port });
};

/** The app: the official realtime client on `url` as its base URL (with /v1), sending a non-secret OpenAI-Beta header as an app may. */
const openSession = (url: string) => {
  const client = new OpenAI({ apiKey: appKey, baseURL: `${url}/v1` });
  const rt = new OpenAIRealtimeWS(
    { model: "gpt-realtime", options: { createConnection: plainTcp, headers: { "OpenAI-Beta": "realtime=v1" } } },
    client,
  );
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
  return {
    rt,
    deltas,
    closed,
    types: () => events.map((event) => event.type),
    /** Resolves once `count` text deltas have arrived. */
    deltasArrived: (count: number) =>
      new Promise<void>((resolve) => {
        deltaArrived = (received) => received === count && resolve();
      }),
  };
};

/** The app's events; `event_id` is the app's own choice, fresh on every run. */
const textSession = (eventId: string): SessionUpdateEvent => ({
  type: "session.update",
  event_id: eventId,
  session: { type: "realtime", output_modalities: ["text"], instructions: "Answer in one short sentence." },
});
const question = (text: string): ConversationItemCreateEvent => ({
  type: "conversation.item.create",
  item: { type: "message", role: "user", content: [{ type: "input_text", text }] },
});

const readLines = async (file: string) =>
  (await readFile(file, "utf8"))
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);

const textTurnTypes = [
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
];

describe("replay-agent record --provider openai-realtime", () => {
  it("records a Realtime session of the official client as it happens, with the time the server took, and the recording replays to it with the same result", async () => {
    // The upstream takes 150 ms before the first message of each answer, on its own clock.
    const [meta, ...turn] = await fixtureLines("openai-realtime/text-turn.ndjson");
    const upstream = await startReplayServer({
      transcript: await writeVariant([{ ...meta, type: "meta", pace: { firstTokenMs: 150 } }, ...turn]),
    });
    onTestFinished(() => upstream.close());
    const out = join(await scratch(), "realtime.ndjson");
    const recorder = await startRecorder({
      provider: "openai-realtime",
      upstream: upstream.url,
      out,
      env: { OPENAI_API_KEY: recorderKey },
    });

    const recorded = openSession(recorder.url);
    await recorded.rt.emitted("session.created");
    recorded.rt.send(textSession("event_app_1"));
    await recorded.rt.emitted("session.updated");
    recorded.rt.send(question("What is in this project?"));
    const twoDeltas = recorded.deltasArrived(2);
    recorded.rt.send({ type: "response.create" });
    // The upstream holds at its pause: what the app has had is on disk already.
    await upstream.paused("mid-response");
    await twoDeltas;
    expect((await readLines(out)).at(-1)).toMatchObject({ type: "emit_inbound", message: { delta: " project" } });
    const done = recorded.rt.emitted("response.done");
    upstream.resume();
    await done;
    recorded.rt.close();
    expect(await recorded.closed).toBe(1000);
    expect(upstream.status()).toMatchObject({ remaining: 0, mismatches: [] });

    const stopped = await recorder.stop("SIGINT");
    expect(stopped.exitCode).toBe(0);
    expect(stopped.stdout).toContain(
      `replay-agent stopped: recorded 1 connection, 3 messages from the app and 17 from the server to ${out}`,
    );
    expect(stopped.stderr).toBe("");
    const text = await readFile(out, "utf8");
    expect(text).not.toContain(recorderKey);
    expect(text).not.toContain(appKey);
    const lines = await readLines(out);
    expect(lines[0]).toMatchObject({
      type: "meta",
      provider: "openai-realtime",
      model: "gpt-realtime",
      client: "OpenAI/JS 7.59.0",
      source: "recorded",
    });
    expect(lines.filter((line) => line["type"] === "expect_outbound")).toEqual([
      { type: "expect_outbound", request: { method: "GET", path: "/v1/realtime?model=gpt-realtime" } },
      { type: "expect_outbound", message: { ...textSession("event_app_1"), event_id: { $any: true } } },
      { type: "expect_outbound", message: question("What is in this project?") },
      { type: "expect_outbound", message: { type: "response.create" } },
    ]);
    expect(lines.map((line) => line["type"])).not.toContain("disconnect");
    // Lower bounds only: the time kept before the first message of the connection's answer and of
    // session.update's (the app waited for each before it wrote again, so nothing else came between)
    // is no less than the upstream's 150 ms, less 1 ms for its timer and half a ms of rounding.
    const keptAfter = (type: string) => {
      const at = lines.findIndex((line) => line["type"] === "expect_outbound" && JSON.stringify(line).includes(type));
      const waits = lines.slice(at + 1).findIndex((line) => line["type"] !== "delay");
      return lines.slice(at + 1, at + 1 + waits).reduce((sum, line) => sum + Number(line["ms"]), 0);
    };
    expect(keptAfter('"method":"GET"')).toBeGreaterThanOrEqual(148.5);
    expect(keptAfter('"type":"session.update"')).toBeGreaterThanOrEqual(148.5);

    const replay = await startReplayServer({ transcript: out });
    onTestFinished(() => replay.close());
    const replayed = openSession(replay.url);
    await replayed.rt.emitted("session.created");
    replayed.rt.send(textSession("event_app_2"));
    await replayed.rt.emitted("session.updated");
    replayed.rt.send(question("What is in this project?"));
    const replayedDone = replayed.rt.emitted("response.done");
    replayed.rt.send({ type: "response.create" });
    const { response } = await replayedDone;
    expect(replayed.deltas).toEqual(["This", " project", " has two", " files."]);
    expect(response).toMatchObject({
      status: "completed",
      output: [{ content: [{ type: "output_text", text: "This project has two files." }] }],
    });
    expect(replayed.types()).toEqual(textTurnTypes);
    expect(recorded.types()).toEqual(textTurnTypes);
    expect(replay.status()).toMatchObject({ played: lines.length - 1, remaining: 0, mismatches: [] });
  });

  it("records a session the upstream drops as a disconnect: the app's socket closes with 1006 then and in the replay", async () => {
    const upstream = await startReplayServer({ transcript: fixture("openai-realtime/dropped-session.ndjson") });
    onTestFinished(() => upstream.close());
    const out = join(await scratch(), "dropped.ndjson");
    const recorder = await startRecorder({
      provider: "openai-realtime",
      upstream: upstream.url,
      out,
      env: { OPENAI_API_KEY: recorderKey },
    });
    const summarize = async (url: string) => {
      const session = openSession(url);
      await session.rt.emitted("session.created");
      session.rt.send(question("Summarize the README."));
      session.rt.send({ type: "response.create" });
      return { code: await session.closed, deltas: session.deltas, types: session.types() };
    };

    const recorded = await summarize(recorder.url);
    expect(recorded).toMatchObject({ code: 1006, deltas: ["The", " README"] });
    const stopped = await recorder.stop("SIGTERM");
    expect(stopped.stdout).toContain(`recorded 1 connection, 2 messages from the app and 9 from the server to ${out}`);
    expect(stopped.stderr).toContain(
      'replay-agent: the upstream dropped the session opened at /v1/realtime?model=gpt-realtime, recorded as {"type":"disconnect"}',
    );
    expect((await readLines(out)).at(-1)).toEqual({ type: "disconnect" });

    const replay = await startReplayServer({ transcript: out });
    onTestFinished(() => replay.close());
    expect(await summarize(replay.url)).toEqual(recorded);
    expect(replay.status()).toMatchObject({ remaining: 0, mismatches: [] });
  });

  it("passes an upgrade the upstream refuses on to the app with its status and body, records nothing, and says so on stderr", async () => {
    const seen: Array<IncomingHttpHeaders> = [];
    const refusal = JSON.stringify({
      error: {
        message: "Incorrect API key provided: sk-proj-****Env4. You can find your API key at https://platform.openai.com/account/api-keys.",
        type: "invalid_request_error",
        param: null,
        code: "invalid_api_key",
      },
    });
    const refusing = createServer();
    refusing.on("upgrade", (request: IncomingMessage, socket: Socket) => {
      seen.push(request.headers);
      socket.end(
        `HTTP/1.1 401 Unauthorized\r\ncontent-type: application/json\r\nx-request-id: req_refused\r\nset-cookie: session=planted\r\ncontent-length: ${Buffer.byteLength(refusal)}\r\n\r\n${refusal}`,
      );
    });
    await new Promise<void>((resolve) => refusing.listen(0, "127.0.0.1", resolve));
    onTestFinished(() => new Promise<void>((resolve) => refusing.close(() => resolve())));
    const out = join(await scratch(), "refused.ndjson");
    const recorder = await startRecorder({
      provider: "openai-realtime",
      upstream: `ws://127.0.0.1:${(refusing.address() as AddressInfo).port}`,
      out,
      env: { OPENAI_API_KEY: recorderKey },
    });

    const session = openSession(recorder.url);
    const error = await session.rt.emitted("error");
    expect(error.message).toBe("Unexpected server response: 401");
    expect(await session.closed).toBe(1006);
    // The body reaches only an unexpected-response listener, which the official client does not add: a ws client reads it.
    const raw = new WebSocket(`${recorder.url.replace("http:", "ws:")}/v1/realtime?model=gpt-realtime`);
    // Closed before its connection opened, the socket reports an error, which is expected here.
    raw.on("error", () => {});
    const answer = await new Promise<{ status: number | undefined; headers: IncomingHttpHeaders; body: string }>((resolve) =>
      raw.once("unexpected-response", (_request, response) => {
        const chunks: Array<Buffer> = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.once("end", () => {
          raw.terminate();
          resolve({ status: response.statusCode, headers: response.headers, body: Buffer.concat(chunks).toString("utf8") });
        });
      }),
    );
    expect(answer).toMatchObject({ status: 401, headers: { "x-request-id": "req_refused" }, body: refusal });
    expect(answer.headers["set-cookie"]).toBeUndefined();

    expect(seen).toHaveLength(2);
    expect(seen[0]).toMatchObject({
      authorization: `Bearer ${recorderKey}`,
      "openai-beta": "realtime=v1",
      "user-agent": "OpenAI/JS 7.59.0",
    });
    expect(JSON.stringify(seen[0])).not.toContain(appKey);

    const stopped = await recorder.stop("SIGINT");
    expect(stopped.stdout).toContain(`replay-agent stopped: no connection was recorded, so ${out} was not written`);
    expect(stopped.stderr).toContain(
      `replay-agent: ws://127.0.0.1:${(refusing.address() as AddressInfo).port}/v1/realtime?model=gpt-realtime refused the connection with 401 Unauthorized: {"error":{"message":"Incorrect API key provided: sk-proj-****Env4.`,
    );
    expect(stopped.stderr).toContain("The app got the same answer; nothing was recorded for it. Check the key in OPENAI_API_KEY.");
    expect(existsSync(out)).toBe(false);
  });
});

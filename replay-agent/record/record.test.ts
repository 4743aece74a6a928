import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { startRecorder } from "../fixtures/cli-process.ts";
import { clients, type Parsed } from "../fixtures/clients.ts";
import { fixture } from "../fixtures/fixture.ts";
import { loadTranscript, startReplayServer } from "../index.ts";

const scratch = async () => {
  const dir = await mkdtemp(join(tmpdir(), "replay-agent-record-"));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return dir;
};

/** Secrets planted where a careless recorder would write them. */
const planted = {
  recorderKey: "sk-proj-Recorder0Key1Planted2In3Env4",
  anthropicKey: "sk-ant-api03-Recorder0Key1Planted2In3Env4",
  githubToken: "ghp_Planted0In1The2Request3Body4abcdef",
  upstreamToken: "Upstream0Token1Planted2In3Answer",
};

/** A stand-in for the real provider that keeps the headers it got and answers with a secret in its body, a cookie and a request id. */
const fakeProvider = async (answer: object) => {
  const seen: Array<IncomingHttpHeaders> = [];
  const server = createServer((request, response) => {
    seen.push(request.headers);
    request.resume();
    request.once("end", () => {
      response.writeHead(200, {
        "content-type": "application/json",
        "set-cookie": "session=planted-cookie",
        "x-request-id": "req_recorded",
      });
      response.end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
};

const replyWithSecret = `Your token is Bearer ${planted.upstreamToken}`;

/** A stand-in for the real provider whose event stream the test writes: each `write` is one write of the upstream, made when the test calls it. */
const piecewiseProvider = async (head: Readonly<Record<string, string>>) => {
  let answering = (_response: ServerResponse) => {};
  const answer = new Promise<ServerResponse>((resolve) => {
    answering = resolve;
  });
  const server = createServer({ noDelay: true }, (request, response) => {
    request.resume();
    request.once("end", () => {
      response.writeHead(200, head);
      response.flushHeaders();
      answering(response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    write: async (piece: string) => {
      const response = await answer;
      await new Promise<void>((resolve) => response.write(piece, () => resolve()));
    },
    end: async () => (await answer).end(),
  };
};

/** The request each recorded stream answers, sent the same way to the recorder and to the replay. */
const streamedQuestion = JSON.stringify({
  model: "gpt-4o-mini",
  stream: true,
  messages: [{ role: "user", content: "Stream it in pieces" }],
});

/**
 * Streams `writes` from a piecewise provider through the recorder to a plain fetch reader, each
 * write only once the reader has had every byte of the one before, so the recorder reads each
 * write as one chunk. What the reader got, read by read.
 */
const recordWrites = async (
  recorderUrl: string,
  upstream: Awaited<ReturnType<typeof piecewiseProvider>>,
  path: string,
  writes: ReadonlyArray<string>,
) => {
  const answer = fetch(`${recorderUrl}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer sk-app-own-key-not-recorded" },
    body: streamedQuestion,
  });
  const reads: Array<string> = [];
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  for (const piece of writes) {
    await upstream.write(piece);
    reader ??= (await answer).body?.getReader();
    if (reader === undefined) throw new Error("the recorder answered without a body");
    let got = "";
    while (Buffer.byteLength(got) < Buffer.byteLength(piece)) {
      const next = await reader.read();
      if (next.done) throw new Error(`the stream ended after ${JSON.stringify(got)}, before the rest of ${JSON.stringify(piece)}`);
      got += Buffer.from(next.value).toString("utf8");
    }
    reads.push(got);
  }
  await upstream.end();
  expect(await reader?.read()).toMatchObject({ done: true });
  return reads;
};

interface RawAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** The body as the writes that carried it: node sends each write of a streamed answer as one HTTP chunk. */
  readonly writes: ReadonlyArray<string>;
}

/** The chunked answer in `bytes`, once all of it is there. */
const parseChunkedAnswer = (bytes: Buffer): RawAnswer | undefined => {
  const headEnd = bytes.indexOf("\r\n\r\n");
  if (headEnd === -1) return undefined;
  const [statusLine = "", ...headerLines] = bytes.subarray(0, headEnd).toString("latin1").split("\r\n");
  const headers = Object.fromEntries(
    headerLines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]),
  );
  const writes: Array<string> = [];
  for (let at = headEnd + 4; ;) {
    const sizeEnd = bytes.indexOf("\r\n", at);
    if (sizeEnd === -1) return undefined;
    const size = Number.parseInt(bytes.subarray(at, sizeEnd).toString("latin1"), 16);
    if (bytes.length < sizeEnd + 2 + size + 2) return undefined;
    if (size === 0) return { status: Number(statusLine.split(" ")[1]), headers, writes };
    writes.push(bytes.subarray(sizeEnd + 2, sizeEnd + 2 + size).toString("utf8"));
    at = sizeEnd + 2 + size + 2;
  }
};

/** POSTs `body` to `url` + `path` over a raw socket and reads the streamed answer write by write. */
const rawAnswer = (url: string, path: string, body: string) =>
  new Promise<RawAnswer>((resolve, reject) => {
    const socket = connect(Number(new URL(url).port), "127.0.0.1");
    socket.write(
      `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    let received = Buffer.alloc(0);
    socket.on("data", (data) => {
      received = Buffer.concat([received, data]);
      const answer = parseChunkedAnswer(received);
      if (answer === undefined) return;
      socket.destroy();
      resolve(answer);
    });
    socket.once("error", reject);
    socket.once("end", () =>
      reject(new Error(`the connection closed before the answer was whole: ${JSON.stringify(received.toString("utf8"))}`)),
    );
  });

const linesOf = async (path: string) =>
  (await readFile(path, "utf8"))
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);

interface AuthCase {
  readonly provider: "openai-chat" | "anthropic-messages";
  readonly env: Readonly<Record<string, string>>;
  readonly auth: Readonly<Record<string, string>>;
  readonly answer: object;
}

describe("replay-agent record", () => {
  it.each<AuthCase>([
    {
      provider: "openai-chat",
      env: { OPENAI_API_KEY: planted.recorderKey },
      auth: { authorization: `Bearer ${planted.recorderKey}` },
      answer: {
        id: "chatcmpl-1",
        object: "chat.completion",
        created: 1733000000,
        model: "gpt-4o-mini",
        choices: [{ index: 0, message: { role: "assistant", content: replyWithSecret }, finish_reason: "stop" }],
      },
    },
    {
      provider: "anthropic-messages",
      env: { ANTHROPIC_API_KEY: planted.anthropicKey },
      auth: { "x-api-key": planted.anthropicKey },
      answer: {
        id: "msg_1",
        type: "message",
        role: "assistant",
        model: "claude-sonnet-4-6",
        content: [{ type: "text", text: replyWithSecret }],
        stop_reason: "end_turn",
        stop_sequence: null,
        usage: { input_tokens: 9, output_tokens: 7 },
      },
    },
  ])("forwards $provider requests with the key from its environment and writes no credential", async ({ provider, env, auth, answer }) => {
    const upstream = await fakeProvider(answer);
    const out = join(await scratch(), "recorded.ndjson");
    const recorder = await startRecorder({ provider, upstream: upstream.url, out, env, timing: false });
    const client = clients[provider];
    const question = `Is ${planted.githubToken} still valid?`;

    expect(await client.ask(recorder.url, question)).toBe(replyWithSecret);
    const stopped = await recorder.stop("SIGINT");
    expect(stopped.exitCode).toBe(0);
    expect(stopped.stdout).toContain(`replay-agent stopped: recorded 1 request and 1 frame to ${out}`);

    expect(upstream.seen).toEqual([expect.objectContaining(auth)]);
    expect(JSON.stringify(upstream.seen)).not.toContain("replay");
    const text = await readFile(out, "utf8");
    for (const secret of [...Object.values(planted), "planted-cookie"]) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/"(authorization|x-api-key|api-key|cookie|set-cookie)"/i);

    const transcript = await loadTranscript(out);
    expect(transcript.meta).toMatchObject({
      provider,
      model: expect.any(String),
      client: expect.stringMatching(/JS/),
      source: "recorded",
      capturedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(transcript.entries.map((entry) => entry.type)).toEqual(["expect_outbound", "emit_inbound"]);
    const replay = await startReplayServer({ transcript: out });
    onTestFinished(() => replay.close());
    expect(await client.ask(replay.url, question)).toBe("Your token is Bearer [redacted]");
    expect(replay.status()).toMatchObject({ remaining: 0, mismatches: [] });
  });

  it("keeps where the upstream's writes ended and its head, so the recording replays in the same writes with the same status and headers", async () => {
    const delta = (text: string) => ({
      event: "content_block_delta",
      data: { type: "content_block_delta", index: 0, delta: { type: "text_delta", text } },
    });
    const frames = [
      {
        event: "message_start",
        data: {
          type: "message_start",
          message: {
            id: "msg_1",
            type: "message",
            role: "assistant",
            model: "claude-sonnet-4-6",
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { input_tokens: 9, output_tokens: 1 },
          },
        },
      },
      { event: "content_block_start", data: { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } } },
      delta("Split"),
      delta(" across"),
      delta(" reads"),
      { event: "content_block_stop", data: { type: "content_block_stop", index: 0 } },
      {
        event: "message_delta",
        data: { type: "message_delta", delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: 3 } },
      },
      { event: "message_stop", data: { type: "message_stop" } },
    ];
    // The upstream writes its events as the replay agent writes frames: `event:`, compact JSON, LF.
    const texts = frames.map(({ event, data }) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    const stream = texts.join("");
    const at = (frame: number, offset: number) => texts.slice(0, frame).join("").length + offset;
    // Where each upstream write ends: two whole events, a cut inside one, writes that carry one event's end and the next one's start.
    const ends = [at(2, 0), at(2, 20), at(3, 30), at(6, 0), at(7, 10), stream.length];
    const writes = ends.map((end, index) => stream.slice(index === 0 ? 0 : ends[index - 1], end));
    const upstream = await piecewiseProvider({
      "content-type": "text/event-stream",
      "x-request-id": "req_streamed",
      "anthropic-ratelimit-requests-remaining": "49",
      "set-cookie": "session=planted-cookie",
      "x-api-key": planted.anthropicKey,
    });
    const out = join(await scratch(), "cuts.ndjson");
    const recorder = await startRecorder({
      provider: "anthropic-messages",
      upstream: upstream.url,
      out,
      timing: false,
      env: { ANTHROPIC_API_KEY: planted.anthropicKey },
    });

    expect(await recordWrites(recorder.url, upstream, "/v1/messages", writes)).toEqual(writes);
    const stopped = await recorder.stop("SIGINT");
    expect(stopped.stdout).toContain("recorded 1 request and 8 frames");

    const lines = await linesOf(out);
    const head = {
      status: 200,
      headers: {
        "content-type": "text/event-stream",
        "x-request-id": "req_streamed",
        "anthropic-ratelimit-requests-remaining": "49",
        date: expect.any(String),
      },
    };
    expect(lines.slice(2)).toEqual([
      { type: "emit_inbound", head },
      { type: "emit_inbound", sse: frames[0], join: true },
      { type: "emit_inbound", sse: frames[1] },
      { type: "emit_inbound", sse: frames[2], cut: [20], join: true },
      { type: "emit_inbound", sse: frames[3], cut: [30], join: true },
      { type: "emit_inbound", sse: frames[4], join: true },
      { type: "emit_inbound", sse: frames[5] },
      { type: "emit_inbound", sse: frames[6], join: true },
      { type: "emit_inbound", sse: frames[7], cut: [10] },
    ]);
    expect((await loadTranscript(out)).entries).toHaveLength(10);

    const replay = await startReplayServer({ transcript: out });
    onTestFinished(() => replay.close());
    const replayed = await rawAnswer(replay.url, "/v1/messages", streamedQuestion);
    expect(replayed).toMatchObject({
      status: 200,
      headers: { "content-type": "text/event-stream", "x-request-id": "req_streamed", "anthropic-ratelimit-requests-remaining": "49" },
    });
    expect(replayed.headers).not.toHaveProperty("set-cookie");
    expect(replayed.writes).toEqual(writes);
    expect(replay.status()).toMatchObject({ remaining: 0, mismatches: [] });
  });

  it("places a cut where the upstream's event text differs from the frame as written: CRLF, an id line, no space after data:, data over two lines, a redacted secret", async () => {
    // Each event as the upstream writes it, the offset its first write ends at, and where that cut lands in the frame the replay agent writes.
    const events = [
      { raw: 'data: {"n":1}\n\n', at: 12, cut: 12 },
      { raw: 'data: {"n":2,"text":"crlf"}\r\n\r\n', at: 12, cut: 12 },
      { raw: 'id: 3\ndata: {"n":3}\n\n', at: 15, cut: 9 },
      { raw: 'data:{"n":4}\n\n', at: 8, cut: 9 },
      { raw: 'data: {"n":5,\ndata: "text":"two lines"}\n\n', at: 16, cut: 13 },
      { raw: `data: {"text":"Bearer ${planted.upstreamToken} ok"}\n\n`, at: 56, cut: 34 },
    ];
    const writes = [": keep-alive\n\n", ...events.flatMap(({ raw, at }) => [raw.slice(0, at), raw.slice(at)]), "data: [DONE]\n\n"];
    const upstream = await piecewiseProvider({ "content-type": "text/event-stream; charset=utf-8" });
    const out = join(await scratch(), "mapped-cuts.ndjson");
    const recorder = await startRecorder({
      provider: "openai-chat",
      upstream: upstream.url,
      out,
      timing: false,
      env: { OPENAI_API_KEY: planted.recorderKey },
    });

    expect(await recordWrites(recorder.url, upstream, "/v1/chat/completions", writes)).toEqual(writes);
    expect((await recorder.stop("SIGINT")).exitCode).toBe(0);

    const frames = (await linesOf(out)).filter((line) => "sse" in line).slice(0, events.length);
    expect(frames.map(({ cut }) => cut)).toEqual(events.map(({ cut }) => [cut]));
    expect(frames.map(({ join }) => join)).toEqual(events.map(() => undefined));
    expect(frames.at(-1)).toMatchObject({ sse: { data: { text: "Bearer [redacted] ok" } } });
    const replay = await startReplayServer({ transcript: out });
    onTestFinished(() => replay.close());
    const replayed = await rawAnswer(replay.url, "/v1/chat/completions", streamedQuestion);
    expect(replayed.writes).toEqual([
      'data: {"n":1',
      "}\n\n",
      'data: {"n":2',
      ',"text":"crlf"}\n\n',
      'data: {"n',
      '":3}\n\n',
      'data: {"n',
      '":4}\n\n',
      'data: {"n":5,',
      '"text":"two lines"}\n\n',
      'data: {"text":"Bearer [redacted] o',
      'k"}\n\n',
      "data: [DONE]\n\n",
    ]);
  });

  it("records an NDJSON stream line by line, a line cut across two writes and two lines in one write, and replays it in the same writes", async () => {
    const line = (content: string, done = false) =>
      done
        ? {
            model: "llama3.2",
            created_at: "2026-12-04T12:00:00.9Z",
            message: { role: "assistant", content },
            done,
            done_reason: "stop",
            eval_count: 3,
          }
        : { model: "llama3.2", created_at: "2026-12-04T12:00:00.1Z", message: { role: "assistant", content }, done };
    const values = [line("Split"), line(" across"), line(" reads"), line("", true)];
    const texts = values.map((value) => `${JSON.stringify(value)}\n`);
    // A line cut in two, then the rest of it with the next line and the start of the third, then the rest.
    const writes = [
      texts[0]?.slice(0, 40) ?? "",
      `${texts[0]?.slice(40) ?? ""}${texts[1] ?? ""}${texts[2]?.slice(0, 30) ?? ""}`,
      `${texts[2]?.slice(30) ?? ""}${texts[3] ?? ""}`,
    ];
    const upstream = await piecewiseProvider({ "content-type": "application/x-ndjson" });
    const out = join(await scratch(), "ndjson.ndjson");
    const recorder = await startRecorder({ provider: "ollama", upstream: upstream.url, out, env: {}, timing: false });

    expect(await recordWrites(recorder.url, upstream, "/api/chat", writes)).toEqual(writes);
    const stopped = await recorder.stop("SIGINT");
    expect(stopped.stdout).toContain("recorded 1 request and 4 frames");

    expect((await linesOf(out)).slice(3)).toEqual([
      { type: "emit_inbound", ndjson: values[0], cut: [40], join: true },
      { type: "emit_inbound", ndjson: values[1], join: true },
      { type: "emit_inbound", ndjson: values[2], cut: [30], join: true },
      { type: "emit_inbound", ndjson: values[3] },
    ]);
    const replay = await startReplayServer({ transcript: out });
    onTestFinished(() => replay.close());
    const replayed = await rawAnswer(replay.url, "/api/chat", streamedQuestion);
    expect(replayed).toMatchObject({ status: 200, headers: { "content-type": "application/x-ndjson" } });
    expect(replayed.writes).toEqual(writes);
  });

  it("relays each frame as it arrives, appends it at once, and leaves a valid transcript when stopped mid-stream", async () => {
    const upstream = await startReplayServer({ transcript: fixture("openai-chat/short-tour.ndjson") });
    onTestFinished(() => upstream.close());
    const out = join(await scratch(), "cut-short.ndjson");
    const recorder = await startRecorder({
      provider: "openai-chat",
      upstream: upstream.url,
      out,
      timing: false,
      env: { OPENAI_API_KEY: planted.recorderKey },
    });

    const stream = await clients["openai-chat"].stream(recorder.url, "Give me a short tour");
    const received: Array<Parsed> = [];
    let threeArrived = () => {};
    const beforePause = new Promise<void>((resolve) => {
      threeArrived = resolve;
    });
    const reading = (async () => {
      for await (const item of stream) {
        received.push(item);
        if (received.length === 3) threeArrived();
      }
    })().catch((error: unknown) => error);
    await beforePause;
    await upstream.paused("mid-stream");

    const whilePaused = (await readFile(out, "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string });
    expect(whilePaused.map(({ type }) => type)).toEqual([
      "meta",
      "expect_outbound",
      "emit_inbound",
      "emit_inbound",
      "emit_inbound",
      "emit_inbound",
      "emit_inbound",
    ]);

    const stopped = await recorder.stop("SIGTERM");
    expect(stopped.exitCode).toBe(0);
    expect(stopped.stdout).toContain("recorded 1 request and 4 frames");
    expect(await reading).toBeInstanceOf(Error);
    expect(received).toEqual([{ text: "This" }, { text: " project" }, { text: " has" }]);
    const transcript = await loadTranscript(out);
    expect(transcript.entries.map((entry) => entry.type)).toEqual([
      "expect_outbound",
      "emit_inbound",
      "emit_inbound",
      "emit_inbound",
      "emit_inbound",
      "emit_inbound",
      "disconnect",
    ]);
    expect(transcript.entries[1]).toMatchObject({ head: { status: 200, headers: { "content-type": "text/event-stream; charset=utf-8" } } });
  });
});

import {
  BedrockRuntimeClient,
  ConverseCommand,
  ConverseStreamCommand,
  InvokeModelWithResponseStreamCommand,
  ThrottlingException,
  ValidationException,
  type ContentBlock,
  type ConverseStreamOutput,
  type Message,
  type Tool,
} from "@aws-sdk/client-bedrock-runtime";
import * as Effect from "effect/Effect";
import { describe, expect, it, onTestFinished, vi } from "vitest";
import { fixture } from "../fixtures/fixture.ts";
import { startReplayServer, validateTranscript } from "../index.ts";

const modelId = "anthropic.claude-3-5-haiku-20241022-v1:0";

const serve = async (name: string) => {
  const server = await startReplayServer({ transcript: fixture(`bedrock/${name}`) });
  onTestFinished(() => server.close());
  return server;
};

/** The official client as an app builds it for the replay agent: its endpoint (or none: the environment's), static credentials, no retries. */
const bedrock = (endpoint?: string) => {
  const client = new BedrockRuntimeClient({
    ...(endpoint === undefined ? {} : { endpoint }),
    region: "us-east-1",
    credentials: { accessKeyId: "replay", secretAccessKey: "replay" },
    maxAttempts: 1,
  });
  onTestFinished(() => client.destroy());
  return client;
};

const user = (text: string): Message => ({ role: "user", content: [{ text }] });

/** What the app reads from one ConverseStream event: a text delta, the stop reason, or the usage. */
type Parsed =
  { readonly text: string } | { readonly stop: string } | { readonly usage: { readonly input: number; readonly output: number } };

const parsedOf = (event: ConverseStreamOutput): ReadonlyArray<Parsed> => {
  const text = event.contentBlockDelta?.delta?.text;
  const stop = event.messageStop?.stopReason;
  const usage = event.metadata?.usage;
  return [
    ...(text === undefined ? [] : [{ text }]),
    ...(stop === undefined ? [] : [{ stop }]),
    ...(usage === undefined ? [] : [{ usage: { input: usage.inputTokens ?? -1, output: usage.outputTokens ?? -1 } }]),
  ];
};

/** Streams `messages` with ConverseStream; yields what the app reads from each event. */
const converseStream = async (client: BedrockRuntimeClient, messages: Array<Message>, tools?: Array<Tool>) => {
  const { stream } = await client.send(
    new ConverseStreamCommand({ modelId, messages, ...(tools === undefined ? {} : { toolConfig: { tools } }) }),
  );
  if (stream === undefined) throw new Error("ConverseStream answered without a stream");
  return stream;
};

/** Resolves once `count` items arrived; a plain promise the test can await without timers. */
const arrivals = (count: number) => {
  let arrived = () => {};
  const promise = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  return { promise, seen: (received: number) => received === count && arrived() };
};

/** Reads a stream held at `pause`: each item marked with whether it came after the resume. */
const readAcrossPause = async (
  server: Awaited<ReturnType<typeof serve>>,
  stream: AsyncIterable<ConverseStreamOutput>,
  pause: string,
  beforeResume: number,
) => {
  let resumed = false;
  const received: Array<{ readonly item: Parsed; readonly afterResume: boolean }> = [];
  const before = arrivals(beforeResume);
  const reading = (async () => {
    for await (const event of stream) {
      for (const item of parsedOf(event)) received.push({ item, afterResume: resumed });
      before.seen(received.length);
    }
  })();
  await before.promise;
  await server.paused(pause);
  const atPause = [...received];
  resumed = true;
  server.resume();
  await reading;
  return { atPause, received };
};

const readFile: Tool = {
  toolSpec: {
    name: "read_file",
    description: "Read a file of the project",
    inputSchema: { json: { type: "object", properties: { path: { type: "string" } } } },
  },
};

describe("bedrock over HTTP, read by @aws-sdk/client-bedrock-runtime", () => {
  it("holds a ConverseStream at a pause: the deltas before it arrive, the rest, the stop and the usage only after resume", async () => {
    const server = await serve("converse-stream.ndjson");
    const stream = await converseStream(bedrock(server.url), [user("Give me a short tour")]);
    const { received } = await readAcrossPause(server, stream, "mid-stream", 3);
    expect(received).toEqual([
      { item: { text: "This" }, afterResume: false },
      { item: { text: " project" }, afterResume: false },
      { item: { text: " has" }, afterResume: false },
      { item: { text: " two" }, afterResume: true },
      { item: { text: " files." }, afterResume: true },
      { item: { stop: "end_turn" }, afterResume: true },
      { item: { usage: { input: 12, output: 6 } }, afterResume: true },
    ]);
    expect(server.status()).toMatchObject({ remaining: 0, paused: null, mismatches: [] });
  });

  it("streams a toolUse whose input the app assembles from its deltas, then serves the turn carrying its result", async () => {
    const server = await serve("tool-use.ndjson");
    const client = bedrock(server.url);
    const question = [user("What does src/math.ts export?")];
    let text = "";
    let input = "";
    let tool: { toolUseId?: string | undefined; name?: string | undefined } = {};
    const parsed: Array<Parsed> = [];
    for await (const event of await converseStream(client, question, [readFile])) {
      const delta = event.contentBlockDelta?.delta;
      text += delta?.text ?? "";
      input += delta?.toolUse?.input ?? "";
      tool = event.contentBlockStart?.start?.toolUse ?? tool;
      parsed.push(...parsedOf(event).filter((item) => !("text" in item)));
    }
    expect({ text, tool, input: JSON.parse(input) }).toEqual({
      text: "I'll read the file.",
      tool: { toolUseId: "tooluse_kZJMlvQmRJ6eAyJE5GIl7Q", name: "read_file" },
      input: { path: "src/math.ts" },
    });
    expect(parsed).toEqual([{ stop: "tool_use" }, { usage: { input: 412, output: 71 } }]);

    const turn: Array<ContentBlock> = [{ text }, { toolUse: { toolUseId: tool.toolUseId, name: tool.name, input: JSON.parse(input) } }];
    const result: Message = {
      role: "user",
      content: [{ toolResult: { toolUseId: tool.toolUseId, content: [{ text: "export const sum = 1 + 1;\n" }] } }],
    };
    let answer = "";
    for await (const event of await converseStream(client, [...question, { role: "assistant", content: turn }, result], [readFile])) {
      answer += event.contentBlockDelta?.delta?.text ?? "";
    }
    expect(answer).toBe("It exports `sum`.");
    expect(server.status()).toMatchObject({ remaining: 0, mismatches: [] });
  });

  it("answers an unexpected Converse 400 as a ValidationException whose message has the diff, and keeps the expectation for the right one", async () => {
    const server = await serve("converse.ndjson");
    const client = bedrock(server.url);
    const ask = (text: string) => client.send(new ConverseCommand({ modelId, messages: [user(text)], inferenceConfig: { maxTokens: 20 } }));
    const diff = 'body.messages[0].content[0].text: expected "Name this thread", got "Name this chat"';

    const mismatch = await ask("Name this chat").catch((error: unknown) => error);
    expect(mismatch).toBeInstanceOf(ValidationException);
    expect(mismatch).toMatchObject({ name: "ValidationException", $fault: "client", $metadata: { httpStatusCode: 400 }, line: 3, diff });
    expect((mismatch as Error).message).toMatch(
      /^replay-agent could not replay POST \/model\/anthropic\.claude-3-5-haiku-20241022-v1%3A0\/converse \(last user message: "Name this chat"\): the request does not match /,
    );
    expect((mismatch as Error).message).toContain(diff);
    expect(server.status()).toMatchObject({ played: 0, remaining: 2, mismatches: [{ expectedLine: 3, diff }] });

    const answer = await ask("Name this thread");
    expect(answer).toMatchObject({
      output: { message: { role: "assistant", content: [{ text: "Math helpers tour" }] } },
      stopReason: "end_turn",
      usage: { inputTokens: 9, outputTokens: 4, totalTokens: 13 },
      $metadata: { httpStatusCode: 200, requestId: "c4a1e8f2-3b7d-4c9a-b6e5-2d1f0a9b8c7e" },
    });
    expect(server.status()).toMatchObject({ played: 2, remaining: 0 });
  });

  it("reaches the replay agent through AWS_ENDPOINT_URL_BEDROCK_RUNTIME with the client's defaults, HTTP/2 included", async () => {
    const server = await serve("converse.ndjson");
    vi.stubEnv("AWS_ENDPOINT_URL_BEDROCK_RUNTIME", server.url);
    onTestFinished(() => {
      vi.unstubAllEnvs();
    });
    const client = bedrock();
    expect(client.config.requestHandler.metadata?.handlerProtocol).toBe("h2");
    const answer = await client.send(
      new ConverseCommand({ modelId, messages: [user("Name this thread")], inferenceConfig: { maxTokens: 20 } }),
    );
    expect(answer.output?.message?.content).toEqual([{ text: "Math helpers tour" }]);
    expect(server.status()).toMatchObject({ remaining: 0, mismatches: [] });
  });

  it("streams InvokeModelWithResponseStream chunks, each decoded to the model's own JSON", async () => {
    const server = await serve("invoke-stream.ndjson");
    const response = await bedrock(server.url).send(
      new InvokeModelWithResponseStreamCommand({
        modelId,
        contentType: "application/json",
        accept: "application/json",
        body: JSON.stringify({
          anthropic_version: "bedrock-2023-05-31",
          max_tokens: 1024,
          messages: [{ role: "user", content: "Give me a short tour" }],
        }),
      }),
    );
    expect(response.contentType).toBe("application/json");
    const events: Array<{ type: string; delta?: { text?: string }; "amazon-bedrock-invocationMetrics"?: unknown }> = [];
    for await (const part of response.body ?? []) {
      if (part.chunk?.bytes !== undefined) events.push(JSON.parse(new TextDecoder().decode(part.chunk.bytes)));
    }
    expect(events.map(({ type }) => type)).toEqual([
      "message_start",
      "content_block_start",
      "content_block_delta",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    expect(events.map(({ delta }) => delta?.text ?? "").join("")).toBe("This project has two files.");
    expect(events.at(-1)?.["amazon-bedrock-invocationMetrics"]).toEqual({
      inputTokenCount: 12,
      outputTokenCount: 6,
      invocationLatency: 498,
      firstByteLatency: 287,
    });
    expect(server.status()).toMatchObject({ remaining: 0, mismatches: [] });
  });

  it("raises ThrottlingException for a fail line, with its status, and for an exception message mid-stream, after the deltas before it", async () => {
    const server = await serve("failures.ndjson");
    const client = bedrock(server.url);
    const throttled = await client.send(new ConverseCommand({ modelId, messages: [user("first")] })).catch((error: unknown) => error);
    expect(throttled).toBeInstanceOf(ThrottlingException);
    expect(throttled).toMatchObject({
      name: "ThrottlingException",
      message: "Too many requests, please wait before trying again.",
      $fault: "client",
      $metadata: { httpStatusCode: 429, requestId: "2a9d8c7b-6e5f-4a3b-9c1d-0e2f4a6b8c0d" },
    });

    const parsed: Array<Parsed> = [];
    const midStream = await (async () => {
      for await (const event of await converseStream(client, [user("second")])) parsed.push(...parsedOf(event));
    })().catch((error: unknown) => error);
    expect(parsed).toEqual([{ text: "Partial" }]);
    expect(midStream).toBeInstanceOf(ThrottlingException);
    expect(midStream).toMatchObject({ name: "ThrottlingException", message: "Too many tokens, please wait before trying again." });
    expect(server.status()).toMatchObject({ remaining: 0, mismatches: [] });
  });

  it("decodes a binary message cut across two writes whole, once its second piece arrives after the resume", async () => {
    const server = await serve("cut-message.ndjson");
    const stream = await converseStream(bedrock(server.url), [user("Say hello")]);
    const { atPause, received } = await readAcrossPause(server, stream, "half-message", 1);
    // The first write held "Hello" and the first 142 bytes of " world": the SDK kept those until the rest came.
    expect(atPause).toEqual([{ item: { text: "Hello" }, afterResume: false }]);
    expect(received.slice(0, 3)).toEqual([
      { item: { text: "Hello" }, afterResume: false },
      { item: { text: " world" }, afterResume: true },
      { item: { text: "!" }, afterResume: true },
    ]);
    expect(server.status()).toMatchObject({ remaining: 0, mismatches: [] });
  });
});

const line = (value: object) => JSON.stringify(value);
const meta = line({ type: "meta", format: "replay-transcript", version: 1, provider: "bedrock" });
const request = line({
  type: "expect_outbound",
  request: { method: "POST", path: `/model/${encodeURIComponent(modelId)}/converse-stream` },
});
const frame = (headers: Readonly<Record<string, string>>, payload: object) =>
  line({ type: "emit_inbound", eventstream: { headers, payload } });
const event = (type: string, payload: object) =>
  frame({ ":event-type": type, ":content-type": "application/json", ":message-type": "event" }, payload);
const messageStart = event("messageStart", { role: "assistant" });

describe("replay-agent check on a bedrock transcript", () => {
  it.each([
    [
      "a message without :message-type",
      [request, frame({ ":event-type": "messageStart", ":content-type": "application/json" }, { role: "assistant" })],
      3,
      'an event-stream message without a :message-type header, which the AWS SDK reads first (it fails with a TypeError without it). Add ":message-type":"event" to its headers ("exception" for an error the stream raises)',
    ],
    [
      "an event the SDK does not know",
      [request, messageStart, event("contentDelta", { contentBlockIndex: 0, delta: { text: "Hi" } })],
      4,
      ':event-type "contentDelta", which the AWS SDK skips without a word: the app would never see it. Use a ConverseStream event ("messageStart", "contentBlockStart", "contentBlockDelta", "contentBlockStop", "messageStop", "metadata") or an InvokeModelWithResponseStream "chunk"',
    ],
    [
      "an exception named in the error's own case",
      [
        request,
        messageStart,
        frame(
          { ":exception-type": "ThrottlingException", ":content-type": "application/json", ":message-type": "exception" },
          { message: "Too many tokens, please wait before trying again." },
        ),
      ],
      4,
      ':exception-type "ThrottlingException", which this stream\'s union does not name: the AWS SDK raises a plain Error for it, not its typed exception. Name it as the union member Bedrock sends: "throttlingException"',
    ],
    [
      "a toolUse delta in a block no contentBlockStart opened",
      [request, messageStart, event("contentBlockDelta", { contentBlockIndex: 0, delta: { toolUse: { input: '{"path"' } } })],
      4,
      'a toolUse delta in content block 0, which no contentBlockStart with a toolUse opened: the app learns the tool\'s name and id from it. Open block 0 with the contentBlockStart event Bedrock sent, {"start":{"toolUse":{"toolUseId":"tooluse_…","name":"…"}},"contentBlockIndex":0}',
    ],
    [
      "an event after metadata",
      [
        request,
        messageStart,
        event("messageStop", { stopReason: "end_turn" }),
        event("metadata", { usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 }, metrics: { latencyMs: 1 } }),
        event("contentBlockDelta", { contentBlockIndex: 0, delta: { text: "late" } }),
      ],
      6,
      "eventstream frame after metadata (line 5). Remove it, or start the next request with an expect_outbound line above it",
    ],
    [
      "a chunk whose bytes are not base64",
      [request, event("chunk", { bytes: '{"type":"message_stop"}' })],
      3,
      'a chunk without base64 "bytes", which the AWS SDK decodes for the app. Put the model\'s own event JSON in "bytes", base64-encoded, as Bedrock does: {"bytes":"eyJ0eXBlIjoibWVzc2FnZV9zdG9wIn0="}',
    ],
    [
      "a fail after the stream's first message",
      [
        request,
        messageStart,
        line({
          type: "fail",
          status: 429,
          headers: { "x-amzn-errortype": "ThrottlingException:http://internal.amazon.com/coral/com.amazon.bedrock/" },
          body: { message: "Too many tokens, please wait before trying again." },
        }),
      ],
      4,
      'fail after eventstream frames: the stream\'s 200 status was already sent. Record a mid-stream error as an eventstream message with ":message-type":"exception", the way the provider streams it, or move the fail above the stream',
    ],
    [
      "a fail that names no error type",
      [request, line({ type: "fail", status: 429, body: { message: "Too many requests, please wait before trying again." } })],
      3,
      'a fail that names no error type: the AWS SDK raises it as an Unknown BedrockRuntimeServiceException. Add the header Bedrock sends, like "headers":{"x-amzn-errortype":"ThrottlingException:http://internal.amazon.com/coral/com.amazon.bedrock/"}',
    ],
  ])("rejects %s, naming its line and the fix", async (_name, lines, at, message) => {
    const error = await Effect.runPromise(Effect.flip(validateTranscript("bad.ndjson", [meta, ...lines].join("\n"))));
    expect(error.message).toBe(`bad.ndjson:${at}: ${message}`);
  });
});

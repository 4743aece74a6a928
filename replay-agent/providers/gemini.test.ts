import { mkdtemp, readFile as readText, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ApiError, GoogleGenAI, type GenerateContentResponse } from "@google/genai";
import * as Effect from "effect/Effect";
import { describe, expect, it, onTestFinished } from "vitest";
import { fixture } from "../fixtures/fixture.ts";
import { loadTranscript, recordProxy, startReplayServer, TranscriptError, validateTranscript } from "../index.ts";

const model = "gemini-2.5-flash";

const serve = async (name: string) => {
  const server = await startReplayServer({ transcript: fixture(`gemini/${name}`) });
  onTestFinished(() => server.close());
  return server;
};

/** The official client, pointed at the replay agent as an app points it. */
const gemini = (url: string) => new GoogleGenAI({ apiKey: "replay", httpOptions: { baseUrl: url } });

/** What the SDK parsed from one streamed response: thought summaries, its `text`, and the finish with its usage. */
type Parsed =
  | { readonly thought: string }
  | { readonly text: string }
  | { readonly finish: string; readonly usage: { readonly input: number; readonly output: number; readonly thoughts: number } };

const parsedOf = (chunk: GenerateContentResponse): ReadonlyArray<Parsed> => {
  const candidate = chunk.candidates?.[0];
  const thoughts = (candidate?.content?.parts ?? []).flatMap((part) =>
    part.thought === true && part.text !== undefined ? [{ thought: part.text }] : [],
  );
  const text = chunk.text === undefined ? [] : [{ text: chunk.text }];
  const usage = chunk.usageMetadata;
  const finish =
    candidate?.finishReason === undefined
      ? []
      : [
          {
            finish: candidate.finishReason,
            usage: {
              input: usage?.promptTokenCount ?? -1,
              output: usage?.candidatesTokenCount ?? -1,
              thoughts: usage?.thoughtsTokenCount ?? 0,
            },
          },
        ];
  return [...thoughts, ...text, ...finish];
};

/** Resolves once `count` items arrived; a plain promise the test can await without timers. */
const arrivals = (count: number) => {
  let arrived = () => {};
  const promise = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  return { promise, seen: (received: number) => received === count && arrived() };
};

/** Reads a stream to its end, noting for each item whether it arrived after `resumed()` turned true. */
const readAll = (stream: AsyncIterable<GenerateContentResponse>, resumed: () => boolean, onItem: (count: number) => void) => {
  const received: Array<{ readonly item: Parsed; readonly afterResume: boolean }> = [];
  const done = (async () => {
    for await (const chunk of stream) {
      for (const item of parsedOf(chunk)) {
        received.push({ item, afterResume: resumed() });
        onItem(received.length);
      }
    }
    return received;
  })();
  return done;
};

const readFile = {
  name: "read_file",
  description: "Read a file of the project",
  parametersJsonSchema: { type: "object", properties: { path: { type: "string" } } },
};

/** Asks what src/math.ts exports in a chat offering read_file, then sends the file back: the calls the SDK read, and the answer's text. */
const toolChat = async (url: string) => {
  const chat = gemini(url).chats.create({ model, config: { tools: [{ functionDeclarations: [readFile] }] } });
  const calls: Array<unknown> = [];
  for await (const chunk of await chat.sendMessageStream({ message: "What does src/math.ts export?" })) calls.push(chunk.functionCalls);
  let answer = "";
  const result = { functionResponse: { name: "read_file", response: { output: "export const sum = 1 + 1;\n" } } };
  for await (const chunk of await chat.sendMessageStream({ message: [result] })) answer += chunk.text ?? "";
  return { calls, answer };
};

describe("gemini over HTTP, read by @google/genai", () => {
  it("holds a stream at a pause: the thought and deltas before it arrive, the rest and the finish only after resume", async () => {
    const server = await serve("short-tour.ndjson");
    const stream = await gemini(server.url).models.generateContentStream({
      model,
      contents: "Give me a short tour",
      config: { thinkingConfig: { includeThoughts: true } },
    });
    let resumed = false;
    const beforePause = arrivals(4);
    const reading = readAll(stream, () => resumed, beforePause.seen);

    await beforePause.promise;
    await server.paused("mid-stream");
    expect(server.status()).toMatchObject({ paused: "mid-stream", next: { type: "pause", summary: "pause mid-stream" } });
    resumed = true;
    server.resume();

    expect(await reading).toEqual([
      {
        item: { thought: "**Surveying the project**\n\nThe user wants a short tour, so I will name its files.\n\n" },
        afterResume: false,
      },
      { item: { text: "This" }, afterResume: false },
      { item: { text: " project" }, afterResume: false },
      { item: { text: " has" }, afterResume: false },
      { item: { text: " two" }, afterResume: true },
      { item: { text: " files." }, afterResume: true },
      { item: { finish: "STOP", usage: { input: 6, output: 5, thoughts: 21 } }, afterResume: true },
    ]);
    expect(server.status()).toMatchObject({ remaining: 0, paused: null, mismatches: [], next: null });
  });

  it("streams a function call the SDK reads as functionCalls, then serves the chat turn carrying its result", async () => {
    const server = await serve("tool-call.ndjson");
    expect(await toolChat(server.url)).toEqual({
      calls: [[{ name: "read_file", args: { path: "src/math.ts" } }]],
      answer: "It exports `sum`.",
    });
    expect(server.status()).toMatchObject({ remaining: 0, mismatches: [] });
  });

  it("replays a recording made through replay-agent record, with the key from GEMINI_API_KEY, to the same chat", async () => {
    const original = await toolChat((await serve("tool-call.ndjson")).url);
    const dir = await mkdtemp(join(tmpdir(), "replay-agent-gemini-"));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const out = join(dir, "recorded.ndjson");
    const upstream = await serve("tool-call.ndjson");
    const key = "AIzaSyRound0Trip1Key2For3The4Recorder5";
    const recorded = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const recorder = yield* recordProxy({
            provider: "gemini",
            upstream: new URL(upstream.url),
            out,
            port: 0,
            env: { GEMINI_API_KEY: key },
            log: () => {},
          });
          return yield* Effect.promise(() => toolChat(recorder.url));
        }),
      ),
    );
    expect(recorded).toEqual(original);
    expect(upstream.status()).toMatchObject({ remaining: 0, mismatches: [] });
    expect(await readText(out, "utf8")).not.toContain(key);
    expect((await loadTranscript(out)).meta).toMatchObject({
      provider: "gemini",
      model: "gemini-2.5-flash",
      client: expect.stringMatching(/^google-genai-sdk\//),
      source: "recorded",
    });

    const replay = await startReplayServer({ transcript: out });
    onTestFinished(() => replay.close());
    expect(await toolChat(replay.url)).toEqual(original);
    expect(replay.status()).toMatchObject({ remaining: 0, mismatches: [] });
  });

  it("answers an unexpected request 400 with the diff, which the SDK raises as ApiError, then the right one with the whole response", async () => {
    const server = await serve("non-streaming.ndjson");
    const ai = gemini(server.url);
    const diff = 'body.contents[0].parts[0].text: expected "Name this thread", got "Name this chat"';
    const mismatch = await ai.models.generateContent({ model, contents: "Name this chat" }).catch((error: unknown) => error);
    expect(mismatch).toBeInstanceOf(ApiError);
    expect(mismatch).toMatchObject({ status: 400 });
    // The SDK's message is the answer's JSON body.
    expect(JSON.parse((mismatch as ApiError).message)).toMatchObject({ error: { type: "replay_mismatch", line: 3, diff } });
    expect(server.status()).toMatchObject({ played: 0, remaining: 2, mismatches: [{ expectedLine: 3, diff }] });

    const answer = await ai.models.generateContent({ model, contents: "Name this thread" });
    expect(answer.text).toBe("Math helpers tour");
    expect(answer).toMatchObject({
      modelVersion: "gemini-2.5-flash",
      responseId: "Q3RhaN2uDZ6OqtsPyJ_h8Ak",
      usageMetadata: { promptTokenCount: 4, candidatesTokenCount: 3, thoughtsTokenCount: 20, totalTokenCount: 27 },
    });
    expect(server.status()).toMatchObject({ played: 2, remaining: 0 });
  });

  it("raises a fail line, or an error frame mid-stream, as the SDK's ApiError with its status", async () => {
    const server = await serve("failures.ndjson");
    const ai = gemini(server.url);
    const raised = async (question: string, stream: boolean) => {
      const texts: Array<string> = [];
      const error = await (async () => {
        if (!stream) return void (await ai.models.generateContent({ model, contents: question }));
        for await (const chunk of await ai.models.generateContentStream({ model, contents: question })) texts.push(chunk.text ?? "");
      })().then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(ApiError);
      return { status: (error as ApiError).status, message: (error as ApiError).message, texts };
    };

    const rateLimit = await raised("first", false);
    expect(rateLimit).toMatchObject({ status: 429, texts: [] });
    expect(JSON.parse(rateLimit.message)).toMatchObject({ error: { code: 429, status: "RESOURCE_EXHAUSTED" } });
    const overloaded = await raised("second", true);
    expect(overloaded).toMatchObject({ status: 503, texts: [] });
    expect(JSON.parse(overloaded.message)).toEqual({
      error: { code: 503, message: "The model is overloaded. Please try again later.", status: "UNAVAILABLE" },
    });
    expect(await raised("third", true)).toMatchObject({
      status: 500,
      message: expect.stringMatching(/^got status: INTERNAL\. \{"error":\{"code":500,/),
      texts: ["Partial"],
    });
    expect(server.status()).toMatchObject({ remaining: 0, mismatches: [] });
  });

  it("parses a frame cut across two writes whole, once its second piece arrives after the pause between them", async () => {
    const server = await serve("split-frame.ndjson");
    const stream = await gemini(server.url).models.generateContentStream({ model, contents: "What is the capital of France?" });
    let resumed = false;
    const joined = arrivals(1);
    const reading = readAll(stream, () => resumed, joined.seen);

    // The first write held the whole frame before the cut and the first piece of the cut one.
    await joined.promise;
    await server.paused("half-event");
    expect(server.status()).toMatchObject({
      held: [{ name: "half-event" }],
      next: { type: "pause", line: 5, summary: "pause half-event (inside the frame at line 5, after byte 54)" },
    });
    resumed = true;
    server.resume();

    expect(await reading).toEqual([
      { item: { text: "The capital of France is" }, afterResume: false },
      { item: { text: " Paris" }, afterResume: true },
      { item: { text: ", on the Seine." }, afterResume: true },
      { item: { finish: "STOP", usage: { input: 8, output: 11, thoughts: 0 } }, afterResume: true },
    ]);
    expect(server.status()).toMatchObject({ remaining: 0, mismatches: [] });
  });
});

const line = (value: object) => JSON.stringify(value);
const meta = line({ type: "meta", format: "replay-transcript", version: 1, provider: "gemini", model });
const streamRequest = line({
  type: "expect_outbound",
  request: { method: "POST", path: `/v1/models/${model}:streamGenerateContent?alt=sse`, body: { contents: { $any: true } } },
});
const wholeRequest = line({ type: "expect_outbound", request: { method: "POST", path: `/v1/models/${model}:generateContent` } });
const candidate = (parts: ReadonlyArray<object>, extra: object = {}) => ({ content: { parts, role: "model" }, index: 0, ...extra });
const said = (text: string, extra: object = {}) => ({ candidates: [candidate([{ text }], extra)], modelVersion: model });
const frame = (data: object | string, extra: object = {}) => line({ type: "emit_inbound", sse: { data, ...extra } });
const stop = { finishReason: "STOP" };

describe("replay-agent check on gemini transcripts", () => {
  it.each([
    [
      "a [DONE] frame",
      [meta, streamRequest, frame(said("Hi", stop)), frame("[DONE]")],
      4,
      "[DONE] in a gemini stream: the SDK parses every data: line as a GenerateContentResponse, and [DONE] is not JSON",
      "Remove it: a Gemini stream ends after its last response",
    ],
    [
      "a named event",
      [meta, streamRequest, frame(said("Hi", stop), { event: "message" })],
      3,
      'an event named "message": the Gemini SDK reads only events that start with data:, so it skips this one whole',
      'Remove "event"',
    ],
    [
      "an OpenAI chunk",
      [
        meta,
        streamRequest,
        frame({ id: "chatcmpl-1", object: "chat.completion.chunk", choices: [{ index: 0, delta: { content: "Hi" } }] }),
      ],
      3,
      'a GenerateContentResponse needs "candidates", "promptFeedback" or "usageMetadata", and this one has none (it looks like an OpenAI chunk)',
      'Write the response as the API sent it, like {"candidates":[',
    ],
    [
      "a snake_case key",
      [meta, streamRequest, frame(said("Hi", { finish_reason: "STOP" }))],
      3,
      'candidates[0]: "finish_reason" is snake_case, but the Gemini API writes its JSON in camelCase and the SDK reads only that',
      'Write it "finishReason"',
    ],
    [
      "a function call without a name",
      [meta, streamRequest, frame({ candidates: [candidate([{ functionCall: { args: { path: "src" } } }], stop)] })],
      3,
      'candidates[0].content.parts[0].functionCall has no string "name"',
      '{"functionCall":{"name":"read_file","args":{…}}}',
    ],
    [
      "an error frame without an HTTP status",
      [meta, streamRequest, frame(said("Hi")), frame({ error: { message: "Internal error", status: "INTERNAL" } })],
      4,
      'an error frame whose "error.code" is not an HTTP error status from 400 to 599',
      '{"error":{"code":500,"message":"An internal error has occurred.","status":"INTERNAL"}}',
    ],
    [
      "a frame after an error frame",
      [meta, streamRequest, frame({ error: { code: 500, message: "Internal error", status: "INTERNAL" } }), frame(said("Hi", stop))],
      4,
      "sse frame after the error frame (line 3)",
      "Remove it, or start the next request with an expect_outbound line above it",
    ],
    [
      "a stream without a finishReason",
      [meta, streamRequest, frame(said("Hi")), frame(said(" there"))],
      4,
      'the stream answering line 2 ends without a "finishReason"',
      'Give the last frame\'s candidate the "finishReason" the API sent',
    ],
    [
      "a generateContent answer that is not a GenerateContentResponse",
      [meta, wholeRequest, line({ type: "emit_inbound", response: { status: 200, body: { text: "Hi" } } })],
      3,
      'a GenerateContentResponse needs "candidates", "promptFeedback" or "usageMetadata", and this one has none',
      "(an error goes in a fail line)",
    ],
  ])("rejects %s, naming its line and the fix", async (_name, lines, number, problem, fix) => {
    const error = await Effect.runPromise(Effect.flip(validateTranscript("bad.ndjson", lines.join("\n"))));
    expect(error).toBeInstanceOf(TranscriptError);
    expect(error.message).toContain(`bad.ndjson:${number}: `);
    expect(error.problem).toContain(problem);
    expect(error.fix).toContain(fix);
  });
});

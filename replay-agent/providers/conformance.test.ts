import { Effect } from "effect";
import { TestClock } from "effect/testing";
import OpenAI from "openai";
import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import { describe, expect, it, onTestFinished } from "vitest";
import { fixture } from "../fixtures/fixture.ts";
import { loadTranscript, readTranscript, serveTranscript, startReplayServer, type Transcript } from "../index.ts";

const openai = (url: string) => new OpenAI({ baseURL: `${url}/v1`, apiKey: "replay", maxRetries: 0 });

const serve = async (name: string) => {
  const server = await startReplayServer({ transcript: fixture(name) });
  onTestFinished(() => server.close());
  return server;
};

/** The chunk objects the transcript streams, in order, without [DONE]. */
const recordedChunks = (transcript: Transcript) =>
  transcript.entries.flatMap((entry) =>
    entry.type === "emit_inbound" && entry.sse !== undefined && entry.sse.data !== "[DONE]" ? [entry.sse.data] : [],
  );

/** Resolves once `count` chunks arrived; a plain promise the test can await without timers. */
const arrivals = (count: number) => {
  let arrived = () => {};
  const promise = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  return { promise, seen: (received: number) => received === count && arrived() };
};

describe("openai-chat over HTTP, read by the official openai client", () => {
  it("holds a stream at a pause: the frames before it arrive, the rest only after resume", async () => {
    const server = await serve("short-tour.ndjson");
    const stream = await openai(server.url).chat.completions.create({
      model: "gpt-4o-mini",
      messages: [{ role: "user", content: "Give me a short tour" }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let resumed = false;
    const received: Array<{ readonly chunk: ChatCompletionChunk; readonly afterResume: boolean }> = [];
    const beforePause = arrivals(4);
    const reading = (async () => {
      for await (const chunk of stream) {
        received.push({ chunk, afterResume: resumed });
        beforePause.seen(received.length);
      }
    })();

    await beforePause.promise;
    await server.paused("mid-stream");
    expect(server.status()).toMatchObject({ paused: "mid-stream", next: { line: 8, type: "pause", summary: "pause mid-stream" } });
    resumed = true;
    server.resume();
    await reading;

    expect(received.map(({ chunk, afterResume }) => [chunk.choices[0]?.delta.content, afterResume])).toEqual([
      ["", false],
      ["This", false],
      [" project", false],
      [" has", false],
      [" two", true],
      [" files.", true],
      [undefined, true],
      [undefined, true],
    ]);
    expect(received.at(-2)?.chunk.choices[0]?.finish_reason).toBe("stop");
    expect(received.at(-1)?.chunk).toMatchObject({ choices: [], usage: { prompt_tokens: 12, completion_tokens: 6, total_tokens: 18 } });
    expect(received.map(({ chunk }) => chunk)).toEqual(recordedChunks(await loadTranscript(fixture("short-tour.ndjson"))));
    expect(server.status()).toMatchObject({ played: 11, remaining: 0, paused: null, mismatches: [], next: null });
  });

  it("streams tool-call fragments the SDK assembles into one call, then serves the turn carrying its result", async () => {
    const server = await serve("tool-call.ndjson");
    const client = openai(server.url);
    const question = { role: "user", content: "What does src/math.ts export?" } as const;
    const tools = [
      {
        type: "function",
        function: { name: "read_file", description: "Read a file of the project", parameters: { type: "object", properties: { path: { type: "string" } } } },
      },
    ] as const;

    const first = await client.chat.completions
      .stream({ model: "gpt-4o-mini", messages: [question], tools: [...tools], stream_options: { include_usage: true } })
      .finalChatCompletion();
    expect(first.choices[0]?.finish_reason).toBe("tool_calls");
    const call = first.choices[0]?.message.tool_calls?.[0];
    expect(call).toEqual({
      id: "call_Q2bV7nXk4mR1sT9wE3yU6iOp",
      type: "function",
      function: { name: "read_file", arguments: '{"path":"src/math.ts"}' },
    });
    expect(first.usage).toMatchObject({ prompt_tokens: 71, completion_tokens: 16 });

    const second = await client.chat.completions
      .stream({
        model: "gpt-4o-mini",
        messages: [
          question,
          { role: "assistant", content: null, tool_calls: call === undefined ? [] : [call] },
          { role: "tool", tool_call_id: "call_Q2bV7nXk4mR1sT9wE3yU6iOp", content: "export const sum = 1 + 1;\n" },
        ],
        tools: [...tools],
      })
      .finalChatCompletion();
    expect(second.choices[0]?.message.content).toBe("It exports `sum`.");
    expect(server.status()).toMatchObject({ remaining: 0, mismatches: [] });
  });

  it("answers a fail line with its status, so the SDK raises the typed error for it", async () => {
    const server = await serve("failures.ndjson");
    const client = openai(server.url);
    const ask = (content: string) => client.chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content }] });

    const rateLimited = await ask("first").catch((error: unknown) => error);
    expect(rateLimited).toBeInstanceOf(OpenAI.RateLimitError);
    expect(rateLimited).toMatchObject({ status: 429, code: "rate_limit_exceeded", type: "requests" });
    expect(rateLimited instanceof OpenAI.APIError && rateLimited.headers.get("retry-after")).toBe("20");

    const serverError = await ask("second").catch((error: unknown) => error);
    expect(serverError).toBeInstanceOf(OpenAI.InternalServerError);
    expect(serverError).toMatchObject({ status: 500, type: "server_error" });
    expect(server.status()).toMatchObject({ remaining: 0, mismatches: [] });
  });

  it("answers a non-streaming request with the recorded JSON completion", async () => {
    const server = await serve("non-streaming.ndjson");
    const { data, response } = await openai(server.url)
      .chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: "Name this thread" }] })
      .withResponse();
    const [, answer] = (await loadTranscript(fixture("non-streaming.ndjson"))).entries;
    expect(answer?.type === "emit_inbound" && answer.response?.body).toEqual(data);
    expect(data.choices[0]?.message.content).toBe("Math helpers tour");
    expect(response.headers.get("x-request-id")).toBe("req_0b7d2c9e41");
    expect(server.status()).toMatchObject({ remaining: 0, mismatches: [] });
  });

  it("answers an unexpected request 400 replay_mismatch with a diff, and keeps the expectation for the right one", async () => {
    const server = await serve("non-streaming.ndjson");
    const client = openai(server.url);

    const mismatch = await client.chat.completions
      .create({ model: "gpt-4o-mini", messages: [{ role: "user", content: "Name this chat" }] })
      .catch((error: unknown) => error);
    expect(mismatch).toBeInstanceOf(OpenAI.BadRequestError);
    expect(mismatch).toMatchObject({
      status: 400,
      type: "replay_mismatch",
      error: { diff: 'body.messages[0].content: expected "Name this thread", got "Name this chat"', line: 3 },
    });
    expect(server.status().mismatches).toEqual([
      {
        request: { method: "POST", path: "/v1/chat/completions", body: { model: "gpt-4o-mini", messages: [{ role: "user", content: "Name this chat" }] } },
        expectedLine: 3,
        expected: expect.objectContaining({ method: "POST", path: "/v1/chat/completions" }),
        diff: 'body.messages[0].content: expected "Name this thread", got "Name this chat"',
      },
    ]);
    expect(server.status()).toMatchObject({ played: 0, remaining: 2 });

    const completion = await client.chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: "Name this thread" }] });
    expect(completion.choices[0]?.message.content).toBe("Math helpers tour");
    expect(server.requests().map(({ matched, body }) => [matched, body])).toEqual([
      [false, { model: "gpt-4o-mini", messages: [{ role: "user", content: "Name this chat" }] }],
      [true, { model: "gpt-4o-mini", messages: [{ role: "user", content: "Name this thread" }] }],
    ]);
    expect(server.status()).toMatchObject({ played: 2, remaining: 0 });
  });

  it("drops the connection at a disconnect line, after the frames before it", async () => {
    const server = await serve("dropped-stream.ndjson");
    const stream = await openai(server.url).chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: "Hi" }], stream: true });
    const contents: Array<string | null | undefined> = [];
    const failure = await (async () => {
      for await (const chunk of stream) contents.push(chunk.choices[0]?.delta.content);
    })().catch((error: unknown) => error);
    expect(contents).toEqual(["Partial", " answ"]);
    expect(failure).toBeInstanceOf(Error);
    expect(failure).toMatchObject({ message: "terminated" });
  });

  it("writes each frame as `data: <recorded JSON>` and ends the stream with `data: [DONE]`", async () => {
    const server = await serve("tool-call.ndjson");
    const response = await fetch(`${server.url}/v1/chat/completions`, {
      method: "POST",
      body: JSON.stringify({
        model: "gpt-4o-mini",
        messages: [{ role: "user", content: "What does src/math.ts export?" }],
        tools: [{ type: "function", function: { name: "read_file" } }],
        stream: true,
      }),
    });
    const transcript = await loadTranscript(fixture("tool-call.ndjson"));
    const firstAnswer = transcript.entries.slice(1, transcript.entries.findIndex((entry, index) => index > 0 && entry.type === "expect_outbound"));
    expect(response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(await response.text()).toBe(
      firstAnswer
        .map((entry) => (entry.type === "emit_inbound" && entry.sse !== undefined ? entry.sse.data : "?"))
        .map((data) => `data: ${data === "[DONE]" ? data : JSON.stringify(data)}\n\n`)
        .join(""),
    );
  });

  it("waits out a delay line on the Effect clock before the next frame", async () => {
    const program = Effect.gen(function* () {
      const transcript = yield* readTranscript(fixture("slow-stream.ndjson"));
      const { url, runtime } = yield* serveTranscript(transcript);
      const stream = yield* Effect.promise(() =>
        openai(url).chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: "Hi" }], stream: true }),
      );
      const chunks = stream[Symbol.asyncIterator]();
      const first = yield* Effect.promise(() => chunks.next());
      expect(first.done === false && first.value.choices[0]?.delta.content).toBe("Thinking");

      yield* TestClock.adjust("29 seconds");
      expect(yield* runtime.status).toMatchObject({ next: { type: "delay", summary: "delay 30000ms" } });

      yield* TestClock.adjust("1 second");
      const rest = yield* Effect.promise(async () => {
        const contents: Array<string | null | undefined> = [];
        for (let next = await chunks.next(); next.done !== true; next = await chunks.next()) {
          contents.push(next.value.choices[0]?.delta.content);
        }
        return contents;
      });
      expect(rest).toEqual([" done.", undefined]);
      expect(yield* runtime.status).toMatchObject({ remaining: 0, mismatches: [] });
    });
    await Effect.runPromise(program.pipe(Effect.scoped, Effect.provide(TestClock.layer())));
  });
});

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Anthropic from "@anthropic-ai/sdk";
import * as Effect from "effect/Effect";
import { TestClock } from "effect/testing";
import OpenAI from "openai";
import { describe, expect, it, onTestFinished } from "vitest";
import { startRecorder } from "../fixtures/cli-process.ts";
import { clients, type Parsed, type ProviderClient } from "../fixtures/clients.ts";
import { fixture } from "../fixtures/fixture.ts";
import { loadTranscript, readTranscript, serveTranscript, startReplayServer } from "../index.ts";
import type { NewProvider } from "../transcript/providers.ts";

/** How each provider's SDK reports what the shared fixtures hold. */
interface ProviderCase {
  readonly provider: NewProvider;
  readonly client: ProviderClient;
  readonly badRequest: new (...args: never) => Error;
  /** The typed error each request of failures.ndjson raises, in order. */
  readonly failures: ReadonlyArray<{
    readonly question: string;
    readonly stream: boolean;
    readonly error: new (...args: never) => Error;
    readonly fields: Readonly<Record<string, unknown>>;
    readonly retryAfter?: string;
  }>;
  readonly toolCallId: string;
  readonly mismatchDiff: string;
  /** Where `replay-agent record` reads the real provider's key. */
  readonly keyEnv: string;
}

const providers: ReadonlyArray<ProviderCase> = [
  {
    provider: "openai-chat",
    client: clients["openai-chat"],
    badRequest: OpenAI.BadRequestError,
    failures: [
      {
        question: "first",
        stream: false,
        error: OpenAI.RateLimitError,
        fields: { status: 429, type: "requests", code: "rate_limit_exceeded" },
        retryAfter: "20",
      },
      { question: "second", stream: false, error: OpenAI.InternalServerError, fields: { status: 500, type: "server_error" } },
    ],
    toolCallId: "call_Q2bV7nXk4mR1sT9wE3yU6iOp",
    mismatchDiff: 'body.messages[0].content: expected "Name this thread", got "Name this chat"',
    keyEnv: "OPENAI_API_KEY",
  },
  {
    provider: "openai-responses",
    client: clients["openai-responses"],
    badRequest: OpenAI.BadRequestError,
    failures: [
      {
        question: "first",
        stream: false,
        error: OpenAI.RateLimitError,
        fields: { status: 429, type: "requests", code: "rate_limit_exceeded" },
        retryAfter: "20",
      },
      { question: "second", stream: false, error: OpenAI.InternalServerError, fields: { status: 500, type: "server_error" } },
    ],
    toolCallId: "call_Hk3pW9xQ2mZ7rT5vB1nY8cLd",
    mismatchDiff: 'body.input[0].content: expected "Name this thread", got "Name this chat"',
    keyEnv: "OPENAI_API_KEY",
  },
  {
    provider: "anthropic-messages",
    client: clients["anthropic-messages"],
    badRequest: Anthropic.BadRequestError,
    failures: [
      {
        question: "first",
        stream: false,
        error: Anthropic.RateLimitError,
        fields: { status: 429, type: "rate_limit_error" },
        retryAfter: "20",
      },
      { question: "second", stream: false, error: Anthropic.OverloadedError, fields: { status: 529, type: "overloaded_error" } },
      { question: "third", stream: true, error: Anthropic.APIError, fields: { status: undefined, type: "overloaded_error" } },
    ],
    toolCallId: "toolu_01A09q90qw90lq917835lq9Z",
    mismatchDiff: 'body.messages[0].content: expected "Name this thread", got "Name this chat"',
    keyEnv: "ANTHROPIC_API_KEY",
  },
];

const serve = async (provider: NewProvider, name: string) => {
  const server = await startReplayServer({ transcript: fixture(`${provider}/${name}`) });
  onTestFinished(() => server.close());
  return server;
};

const texts = (parsed: ReadonlyArray<Parsed>) => parsed.flatMap((item) => ("text" in item ? [item.text] : []));

/** Resolves once `count` text deltas arrived; a plain promise the test can await without timers. */
const arrivals = (count: number) => {
  let arrived = () => {};
  const promise = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  return { promise, seen: (received: number) => received === count && arrived() };
};

const drain = async (stream: AsyncIterable<Parsed>) => {
  const parsed: Array<Parsed> = [];
  const failure = await (async () => {
    for await (const item of stream) parsed.push(item);
  })().then(
    () => undefined,
    (error: unknown) => error,
  );
  return { parsed, failure };
};

describe.each(providers)(
  "$provider over HTTP, read by its official client",
  ({ provider, client, badRequest, failures, toolCallId, mismatchDiff, keyEnv }) => {
    it("holds a stream at a pause: the deltas before it arrive, the rest and the usage only after resume", async () => {
      const server = await serve(provider, "short-tour.ndjson");
      const stream = await client.stream(server.url, "Give me a short tour");
      let resumed = false;
      const received: Array<{ readonly item: Parsed; readonly afterResume: boolean }> = [];
      const beforePause = arrivals(3);
      const reading = (async () => {
        for await (const item of stream) {
          received.push({ item, afterResume: resumed });
          beforePause.seen(received.length);
        }
      })();

      await beforePause.promise;
      await server.paused("mid-stream");
      expect(server.status()).toMatchObject({ paused: "mid-stream", next: { type: "pause", summary: "pause mid-stream" } });
      resumed = true;
      server.resume();
      await reading;

      expect(received).toEqual([
        { item: { text: "This" }, afterResume: false },
        { item: { text: " project" }, afterResume: false },
        { item: { text: " has" }, afterResume: false },
        { item: { text: " two" }, afterResume: true },
        { item: { text: " files." }, afterResume: true },
        { item: { usage: { input: 12, output: 6 } }, afterResume: true },
      ]);
      expect(server.status()).toMatchObject({ remaining: 0, paused: null, mismatches: [], next: null });
    });

    it("streams a tool call in fragments the SDK assembles, then serves the turn carrying its result", async () => {
      const server = await serve(provider, "tool-call.ndjson");
      const call = await client.callTool(server.url);
      expect(call).toMatchObject({ id: toolCallId, name: "read_file", input: { path: "src/math.ts" }, usage: { input: 71, output: 16 } });
      expect(await client.answerTool(server.url, call, "export const sum = 1 + 1;\n")).toBe("It exports `sum`.");
      expect(server.status()).toMatchObject({ remaining: 0, mismatches: [] });
    });

    it("answers a fail line with its status, so the SDK raises the typed error for it", async () => {
      const server = await serve(provider, "failures.ndjson");
      for (const failure of failures) {
        const error = failure.stream
          ? (await drain(await client.stream(server.url, failure.question))).failure
          : await client.ask(server.url, failure.question).catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(failure.error);
        expect(error).toMatchObject(failure.fields);
        if (failure.retryAfter !== undefined) {
          expect(error instanceof OpenAI.APIError || error instanceof Anthropic.APIError ? error.headers?.get("retry-after") : null).toBe(
            failure.retryAfter,
          );
        }
      }
      expect(server.status()).toMatchObject({ remaining: 0, mismatches: [] });
    });

    it("drops the connection at a disconnect line, after the frames before it", async () => {
      const server = await serve(provider, "dropped-stream.ndjson");
      const { parsed, failure } = await drain(await client.stream(server.url, "Hi"));
      expect(texts(parsed)).toEqual(["Partial", " answ"]);
      expect(failure).toBeInstanceOf(Error);
      expect(server.status()).toMatchObject({ remaining: 0, mismatches: [] });
    });

    it("answers an unexpected request 400 replay_mismatch with a diff, and keeps the expectation for the right one", async () => {
      const server = await serve(provider, "non-streaming.ndjson");
      const mismatch = await client.ask(server.url, "Name this chat").catch((error: unknown) => error);
      expect(mismatch).toBeInstanceOf(badRequest);
      expect(mismatch).toMatchObject({ status: 400, type: "replay_mismatch" });
      // The message names the request by its last message (Anthropic's SDK shows the body as JSON, its quotes escaped).
      expect((mismatch as Error).message).toMatch(/could not replay POST \/v1\/\S+ \(last user message: \\?"Name this chat\\?"\): /);
      expect(server.status()).toMatchObject({ played: 0, remaining: 2, mismatches: [{ expectedLine: 3, diff: mismatchDiff }] });

      expect(await client.ask(server.url, "Name this thread")).toBe("Math helpers tour");
      expect(server.requests().map(({ matched }) => matched)).toEqual([false, true]);
      expect(server.status()).toMatchObject({ played: 2, remaining: 0 });
    });

    it("writes each frame as recorded: its event name when it has one, then its data", async () => {
      const server = await serve(provider, "tool-call.ndjson");
      const transcript = await loadTranscript(fixture(`${provider}/tool-call.ndjson`));
      const [first, ...rest] = transcript.entries;
      const answer = rest.slice(
        0,
        rest.findIndex((entry) => entry.type === "expect_outbound"),
      );
      // The first request's pattern holds only literals, so it is itself a request that matches.
      const request = first?.type === "expect_outbound" ? first.request : undefined;
      const response = await fetch(`${server.url}${String(request?.path)}`, { method: "POST", body: JSON.stringify(request?.body) });
      expect(response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
      expect(await response.text()).toBe(
        answer
          .map((entry) => (entry.type === "emit_inbound" ? entry.sse : undefined))
          .map(
            (sse) =>
              `${sse?.event === undefined ? "" : `event: ${sse.event}\n`}data: ${sse?.data === "[DONE]" ? sse.data : JSON.stringify(sse?.data)}\n\n`,
          )
          .join(""),
      );
    });

    it("waits out a delay line on the Effect clock before the next frame", async () => {
      const program = Effect.gen(function* () {
        const transcript = yield* readTranscript(fixture(`${provider}/slow-stream.ndjson`));
        const { url, runtime } = yield* serveTranscript(transcript);
        const parsed = (yield* Effect.promise(() => client.stream(url, "Hi")))[Symbol.asyncIterator]();
        const first = yield* Effect.promise(() => parsed.next());
        expect(first.value).toEqual({ text: "Thinking" });

        yield* TestClock.adjust("29 seconds");
        expect(yield* runtime.status).toMatchObject({ next: { type: "delay", summary: "delay 30000ms" } });

        yield* TestClock.adjust("1 second");
        const rest = yield* Effect.promise(async () => {
          const items: Array<Parsed> = [];
          for (let next = await parsed.next(); next.done !== true; next = await parsed.next()) items.push(next.value);
          return items;
        });
        expect(texts(rest)).toEqual([" done."]);
        expect(yield* runtime.status).toMatchObject({ remaining: 0, mismatches: [] });
      });
      await Effect.runPromise(program.pipe(Effect.scoped, Effect.provide(TestClock.layer())));
    });

    it("replays a recording made through replay-agent record to the same parsed result as the original", async () => {
      const toolTurn = async (url: string) => {
        const call = await client.callTool(url);
        return { call, answer: await client.answerTool(url, call, "export const sum = 1 + 1;\n") };
      };
      const original = await toolTurn((await serve(provider, "tool-call.ndjson")).url);

      const dir = await mkdtemp(join(tmpdir(), "replay-agent-round-trip-"));
      onTestFinished(() => rm(dir, { recursive: true, force: true }));
      const out = join(dir, "recorded.ndjson");
      const upstream = await serve(provider, "tool-call.ndjson");
      const recorder = await startRecorder({
        provider,
        upstream: upstream.url,
        out,
        env: { [keyEnv]: "sk-round0trip1key2for3the4recorder" },
      });
      const recorded = await toolTurn(recorder.url);
      expect((await recorder.stop("SIGTERM")).exitCode).toBe(0);
      expect(upstream.status()).toMatchObject({ remaining: 0, mismatches: [] });

      const replay = await startReplayServer({ transcript: out });
      onTestFinished(() => replay.close());
      const replayed = await toolTurn(replay.url);
      expect(recorded).toEqual(original);
      expect(replayed).toEqual(original);
      expect(replay.status()).toMatchObject({ remaining: 0, mismatches: [] });
      expect((await loadTranscript(out)).meta).toMatchObject({ provider, source: "recorded" });
    });
  },
);

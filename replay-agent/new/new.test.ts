import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Anthropic from "@anthropic-ai/sdk";
import * as Result from "effect/Result";
import OpenAI from "openai";
import { describe, expect, it, onTestFinished } from "vitest";
import { clients, type Parsed, type ProviderClient } from "../fixtures/clients.ts";
import { startReplayServer } from "../index.ts";
import type { NewProvider } from "../transcript/providers.ts";
import { decodeDescription } from "./description.ts";
import { writeTranscript } from "./write-transcript.ts";

/** A description written to a transcript by `replay-agent new`'s writer and served by the real replay agent. */
const serveNew = async (description: unknown) => {
  const decoded = decodeDescription("test", description);
  if (Result.isFailure(decoded)) throw decoded.failure;
  const text = writeTranscript("test", decoded.success, "replay-agent new --from test.json");
  if (Result.isFailure(text)) throw text.failure;
  const dir = await mkdtemp(join(tmpdir(), "replay-agent-new-"));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, "new.ndjson");
  await writeFile(file, text.success);
  const server = await startReplayServer({ transcript: file });
  onTestFinished(() => server.close());
  return { server, text: text.success };
};

/** Resolves once `count` items arrived; a plain promise the test can await without timers. */
const arrivals = (count: number) => {
  let arrived = () => {};
  const promise = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  return { promise, seen: (received: number) => received === count && arrived() };
};

const texts = (parsed: ReadonlyArray<Parsed>) => parsed.flatMap((item) => ("text" in item ? [item.text] : []));

/** A title request as an app sends one beside its turn: its own system prompt, the history, and the question last. */
const titleRequests: { readonly [P in NewProvider]: (url: string) => Promise<string> } = {
  "openai-chat": async (url) => {
    const completion = await new OpenAI({ baseURL: `${url}/v1`, apiKey: "replay", maxRetries: 0 }).chat.completions.create({
      model: "gpt-4o-mini",
      messages: [
        { role: "system", content: "You name chats." },
        { role: "user", content: "Give me a short tour" },
        { role: "user", content: "Name this chat in three words." },
      ],
    });
    return completion.choices[0]?.message.content ?? "";
  },
  "openai-responses": async (url) => {
    const response = await new OpenAI({ baseURL: `${url}/v1`, apiKey: "replay", maxRetries: 0 }).responses.create({
      model: "gpt-4o-mini",
      instructions: "You name chats.",
      input: [
        { role: "user", content: "Give me a short tour" },
        { role: "user", content: "Name this chat in three words." },
      ],
    });
    return response.output_text;
  },
  "anthropic-messages": async (url) => {
    const message = await new Anthropic({ baseURL: url, apiKey: "replay", maxRetries: 0 }).messages.create({
      model: "claude-sonnet-4-6",
      max_tokens: 64,
      system: "You name chats.",
      messages: [
        { role: "user", content: "Give me a short tour" },
        { role: "assistant", content: "Sure." },
        { role: "user", content: "Name this chat in three words." },
      ],
    });
    return message.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("");
  },
};

interface ProviderCase {
  readonly provider: NewProvider;
  readonly client: ProviderClient;
  /** The SDK's typed errors for a 429 and a 5xx, with the error type each body names. */
  readonly rateLimit: { readonly error: new (...args: never) => Error; readonly type: string };
  readonly serverError: { readonly status: number; readonly error: new (...args: never) => Error; readonly type: string };
  /** The fixture clients' tool follow-up leaves out stream_options, so openai-chat's tool transcript sends no usage chunk. */
  readonly toolOptions: Readonly<Record<string, unknown>>;
  readonly toolId: RegExp;
}

const providers: ReadonlyArray<ProviderCase> = [
  {
    provider: "openai-chat",
    client: clients["openai-chat"],
    rateLimit: { error: OpenAI.RateLimitError, type: "requests" },
    serverError: { status: 500, error: OpenAI.InternalServerError, type: "server_error" },
    toolOptions: { usage: false },
    toolId: /^call_[0-9A-Za-z]{24}$/,
  },
  {
    provider: "openai-responses",
    client: clients["openai-responses"],
    rateLimit: { error: OpenAI.RateLimitError, type: "requests" },
    serverError: { status: 503, error: OpenAI.InternalServerError, type: "server_error" },
    toolOptions: {},
    toolId: /^call_[0-9A-Za-z]{24}$/,
  },
  {
    provider: "anthropic-messages",
    client: clients["anthropic-messages"],
    rateLimit: { error: Anthropic.RateLimitError, type: "rate_limit_error" },
    serverError: { status: 529, error: Anthropic.OverloadedError, type: "overloaded_error" },
    toolOptions: {},
    toolId: /^toolu_01[0-9A-Za-z]{22}$/,
  },
];

const reply = "This project has two files: `math.ts` and README.md.";

describe.each(providers)(
  "replay-agent new for $provider, read by its official client",
  ({ provider, client, rateLimit, serverError, toolOptions, toolId }) => {
    it("streams the reply one token per delta, holds at the pause after the third, and ends with the usage", async () => {
      const { server } = await serveNew({ provider, turns: [{ user: "Give me a short tour", reply, pause: "mid-stream@3" }] });
      const received: Array<{ readonly item: Parsed; readonly afterResume: boolean }> = [];
      let resumed = false;
      const beforePause = arrivals(3);
      const reading = (async () => {
        for await (const item of await client.stream(server.url, "Give me a short tour")) {
          received.push({ item, afterResume: resumed });
          beforePause.seen(received.length);
        }
      })();
      await beforePause.promise;
      await server.paused("mid-stream");
      resumed = true;
      server.resume();
      await reading;

      const words = ["This", " project", " has", " two", " files", ":", " `", "math", ".ts", "`", " and", " README", ".md", "."];
      expect(words.join("")).toBe(reply);
      expect(received).toEqual([
        ...words.map((text, index) => ({ item: { text }, afterResume: index >= 3 })),
        { item: { usage: { input: expect.any(Number), output: words.length } }, afterResume: true },
      ]);
      expect(server.status()).toMatchObject({ remaining: 0, mismatches: [] });
    });

    it("cuts a delta in two writes held at a pause, the frame before joined to the first, and the SDK still reads every token", async () => {
      const { server, text } = await serveNew({ provider, turns: [{ user: "Give me a short tour", reply, cut: "half-event@2" }] });
      const lines = text
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line): Record<string, unknown> => JSON.parse(line));
      const cutAt = lines.findIndex((line) => line["cut"] !== undefined);
      expect(lines[cutAt]?.["cut"]).toEqual([{ at: expect.any(Number), pause: "half-event" }]);
      expect(lines[cutAt - 1]).toMatchObject({ type: "emit_inbound", join: true });
      const reading = (async () => {
        const items: Array<Parsed> = [];
        for await (const item of await client.stream(server.url, "Give me a short tour")) items.push(item);
        return items;
      })();
      await server.paused("half-event");
      server.resume();
      expect(texts(await reading).join("")).toBe(reply);
      expect(server.status()).toMatchObject({ remaining: 0, mismatches: [] });
    });

    it("streams a tool call in argument fragments, then answers the request carrying its result", async () => {
      const { server } = await serveNew({
        provider,
        ...toolOptions,
        turns: [
          {
            user: "What does src/math.ts export?",
            tools: [{ name: "read_file", arguments: { path: "src/math.ts" }, result: "export const sum" }],
          },
          { reply: "It exports `sum`." },
        ],
      });
      const call = await client.callTool(server.url);
      expect(call).toMatchObject({ id: expect.stringMatching(toolId), name: "read_file", input: { path: "src/math.ts" } });
      expect(await client.answerTool(server.url, call, "export const sum = 1 + 1;\n")).toBe("It exports `sum`.");
      expect(server.status()).toMatchObject({ remaining: 0, mismatches: [] });
    });

    it("answers a fail turn with the provider's error body, so the SDK raises its typed error", async () => {
      const { server } = await serveNew({
        provider,
        turns: [
          { user: "first", fail: 429 },
          { user: "second", fail: serverError.status },
        ],
      });
      const first = await client.ask(server.url, "first").catch((error: unknown) => error);
      expect(first).toBeInstanceOf(rateLimit.error);
      expect(first).toMatchObject({ status: 429, type: rateLimit.type });
      expect(first instanceof OpenAI.APIError || first instanceof Anthropic.APIError ? first.headers?.get("retry-after") : null).toBe("1");
      const second = await client.ask(server.url, "second").catch((error: unknown) => error);
      expect(second).toBeInstanceOf(serverError.error);
      expect(second).toMatchObject({ status: serverError.status, type: serverError.type });
      expect(server.status()).toMatchObject({ remaining: 0, mismatches: [] });
    });

    it("answers a background title request at once while the turn is held at a pause, as often as the app asks", async () => {
      const { server } = await serveNew({
        provider,
        turns: [{ user: "Give me a short tour", reply, pause: "mid-stream@2" }],
        background: [{ lane: "title", reply: "Math helpers tour", user: "Name this chat" }],
      });
      const reading = (async () => {
        const parsed: Array<Parsed> = [];
        for await (const item of await client.stream(server.url, "Give me a short tour")) parsed.push(item);
        return parsed;
      })();
      await server.paused("mid-stream");
      expect(await titleRequests[provider](server.url)).toBe("Math helpers tour");
      expect(await titleRequests[provider](server.url)).toBe("Math helpers tour");
      expect(server.status()).toMatchObject({ paused: "mid-stream", mismatches: [] });
      server.resume();
      expect(texts(await reading).join("")).toBe(reply);
      expect(server.status()).toMatchObject({ remaining: 0, mismatches: [] });
    });
  },
);

describe("replay-agent new for openai-chat's usage chunk", () => {
  const stream = (url: string, includeUsage: boolean) =>
    new OpenAI({ baseURL: `${url}/v1`, apiKey: "replay", maxRetries: 0 }).chat.completions.create({
      model: "gpt-4o-mini",
      messages: [{ role: "user", content: "Hi" }],
      stream: true,
      ...(includeUsage ? { stream_options: { include_usage: true } } : {}),
    });

  it("without usage, sends no usage chunk and accepts a request that does not ask for one", async () => {
    const { server, text } = await serveNew({ provider: "openai-chat", usage: false, turns: [{ user: "Hi", reply: "Hello!" }] });
    const chunks = [];
    for await (const chunk of await stream(server.url, false)) chunks.push(chunk);
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? null)).toEqual(["", "Hello", "!", null]);
    expect(chunks.every((chunk) => chunk.usage === undefined)).toBe(true);
    expect(text).not.toContain("stream_options");
    expect(server.status()).toMatchObject({ remaining: 0, mismatches: [] });
  });

  it("by default, expects stream_options.include_usage, so a request without it is a mismatch that names it", async () => {
    const { server } = await serveNew({ provider: "openai-chat", turns: [{ user: "Hi", reply: "Hello!" }] });
    const mismatch = await stream(server.url, false).catch((error: unknown) => error);
    expect(mismatch).toBeInstanceOf(OpenAI.BadRequestError);
    expect(server.status().mismatches).toMatchObject([
      { diff: 'body.stream_options: expected {"include_usage":true}, got nothing (the key is missing)' },
    ]);
    const chunks = [];
    for await (const chunk of await stream(server.url, true)) chunks.push(chunk);
    expect(chunks.at(-1)?.usage).toMatchObject({ completion_tokens: 2, total_tokens: expect.any(Number) });
  });
});

describe("replay-agent new's description", () => {
  it.each([
    [
      { provider: "openai-chat", turns: [{ reply: "Hi" }] },
      'd.json: turns[0]: a turn needs "user": the last user message its request carries. Add it; only a turn right after one with "tools" leaves it out',
    ],
    [
      {
        provider: "openai-chat",
        turns: [
          { user: "Hi", tools: [{ name: "list_files" }] },
          { user: "Hi", reply: "Done." },
        ],
      },
      'd.json: turns[1]: this turn follows a tool call, so its request carries the tool results, not a user message. Remove "user", or end the turn before with no "tools"',
    ],
    [
      { provider: "openai-chat", turns: [{ user: "Hi", reply: "Hi", stream: false, pause: "p@0" }] },
      'd.json: turns[0]: a turn that is not streamed has no deltas to pause after or cut. Remove "pause" and "cut", or "stream": false',
    ],
    [
      { provider: "anthropic-messages", usage: false, turns: [{ user: "Hi", reply: "Hi" }] },
      'd.json: usage: only openai-chat makes the usage chunk a choice (stream_options.include_usage); anthropic-messages always sends usage. Remove "usage"',
    ],
    [
      { provider: "openai-chat", turns: [{ user: "Hi", reply: "Hi", tool: [] }] },
      'd.json: "turns[0].tool" is not a field of a description (check its spelling). Write it like',
    ],
  ])("rejects %j, naming where and what to write instead", (description, message) => {
    const decoded = decodeDescription("d.json", description);
    expect(Result.isFailure(decoded) ? decoded.failure.message : "decoded").toContain(message);
  });
});

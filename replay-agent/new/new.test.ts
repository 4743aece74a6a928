import Anthropic from "@anthropic-ai/sdk";
import { ConverseCommand, InternalServerException, ThrottlingException } from "@aws-sdk/client-bedrock-runtime";
import { ApiError, GoogleGenAI } from "@google/genai";
import { Cohere, CohereClientV2 } from "cohere-ai";
import * as Result from "effect/Result";
import { Ollama } from "ollama";
import OpenAI from "openai";
import { describe, expect, it, onTestFinished } from "vitest";
import { bedrockClient, clients, type Parsed, type ProviderClient } from "../fixtures/clients.ts";
import { writeNew } from "../fixtures/new-file.ts";
import { startReplayServer } from "../index.ts";
import type { NewHttpProvider } from "../transcript/providers.ts";
import { decodeDescription } from "./description.ts";

/** A description written to a transcript by `replay-agent new`'s writer and served by the real replay agent. */
const serveNew = async (description: unknown) => {
  const { file, text } = await writeNew(description);
  const server = await startReplayServer({ transcript: file });
  onTestFinished(() => server.close());
  return { server, text };
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

/** The official clients, built as an app builds them, with retries off so each error reaches the test. */
const openai = (url: string) => new OpenAI({ baseURL: `${url}/v1`, apiKey: "replay", maxRetries: 0 });
const anthropic = (url: string) => new Anthropic({ baseURL: url, apiKey: "replay", maxRetries: 0 });
const google = (url: string) => new GoogleGenAI({ apiKey: "replay", httpOptions: { baseUrl: url } });
const cohereClient = (url: string) => new CohereClientV2({ token: "replay", environment: url });

/** A title request as an app sends one beside its turn: its own system prompt, the history, and the question last. */
const titleRequests: { readonly [P in NewHttpProvider]: (url: string) => Promise<string> } = {
  "openai-chat": async (url) => {
    const completion = await openai(url).chat.completions.create({
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
    const response = await openai(url).responses.create({
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
    const message = await anthropic(url).messages.create({
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
  gemini: async (url) => {
    const response = await google(url).models.generateContent({
      model: "gemini-2.5-flash",
      contents: [
        { role: "user", parts: [{ text: "Give me a short tour" }] },
        { role: "model", parts: [{ text: "Sure." }] },
        { role: "user", parts: [{ text: "Name this chat in three words." }] },
      ],
      config: { systemInstruction: "You name chats." },
    });
    return response.text ?? "";
  },
  ollama: async (url) => {
    const response = await new Ollama({ host: url }).chat({
      model: "llama3.2",
      messages: [
        { role: "system", content: "You name chats." },
        { role: "user", content: "Give me a short tour" },
        { role: "user", content: "Name this chat in three words." },
      ],
    });
    return response.message.content;
  },
  bedrock: async (url) => {
    const response = await bedrockClient(url).send(
      new ConverseCommand({
        modelId: "anthropic.claude-3-5-haiku-20241022-v1:0",
        system: [{ text: "You name chats." }],
        messages: [
          { role: "user", content: [{ text: "Give me a short tour" }] },
          { role: "assistant", content: [{ text: "Sure." }] },
          { role: "user", content: [{ text: "Name this chat in three words." }] },
        ],
      }),
    );
    return response.output?.message?.content?.map((block) => block.text ?? "").join("") ?? "";
  },
  cohere: async (url) => {
    const response = await cohereClient(url).chat(
      {
        model: "command-a-03-2025",
        messages: [
          { role: "system", content: "You name chats." },
          { role: "user", content: "Give me a short tour" },
          { role: "user", content: "Name this chat in three words." },
        ],
      },
      { maxRetries: 0 },
    );
    return (response.message.content ?? []).map((item) => (item.type === "text" ? item.text : "")).join("");
  },
};

/** An SDK's typed error, the fields it parsed from the error body, and where it says when to retry. */
interface TypedError {
  readonly error: new (...args: never) => Error;
  readonly fields: Readonly<Record<string, unknown>>;
}

interface ProviderCase {
  readonly provider: NewHttpProvider;
  readonly client: ProviderClient;
  /** The SDK's typed errors for a 429 and a 5xx. */
  readonly rateLimit: TypedError;
  readonly serverError: TypedError & { readonly status: number };
  /** When to retry, as the SDK hands it to the app after a 429 (undefined: the provider does not say). */
  readonly retryAfter: (error: unknown) => string | undefined;
  readonly wait: string | undefined;
  /** The fixture clients' tool follow-up leaves out stream_options, so openai-chat's tool transcript sends no usage chunk. */
  readonly toolOptions: Readonly<Record<string, unknown>>;
  /** The tool call id the SDK reads ("" when the provider names no tool calls). */
  readonly toolId: RegExp;
}

const openaiRetryAfter = (error: unknown) =>
  error instanceof OpenAI.APIError ? (error.headers?.get("retry-after") ?? undefined) : undefined;
const noRetryAfter = () => undefined;
/** Gemini says when to retry in the error's details, which the SDK keeps as the error's message (its JSON body). */
const geminiRetryDelay = (error: unknown): string | undefined => {
  if (!(error instanceof ApiError)) return undefined;
  const body: { error?: { details?: ReadonlyArray<{ retryDelay?: string }> } } = JSON.parse(error.message);
  return body.error?.details?.[0]?.retryDelay;
};

const providers: ReadonlyArray<ProviderCase> = [
  {
    provider: "openai-chat",
    client: clients["openai-chat"],
    rateLimit: { error: OpenAI.RateLimitError, fields: { status: 429, type: "requests" } },
    serverError: { status: 500, error: OpenAI.InternalServerError, fields: { status: 500, type: "server_error" } },
    retryAfter: openaiRetryAfter,
    wait: "1",
    toolOptions: { usage: false },
    toolId: /^call_[0-9A-Za-z]{24}$/,
  },
  {
    provider: "openai-responses",
    client: clients["openai-responses"],
    rateLimit: { error: OpenAI.RateLimitError, fields: { status: 429, type: "requests" } },
    serverError: { status: 503, error: OpenAI.InternalServerError, fields: { status: 503, type: "server_error" } },
    retryAfter: openaiRetryAfter,
    wait: "1",
    toolOptions: {},
    toolId: /^call_[0-9A-Za-z]{24}$/,
  },
  {
    provider: "anthropic-messages",
    client: clients["anthropic-messages"],
    rateLimit: { error: Anthropic.RateLimitError, fields: { status: 429, type: "rate_limit_error" } },
    serverError: { status: 529, error: Anthropic.OverloadedError, fields: { status: 529, type: "overloaded_error" } },
    retryAfter: (error) => (error instanceof Anthropic.APIError ? (error.headers?.get("retry-after") ?? undefined) : undefined),
    wait: "1",
    toolOptions: {},
    toolId: /^toolu_01[0-9A-Za-z]{22}$/,
  },
  {
    provider: "gemini",
    client: clients.gemini,
    rateLimit: { error: ApiError, fields: { status: 429, message: expect.stringContaining('"status":"RESOURCE_EXHAUSTED"') } },
    serverError: { status: 503, error: ApiError, fields: { status: 503, message: expect.stringContaining('"status":"UNAVAILABLE"') } },
    retryAfter: geminiRetryDelay,
    wait: "1s",
    toolOptions: {},
    toolId: /^$/,
  },
  {
    provider: "ollama",
    client: clients.ollama,
    rateLimit: { error: Error, fields: { name: "ResponseError", status_code: 429, error: "too many requests" } },
    serverError: {
      status: 500,
      error: Error,
      fields: { name: "ResponseError", status_code: 500, error: "llama runner process has terminated: exit status 2" },
    },
    retryAfter: noRetryAfter,
    wait: undefined,
    toolOptions: {},
    toolId: /^$/,
  },
  {
    provider: "bedrock",
    client: clients.bedrock,
    rateLimit: {
      error: ThrottlingException,
      fields: {
        name: "ThrottlingException",
        message: "Too many requests, please wait before trying again.",
        $metadata: { httpStatusCode: 429 },
      },
    },
    serverError: {
      status: 500,
      error: InternalServerException,
      fields: { name: "InternalServerException", $metadata: { httpStatusCode: 500 } },
    },
    retryAfter: noRetryAfter,
    wait: undefined,
    toolOptions: {},
    toolId: /^tooluse_[0-9A-Za-z]{22}$/,
  },
  {
    provider: "cohere",
    client: clients.cohere,
    rateLimit: {
      error: Cohere.TooManyRequestsError,
      fields: { statusCode: 429, body: { message: "You are past the per minute request limit, please wait and try again later." } },
    },
    serverError: { status: 500, error: Cohere.InternalServerError, fields: { statusCode: 500 } },
    retryAfter: noRetryAfter,
    wait: undefined,
    toolOptions: {},
    toolId: /^read_file_[0-9a-z]{12}$/,
  },
];

const reply = "This project has two files: `math.ts` and README.md.";

describe.each(providers)(
  "replay-agent new for $provider, read by its official client",
  ({ provider, client, rateLimit, serverError, retryAfter, wait, toolOptions, toolId }) => {
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

    it("answers a turn that is not streamed with one whole response, held before it at a pause @0", async () => {
      const { server } = await serveNew({
        provider,
        turns: [{ user: "Give me a short tour", reply, stream: false, pause: "before-answer@0" }],
      });
      const asking = client.ask(server.url, "Give me a short tour");
      await server.paused("before-answer");
      server.resume();
      expect(await asking).toBe(reply);
      expect(server.status()).toMatchObject({ remaining: 0, mismatches: [] });
    });

    it("streams a tool call after text, then answers the request carrying its result", async () => {
      const { server } = await serveNew({
        provider,
        ...toolOptions,
        turns: [
          {
            user: "What does src/math.ts export?",
            reply: "Let me read it.",
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
      expect(first).toMatchObject(rateLimit.fields);
      expect(retryAfter(first)).toBe(wait);
      const second = await client.ask(server.url, "second").catch((error: unknown) => error);
      expect(second).toBeInstanceOf(serverError.error);
      expect(second).toMatchObject(serverError.fields);
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

/** The thinking and reply an SDK read, and the signature it keeps to send the thinking back (Anthropic's). */
interface ReadThinking {
  readonly thinking: string;
  readonly reply: string;
  readonly signature?: string;
}

interface ThinkingCase {
  readonly provider: NewHttpProvider;
  /** Asks `question` with thinking on, streamed or whole, as an app does; resolves with what the SDK read. */
  readonly read: (url: string, question: string, stream: boolean) => Promise<ReadThinking>;
  readonly signature: unknown;
}

const thinkingCases: ReadonlyArray<ThinkingCase> = [
  {
    provider: "anthropic-messages",
    read: async (url, question, stream) => {
      const params: Anthropic.MessageCreateParamsNonStreaming = {
        model: "claude-sonnet-4-6",
        max_tokens: 2048,
        thinking: { type: "enabled", budget_tokens: 1024 },
        messages: [{ role: "user", content: question }],
      };
      let thinking = "";
      const message = stream
        ? await (async () => {
            const streamed = anthropic(url).messages.stream(params);
            for await (const event of streamed) {
              if (event.type === "content_block_delta" && event.delta.type === "thinking_delta") thinking += event.delta.thinking;
            }
            return streamed.finalMessage();
          })()
        : await anthropic(url).messages.create(params);
      const block = message.content.find((item) => item.type === "thinking");
      return {
        thinking: stream ? thinking : (block?.thinking ?? ""),
        reply: message.content.flatMap((item) => (item.type === "text" ? [item.text] : [])).join(""),
        signature: block?.signature ?? "",
      };
    },
    signature: expect.stringMatching(/^Eq[A-Za-z0-9+/]+=*$/),
  },
  {
    provider: "openai-responses",
    read: async (url, question, stream) => {
      const params: OpenAI.Responses.ResponseCreateParamsNonStreaming = {
        model: "gpt-5-mini",
        input: [{ role: "user", content: question }],
        reasoning: { effort: "low", summary: "auto" },
      };
      if (!stream) {
        const response = await openai(url).responses.create(params);
        const reasoning = response.output.find((item) => item.type === "reasoning");
        return {
          thinking: reasoning?.type === "reasoning" ? reasoning.summary.map((part) => part.text).join("") : "",
          reply: response.output_text,
        };
      }
      let thinking = "";
      let reply = "";
      for await (const event of await openai(url).responses.create({ ...params, stream: true })) {
        if (event.type === "response.reasoning_summary_text.delta") thinking += event.delta;
        if (event.type === "response.output_text.delta") reply += event.delta;
      }
      return { thinking, reply };
    },
    signature: undefined,
  },
  {
    provider: "gemini",
    read: async (url, question, stream) => {
      const params = { model: "gemini-2.5-flash", contents: question, config: { thinkingConfig: { includeThoughts: true } } };
      const responses = [];
      if (stream) for await (const chunk of await google(url).models.generateContentStream(params)) responses.push(chunk);
      else responses.push(await google(url).models.generateContent(params));
      const parts = responses.flatMap((response) => response.candidates?.[0]?.content?.parts ?? []);
      const join = (thought: boolean) =>
        parts.flatMap((part) => ((part.thought === true) === thought && part.text !== undefined ? [part.text] : [])).join("");
      return { thinking: join(true), reply: join(false) };
    },
    signature: undefined,
  },
];

describe.each(thinkingCases)("replay-agent new's thinking for $provider", ({ provider, read, signature }) => {
  it("streams the thinking before the reply, and answers whole with it, read back by the official client", async () => {
    const thinking = "The user wants a tour. There are two files, so I will name both.";
    const { server } = await serveNew({
      provider,
      turns: [
        { user: "Give me a short tour", thinking, reply },
        { user: "Once more, whole", thinking, reply, stream: false },
      ],
    });
    expect(await read(server.url, "Give me a short tour", true)).toEqual({ thinking, reply, signature });
    expect(await read(server.url, "Once more, whole", false)).toEqual({ thinking, reply, signature });
    expect(server.status()).toMatchObject({ remaining: 0, mismatches: [] });
  });
});

/** How an app may send the person's message: a string, a list of text blocks (as the Vercel AI SDK does), or (Responses) the input alone. */
type MessageShape = "string" | "blocks" | "bare input";

/** Sends `text` in `shape` with the provider's official client, not streamed; resolves with the reply it read. */
const sendShaped: {
  readonly [P in "openai-chat" | "openai-responses" | "anthropic-messages" | "cohere"]: (
    url: string,
    text: string,
    shape: MessageShape,
  ) => Promise<string>;
} = {
  "openai-chat": async (url, text, shape) => {
    const content = shape === "blocks" ? [{ type: "text" as const, text }] : text;
    const completion = await openai(url).chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content }] });
    return completion.choices[0]?.message.content ?? "";
  },
  "openai-responses": async (url, text, shape) => {
    const content = shape === "blocks" ? [{ type: "input_text" as const, text }] : text;
    const input = shape === "bare input" ? text : [{ role: "user" as const, content }];
    return (await openai(url).responses.create({ model: "gpt-4o-mini", input })).output_text;
  },
  "anthropic-messages": async (url, text, shape) => {
    const content = shape === "blocks" ? [{ type: "text" as const, text }] : text;
    const message = await anthropic(url).messages.create({
      model: "claude-sonnet-4-6",
      max_tokens: 64,
      messages: [{ role: "user", content }],
    });
    return message.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("");
  },
  cohere: async (url, text, shape) => {
    const content = shape === "blocks" ? [{ type: "text" as const, text }] : text;
    const response = await cohereClient(url).chat({ model: "command-a-03-2025", messages: [{ role: "user", content }] }, { maxRetries: 0 });
    return (response.message.content ?? []).map((item) => (item.type === "text" ? item.text : "")).join("");
  },
};

describe("replay-agent new's user message", () => {
  it.each([
    ["openai-chat", "string"],
    ["openai-chat", "blocks"],
    ["openai-responses", "string"],
    ["openai-responses", "blocks"],
    ["openai-responses", "bare input"],
    ["anthropic-messages", "string"],
    ["anthropic-messages", "blocks"],
    ["cohere", "string"],
    ["cohere", "blocks"],
  ] as const)("matches %s's last user message sent as %s", async (provider, shape) => {
    const { server } = await serveNew({ provider, turns: [{ user: "Give me a short tour", reply, stream: false }] });
    expect(await sendShaped[provider](server.url, "Give me a short tour", shape)).toBe(reply);
    expect(server.status()).toMatchObject({ remaining: 0, mismatches: [] });
  });
});

describe("replay-agent new for openai-chat's usage chunk", () => {
  const stream = (url: string, includeUsage: boolean) =>
    openai(url).chat.completions.create({
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
      { provider: "openai-chat", turns: [{ user: "Hi", reply: "Hi", stream: false, pause: "p@1" }] },
      'd.json: turns[0]: a turn that is not streamed has no deltas to pause after or cut: it can hold only before its answer. Make each pause "name@0" and remove "cut", or remove "stream": false',
    ],
    [
      { provider: "anthropic-messages", usage: false, turns: [{ user: "Hi", reply: "Hi" }] },
      'd.json: usage: only openai-chat makes the usage chunk a choice (stream_options.include_usage); anthropic-messages always sends usage. Remove "usage"',
    ],
    [
      { provider: "ollama", turns: [{ user: "Hi", thinking: "A greeting.", reply: "Hi" }] },
      'd.json: turns[0].thinking: replay-agent new writes no thinking for ollama, only for openai-responses, anthropic-messages, gemini, opencode, jsonrpc-stdio, codex-app-server, codex-exec and claude-code. Remove "thinking"',
    ],
    [
      { provider: "ollama", turns: [{ user: "Hi", tools: [{ name: "list_files", id: "call_1" }] }, { reply: "Done." }] },
      'd.json: turns[0].tools[0].id: ollama names no tool calls: its tool calls and tool results carry no id. Remove "id"',
    ],
    [
      { provider: "gemini", turns: [{ user: "Hi", thinking: "A greeting.", fail: 429 }] },
      'd.json: turns[0]: "fail" answers the request with an error status alone. Remove "reply", "thinking", "tools", "pause", "cut" and "usage"',
    ],
    [
      { provider: "openai-realtime", turns: [{ user: "Hi", thinking: "A greeting.", reply: "Hi" }] },
      "d.json: turns[0].thinking: replay-agent new writes no thinking for openai-realtime, only for",
    ],
    [
      { provider: "claude-code", turns: [{ user: "Hi", fail: 429 }] },
      'd.json: turns[0].fail: replay-agent new writes no "fail" (--fail) for claude-code: its agent answers with messages, not HTTP statuses, whole responses or frames to cut. Remove "fail"',
    ],
    [
      {
        provider: "codex-app-server",
        turns: [{ user: "Hi", tools: [{ name: "list_files", arguments: { path: "src" } }] }, { reply: "Done." }],
      },
      'd.json: turns[0].tools[0]: codex runs its tools as shell commands, so a tool call is "shell" with a "command" string, not "list_files" with {"path":"src"}. Write it like --tool \'shell {"command":"ls src"}\'',
    ],
    [
      {
        provider: "codex-exec",
        turns: [
          { user: "Hi", reply: "Hi" },
          { user: "Again", reply: "Hi" },
        ],
      },
      "d.json: turns: codex-exec runs one prompt a process, and this description has 2. Describe each run in a file of its own",
    ],
    [
      { provider: "jsonrpc-stdio", model: "claude-sonnet-4-5", turns: [{ user: "Hi", reply: "Hi" }] },
      'd.json: model: jsonrpc-stdio names no model: nothing the app sends carries one. Remove "model"',
    ],
    [
      { provider: "claude-code", turns: [{ user: "Hi", reply: "Hi" }], background: [{ lane: "title", reply: "Greeting" }] },
      'd.json: background: claude-code is one session of messages: there are no requests beside it to answer in a lane of their own. Remove "background"',
    ],
    [
      { provider: "openai-chat", pace: {}, turns: [{ user: "Hi", reply: "Hi" }] },
      'd.json: pace: it sets no pace. Write it like "pace":{"tokensPerSecond":40,"firstTokenMs":600}, either or both, or remove it',
    ],
    [
      { provider: "openai-chat", pace: { tokensPerSecond: -3 }, turns: [{ user: "Hi", reply: "Hi" }] },
      'd.json: "pace.tokensPerSecond": expected tokens per second, a number greater than 0, like 40. Write it like "pace":{"tokensPerSecond":40,"firstTokenMs":600}',
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

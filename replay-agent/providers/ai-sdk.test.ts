import { createGoogleGenerativeAI } from "@ai-sdk/google";
import {
  APICallError,
  generateText,
  jsonSchema,
  stepCountIs,
  streamText,
  tool,
  type LanguageModel,
  type StreamTextResult,
  type ToolSet,
} from "ai";
import { createOllama } from "ollama-ai-provider-v2";
import { describe, expect, it, onTestFinished, vi } from "vitest";
import { fixture } from "../fixtures/fixture.ts";
import { fixtureLines, writeVariant, type Line } from "../fixtures/variant.ts";
import { startReplayServer } from "../index.ts";

type Server = Awaited<ReturnType<typeof startReplayServer>>;

const serve = async (transcript: string) => {
  const server = await startReplayServer({ transcript });
  onTestFinished(() => server.close());
  return server;
};

/** What the AI SDK parsed from a stream: reasoning and text deltas, tool calls, the finish, and errors. */
type Parsed =
  | { readonly reasoning: string }
  | { readonly text: string }
  | { readonly toolCall: string; readonly input: unknown }
  | { readonly finish: string }
  | { readonly error: unknown };

/** Resolves once `count` items arrived; a plain promise the test can await without timers. */
const arrivals = (count: number) => {
  let arrived = () => {};
  const promise = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  return { promise, seen: (received: number) => received === count && arrived() };
};

/** Reads a streamText result to its end, noting for each item whether it arrived after `resumed()` turned true. */
const readAll = async <TOOLS extends ToolSet>(
  stream: StreamTextResult<TOOLS, never>,
  resumed: () => boolean = () => false,
  onItem: (count: number) => void = () => {},
) => {
  const received: Array<{ readonly item: Parsed; readonly afterResume: boolean }> = [];
  for await (const part of stream.fullStream) {
    const item: ReadonlyArray<Parsed> =
      part.type === "reasoning-delta"
        ? [{ reasoning: part.text }]
        : part.type === "text-delta"
          ? [{ text: part.text }]
          : part.type === "tool-call"
            ? [{ toolCall: part.toolName, input: part.input }]
            : part.type === "finish-step"
              ? [{ finish: part.finishReason }]
              : part.type === "error"
                ? [{ error: part.error }]
                : [];
    for (const one of item) {
      received.push({ item: one, afterResume: resumed() });
      onItem(received.length);
    }
  }
  return received;
};

const readFile = tool({
  description: "Read a file of the project",
  inputSchema: jsonSchema<{ path: string }>({ type: "object", properties: { path: { type: "string" } } }),
  execute: () => Promise.resolve("export const sum = 1 + 1;\n"),
});

/** One provider as an AI SDK app reaches it, and the fixtures it plays. */
interface Provider {
  readonly name: string;
  /** The language model an app builds with the provider's factory, its baseURL at the replay agent. */
  readonly model: (url: string, id?: string) => LanguageModel;
  readonly providerOptions?: Parameters<typeof streamText>[0]["providerOptions"];
  readonly fixtures: { readonly tour: string; readonly cut: string; readonly cutPause: string; readonly whole: string };
  /** The tool-call fixture as the AI SDK asks for it. */
  readonly toolCall: () => Promise<string>;
  /** The stream items before the pause of the tour, and the whole tour. */
  readonly tour: ReadonlyArray<Parsed>;
  readonly beforePause: number;
  /** The cut fixture's prompt and what the SDK parsed from it. */
  readonly cutPrompt: string;
  readonly cut: ReadonlyArray<Parsed>;
  /** The text deltas of the answer to the tool's result. */
  readonly toolAnswer: ReadonlyArray<Parsed>;
  /** The failures fixture's requests in order, and what the AI SDK made of each. */
  readonly failures: { readonly fixture: string; readonly calls: ReadonlyArray<Call> };
}

/** One request of a failures fixture: the model asked, the prompt, whether the app streams it, and what the SDK raised. */
interface Call {
  readonly model?: string;
  readonly prompt: string;
  readonly stream: boolean;
  readonly raised: Failure;
}

/** What the app saw of a failed call: the texts that arrived, the stream's finish, its APICallError, and the SDK's warnings. */
interface Failure {
  readonly texts: ReadonlyArray<string>;
  readonly finish?: string;
  readonly error?: { readonly status?: number; readonly message: string; readonly body?: unknown };
  readonly warned?: ReadonlyArray<string>;
}

/** Replaces in `lines` every expect_outbound body by `change(body, index of the request)`. */
const changeBodies = async (name: string, change: (body: Record<string, unknown>, index: number) => Record<string, unknown>) => {
  let index = 0;
  const lines = (await fixtureLines(name)).map((line): Line => {
    if (line.type !== "expect_outbound") return line;
    const request = line.request as Record<string, unknown>;
    return { ...line, request: { ...request, body: change(request.body as Record<string, unknown>, index++) } };
  });
  return writeVariant(lines);
};

const gemini: Provider = {
  name: "gemini",
  // The AI SDK appends /models/<id>:streamGenerateContent to its baseURL, which defaults to /v1beta;
  // the fixtures were recorded through @google/genai, which calls /v1, so the app names /v1.
  model: (url, id = "gemini-2.5-flash") => createGoogleGenerativeAI({ baseURL: `${url}/v1`, apiKey: "replay" })(id),
  providerOptions: { google: { thinkingConfig: { includeThoughts: true } } },
  fixtures: {
    tour: "gemini/short-tour.ndjson",
    cut: "gemini/split-frame.ndjson",
    cutPause: "half-event",
    whole: "gemini/non-streaming.ndjson",
  },
  // The AI SDK declares a tool's schema as OpenAPI `parameters` where @google/genai passes
  // `parametersJsonSchema`, and sends a tool's result as `response: {name, content}` where the
  // fixture's app sent `response: {output}`.
  toolCall: () =>
    changeBodies("gemini/tool-call.ndjson", (body, index) => {
      const tools = [
        {
          functionDeclarations: [
            {
              name: "read_file",
              description: "Read a file of the project",
              parameters: { type: "object", properties: { path: { type: "string" } } },
            },
          ],
        },
      ];
      if (index === 0) return { ...body, tools };
      const contents = body.contents as ReadonlyArray<unknown>;
      const result = {
        role: "user",
        parts: [{ functionResponse: { name: "read_file", response: { name: "read_file", content: { $contains: "export const sum" } } } }],
      };
      return { ...body, contents: [...contents.slice(0, -1), result], tools };
    }),
  tour: [
    { reasoning: "**Surveying the project**\n\nThe user wants a short tour, so I will name its files.\n\n" },
    { text: "This" },
    { text: " project" },
    { text: " has" },
    { text: " two" },
    { text: " files." },
    { finish: "stop" },
  ],
  beforePause: 4,
  failures: {
    fixture: "gemini/failures.ndjson",
    calls: [
      {
        prompt: "first",
        stream: false,
        raised: {
          texts: [],
          error: {
            status: 429,
            message: expect.stringMatching(/^You exceeded your current quota, please check your plan and billing details\./),
            body: { error: expect.objectContaining({ code: 429, status: "RESOURCE_EXHAUSTED" }) },
          },
        },
      },
      {
        prompt: "second",
        stream: true,
        raised: {
          texts: [],
          finish: undefined,
          error: {
            status: 503,
            message: "The model is overloaded. Please try again later.",
            body: { error: { code: 503, message: "The model is overloaded. Please try again later.", status: "UNAVAILABLE" } },
          },
        },
      },
      {
        prompt: "third",
        stream: true,
        raised: {
          texts: ["Partial"],
          finish: "error",
          error: {
            status: 500,
            message: expect.stringMatching(/^An internal error has occurred\./),
            body: { error: expect.objectContaining({ code: 500, status: "INTERNAL" }) },
          },
        },
      },
    ],
  },
  cutPrompt: "What is the capital of France?",
  toolAnswer: [{ text: "It exports" }, { text: " `sum`." }],
  cut: [{ text: "The capital of France is" }, { text: " Paris" }, { text: ", on the Seine." }, { finish: "stop" }],
};

const ollama: Provider = {
  name: "ollama",
  // The AI SDK appends /chat to its baseURL, which names Ollama's /api.
  model: (url, id = "llama3.2") => createOllama({ baseURL: `${url}/api` })(id),
  fixtures: {
    tour: "ollama/short-tour.ndjson",
    cut: "ollama/cut-line.ndjson",
    cutPause: "half-line",
    whole: "ollama/non-streaming.ndjson",
  },
  // The AI SDK sends a tool's result with the call's `tool_call_id` where the ollama client sends
  // `tool_name`.
  toolCall: () =>
    changeBodies("ollama/tool-call.ndjson", (body, index) =>
      index === 0
        ? body
        : { ...body, messages: { $last: { role: "tool", content: { $contains: "export const sum" }, tool_call_id: { $any: true } } } },
    ),
  tour: [{ text: "This" }, { text: " project" }, { text: " has" }, { text: " two" }, { text: " files." }, { finish: "stop" }],
  beforePause: 3,
  failures: {
    fixture: "ollama/failures.ndjson",
    calls: [
      // ollama-ai-provider-v2 reads an error body as {"error":{"message":…}}, the OpenAI shape, so
      // for Ollama's {"error":"…"} its message is the HTTP status text and the error is in the body.
      {
        model: "llama3.2:70b",
        prompt: "first",
        stream: false,
        raised: {
          texts: [],
          error: { status: 404, message: "Not Found", body: { error: 'model "llama3.2:70b" not found, try pulling it first' } },
        },
      },
      // A finding, not the fixture's fault: Ollama ends a failing stream with an {"error":"…"} line, and
      // ollama-ai-provider-v2 3.6 validates every line as a chat chunk before it looks for "error", so it
      // warns and drops the line: the app sees a truncated answer that finishes with no error.
      {
        prompt: "second",
        stream: true,
        raised: { texts: ["Partial"], finish: "other", warned: ["Failed to parse NDJSON line:"] },
      },
      {
        prompt: "third",
        stream: true,
        raised: {
          texts: [],
          finish: undefined,
          error: { status: 500, message: "Internal Server Error", body: { error: "llama runner process has terminated: exit status 2" } },
        },
      },
    ],
  },
  cutPrompt: "Give me a short tour",
  toolAnswer: [{ text: "It" }, { text: " exports" }, { text: " `sum`." }],
  cut: [{ text: "This" }, { text: " project" }, { text: " has" }, { text: " two" }, { text: " files." }, { finish: "stop" }],
};

/** Streams `prompt`, waits for `before` items and the pause `name`, then resumes and reads the rest. */
const heldAt = async (server: Server, provider: Provider, prompt: string, name: string, before: number) => {
  const stream = streamText({ model: provider.model(server.url), prompt, providerOptions: provider.providerOptions, maxRetries: 0 });
  let resumed = false;
  const beforePause = arrivals(before);
  const reading = readAll(stream, () => resumed, beforePause.seen);
  await beforePause.promise;
  await server.paused(name);
  resumed = true;
  server.resume();
  return reading;
};

/** An APICallError as the test compares it: its status, message and parsed body. */
const described = (error: unknown) =>
  error instanceof APICallError
    ? { status: error.statusCode, message: error.message, body: JSON.parse(error.responseBody ?? "null") as unknown }
    : { message: String(error) };

/** Makes `call` through generateText or streamText, and tells what the app saw. */
const failed = async (server: Server, provider: Provider, call: Call): Promise<Failure> => {
  const model = provider.model(server.url, call.model);
  if (!call.stream) {
    const error = await generateText({ model, prompt: call.prompt, maxRetries: 0 }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    return { texts: [], error: described(error) };
  }
  const warned: Array<string> = [];
  const warn = vi.spyOn(console, "warn").mockImplementation((first: unknown) => void warned.push(String(first)));
  const stream = streamText({ model, prompt: call.prompt, maxRetries: 0, onError: () => {} });
  const received = await readAll(stream)
    .then((all) => all.map(({ item }) => item))
    .finally(() => warn.mockRestore());
  const errors = received.flatMap((item) => ("error" in item ? [described(item.error)] : []));
  return {
    texts: received.flatMap((item) => ("text" in item ? [item.text] : [])),
    finish: received.flatMap((item) => ("finish" in item ? [item.finish] : []))[0],
    ...(errors.length === 0 ? {} : { error: errors[0] }),
    ...(warned.length === 0 ? {} : { warned }),
  };
};

describe.each([gemini, ollama])("$name over HTTP, read by the Vercel AI SDK", (provider) => {
  it("holds streamText at a pause: the deltas before it arrive, the rest and the finish only after resume", async () => {
    const server = await serve(fixture(provider.fixtures.tour));
    const received = await heldAt(server, provider, "Give me a short tour", "mid-stream", provider.beforePause);
    expect(received).toEqual(provider.tour.map((item, index) => ({ item, afterResume: index >= provider.beforePause })));
    expect(server.status()).toMatchObject({ remaining: 0, paused: null, mismatches: [] });
  });

  it("parses a frame (gemini) or line (ollama) cut across two writes whole, once its second piece arrives after the pause between them", async () => {
    const server = await serve(fixture(provider.fixtures.cut));
    const received = await heldAt(server, provider, provider.cutPrompt, provider.fixtures.cutPause, 1);
    expect(received).toEqual(provider.cut.map((item, index) => ({ item, afterResume: index >= 1 })));
    expect(server.status()).toMatchObject({ remaining: 0, mismatches: [] });
  });

  it("reads a streamed tool call as the AI SDK's tool call, runs it, and streams the answer to its result", async () => {
    const server = await serve(await provider.toolCall());
    const stream = streamText({
      model: provider.model(server.url),
      prompt: "What does src/math.ts export?",
      tools: { read_file: readFile },
      stopWhen: stepCountIs(2),
      maxRetries: 0,
    });
    const received = (await readAll(stream)).map(({ item }) => item);
    expect(received).toEqual([
      { toolCall: "read_file", input: { path: "src/math.ts" } },
      { finish: "tool-calls" },
      ...provider.toolAnswer,
      { finish: "stop" },
    ]);
    expect(server.status()).toMatchObject({ remaining: 0, mismatches: [] });
  });

  it("answers generateText with the whole response", async () => {
    const server = await serve(fixture(provider.fixtures.whole));
    const answer = await generateText({ model: provider.model(server.url), prompt: "Name this thread", maxRetries: 0 });
    expect({ text: answer.text, finish: answer.finishReason }).toEqual({ text: "Math helpers tour", finish: "stop" });
    expect(server.status()).toMatchObject({ remaining: 0, mismatches: [] });
  });

  it("surfaces a fail line as the AI SDK's APICallError with its status, through generateText and streamText", async () => {
    const server = await serve(fixture(provider.failures.fixture));
    const results: Array<Failure> = [];
    for (const call of provider.failures.calls) results.push(await failed(server, provider, call));
    expect(results).toEqual(provider.failures.calls.map((call) => call.raised));
    expect(server.status()).toMatchObject({ remaining: 0, mismatches: [] });
  });
});

import * as Effect from "effect/Effect";
import { Ollama, type Message, type Tool } from "ollama";
import { describe, expect, it, onTestFinished } from "vitest";
import { fixture } from "../fixtures/fixture.ts";
import { rawPost } from "../fixtures/raw-http.ts";
import { fixtureLines } from "../fixtures/variant.ts";
import { startReplayServer, TranscriptError, validateTranscript } from "../index.ts";

/** The official `ollama` client, pointed at the replay agent the way an app points it at a local Ollama. */
const ollama = (url: string) => new Ollama({ host: url });

const serve = async (name: string) => {
  const server = await startReplayServer({ transcript: fixture(`ollama/${name}`) });
  onTestFinished(() => server.close());
  return server;
};

/** Resolves once `count` parts arrived; a plain promise the test can await without timers. */
const arrivals = (count: number) => {
  let arrived = () => {};
  const promise = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  return { promise, seen: (received: number) => received === count && arrived() };
};

const tour: ReadonlyArray<Message> = [{ role: "user", content: "Give me a short tour" }];
const toolQuestion: Message = { role: "user", content: "What does src/math.ts export?" };
const readFile: Tool = {
  type: "function",
  function: {
    name: "read_file",
    description: "Read a file of the project",
    parameters: { type: "object", properties: { path: { type: "string", description: "The file's path" } } },
  },
};

/** Streams the short tour and records each text the client yields, and whether it came after the test resumed `pause`. */
const readTour = async (server: Awaited<ReturnType<typeof serve>>, pause: string, before: number) => {
  const stream = await ollama(server.url).chat({ model: "llama3.2", messages: [...tour], stream: true });
  let resumed = false;
  const received: Array<{ readonly text: string; readonly afterResume: boolean }> = [];
  let counts: { readonly input: number; readonly output: number; readonly reason: string } | undefined;
  const beforePause = arrivals(before);
  const reading = (async () => {
    for await (const part of stream) {
      if (part.message.content !== "") received.push({ text: part.message.content, afterResume: resumed });
      if (part.done) counts = { input: part.prompt_eval_count, output: part.eval_count, reason: part.done_reason };
      beforePause.seen(received.length);
    }
  })();
  await beforePause.promise;
  await server.paused(pause);
  resumed = true;
  server.resume();
  await reading;
  return { received, counts };
};

describe("ollama over HTTP, read by the official ollama client", () => {
  it("holds a stream at a pause: the lines before it arrive, the rest and the counts only after resume", async () => {
    const server = await serve("short-tour.ndjson");
    const { received, counts } = await readTour(server, "mid-stream", 3);
    expect(received).toEqual([
      { text: "This", afterResume: false },
      { text: " project", afterResume: false },
      { text: " has", afterResume: false },
      { text: " two", afterResume: true },
      { text: " files.", afterResume: true },
    ]);
    expect(counts).toEqual({ input: 12, output: 6, reason: "stop" });
    expect(server.status()).toMatchObject({ remaining: 0, paused: null, mismatches: [] });
  });

  it("writes a line cut across two network reads: the client parses it whole once the rest arrives", async () => {
    const server = await serve("cut-line.ndjson");
    const { received } = await readTour(server, "half-line", 1);
    expect(received).toEqual([
      { text: "This", afterResume: false },
      { text: " project", afterResume: true },
      { text: " has", afterResume: true },
      { text: " two", afterResume: true },
      { text: " files.", afterResume: true },
    ]);
    expect(server.status()).toMatchObject({ remaining: 0, mismatches: [] });
  });

  it("makes the cut line's first read what an app that JSON.parses each read chokes on", async () => {
    const server = await serve("cut-line.ndjson");
    const [first, second] = (await fixtureLines("ollama/cut-line.ndjson")).flatMap((line) => ("ndjson" in line ? [line["ndjson"]] : []));
    const answer = rawPost(server.url, "/api/chat", { model: "llama3.2", messages: tour, stream: true });
    await server.paused("half-line");
    const [read] = await answer.until((chunks) => chunks.length >= 1);
    const secondLine = `${JSON.stringify(second)}\n`;
    expect(read).toBe(`${JSON.stringify(first)}\n${secondLine.slice(0, 60)}`);
    expect(() => JSON.parse(read ?? "")).toThrow(SyntaxError);
    server.resume();
    expect((await answer.all())[1]).toBe(secondLine.slice(60));
  });

  it("streams a tool call the client parses, then serves the turn carrying its result", async () => {
    const server = await serve("tool-call.ndjson");
    const client = ollama(server.url);
    const calls = [];
    for await (const part of await client.chat({ model: "llama3.2", messages: [toolQuestion], tools: [readFile], stream: true })) {
      calls.push(...(part.message.tool_calls ?? []));
    }
    expect(calls).toEqual([{ function: { name: "read_file", arguments: { path: "src/math.ts" } } }]);

    const messages: Array<Message> = [
      toolQuestion,
      { role: "assistant", content: "", tool_calls: calls },
      { role: "tool", content: "export const sum = 1 + 1;\n", tool_name: "read_file" },
    ];
    let text = "";
    for await (const part of await client.chat({ model: "llama3.2", messages, tools: [readFile], stream: true }))
      text += part.message.content;
    expect(text).toBe("It exports `sum`.");
    expect(server.status()).toMatchObject({ remaining: 0, mismatches: [] });
  });

  it("answers GET /api/tags for list(), then streams /api/generate", async () => {
    const server = await serve("generate.ndjson");
    const client = ollama(server.url);
    const { models } = await client.list();
    expect(models.map(({ name, details }) => [name, details.parameter_size, details.quantization_level])).toEqual([
      ["llama3.2:latest", "3.2B", "Q4_K_M"],
      ["nomic-embed-text:latest", "137M", "F16"],
    ]);
    const parts = [];
    for await (const part of await client.generate({ model: "llama3.2", prompt: "Name this chat in three words", stream: true }))
      parts.push(part);
    expect(parts.map(({ response }) => response).join("")).toBe("Math helpers tour");
    expect(parts.at(-1)).toMatchObject({ done: true, done_reason: "stop", eval_count: 4 });
    expect(server.status()).toMatchObject({ remaining: 0, mismatches: [] });
  });

  it("answers a fail with its status, so the client raises a ResponseError; an error line mid-stream is thrown as an Error", async () => {
    const server = await serve("failures.ndjson");
    const client = ollama(server.url);
    const notPulled: unknown = await client
      .chat({ model: "llama3.2:70b", messages: [{ role: "user", content: "first" }] })
      .catch((error: unknown) => error);
    expect(notPulled).toBeInstanceOf(Error);
    expect(notPulled).toMatchObject({
      name: "ResponseError",
      status_code: 404,
      error: 'model "llama3.2:70b" not found, try pulling it first',
    });

    const texts: Array<string> = [];
    const stream = await client.chat({ model: "llama3.2", messages: [{ role: "user", content: "second" }], stream: true });
    const midStream = await (async () => {
      for await (const part of stream) texts.push(part.message.content);
    })().catch((error: unknown) => error);
    expect(texts).toEqual(["Partial"]);
    expect(midStream).toBeInstanceOf(Error);
    expect(midStream).toMatchObject({ name: "Error", message: "an error was encountered while running the model: unexpected EOF" });

    const crashed: unknown = await client
      .chat({ model: "llama3.2", messages: [{ role: "user", content: "third" }], stream: true })
      .catch((error: unknown) => error);
    expect(crashed).toMatchObject({ name: "ResponseError", status_code: 500, error: "llama runner process has terminated: exit status 2" });
    expect(server.status()).toMatchObject({ remaining: 0, mismatches: [] });
  });

  it("answers an unexpected request 400 with the diff as the ResponseError's message, and keeps the expectation for the right one", async () => {
    const server = await serve("non-streaming.ndjson");
    const ask = (content: string) => ollama(server.url).chat({ model: "llama3.2", messages: [{ role: "user", content }] });
    const mismatch: unknown = await ask("Name this chat").catch((error: unknown) => error);
    const diff = 'body.messages[0].content: expected "Name this thread", got "Name this chat"';
    expect(mismatch).toMatchObject({ name: "ResponseError", status_code: 400 });
    expect((mismatch as Error).message).toMatch(
      /^replay-agent could not replay POST \/api\/chat \(last user message: "Name this chat"\): /,
    );
    expect((mismatch as Error).message).toContain(diff);
    expect(server.status()).toMatchObject({ played: 0, remaining: 2, mismatches: [{ expectedLine: 3, diff }] });

    expect((await ask("Name this thread")).message.content).toBe("Math helpers tour");
    expect(server.status()).toMatchObject({ played: 2, remaining: 0 });
  });

  const head = [
    '{"type":"meta","format":"replay-transcript","version":1,"provider":"ollama","model":"llama3.2"}',
    '{"type":"expect_outbound","request":{"method":"POST","path":"/api/chat","body":{"stream":true}}}',
  ];
  const line = (value: unknown) => JSON.stringify({ type: "emit_inbound", ndjson: value });
  const text = (content: string) => ({
    model: "llama3.2",
    created_at: "2025-11-30T10:00:01.104927361Z",
    message: { role: "assistant", content },
    done: false,
  });
  const done = { ...text(""), done: true, done_reason: "stop" };
  it.each([
    [
      "a line after done: true",
      [line(text("Hi")), line(done), line(text("again"))],
      5,
      'ndjson frame after "done": true (line 4)',
      "Remove it, or start the next request",
    ],
    [
      "a stream without done: true",
      [line(text("Hi")), line(text(" there"))],
      4,
      'the stream answering line 2 ends without "done": true (or "status": "success")',
      'End it with {"type":"emit_inbound","ndjson":{"model":"llama3.2"',
    ],
    [
      "a line that is not an object",
      [line("Hi"), line(done)],
      3,
      'an Ollama line that is not a JSON object: "Hi"',
      "Write each line as the JSON object",
    ],
    [
      "a line without done",
      [line({ message: { role: "assistant", content: "Hi" } }), line(done)],
      3,
      'an Ollama line without "done"',
      '"done": false',
    ],
    [
      "a done that is a string",
      [line({ ...text("Hi"), done: "false" }), line(done)],
      3,
      '"done" is "false", not true or false',
      '"done": false',
    ],
    [
      "an error that is not a string",
      [line({ error: { message: "boom" } })],
      3,
      'an Ollama error line whose "error" is {"message":"boom"}',
      '{"error":"<message>"}',
    ],
    [
      "a stream kept whole as one response, as the recorder keeps it",
      [
        JSON.stringify({
          type: "emit_inbound",
          response: {
            status: 200,
            headers: { "Content-Type": "application/x-ndjson" },
            body: `${JSON.stringify(text("Hi"))}\n${JSON.stringify(done)}\n`,
          },
        }),
      ],
      3,
      "a streamed Ollama answer kept whole as one response",
      'Write each line of the stream as its own {"type":"emit_inbound","ndjson":{…}} line',
    ],
    [
      "a fail after the stream's first line",
      [
        line(text("Hi")),
        JSON.stringify({ type: "fail", status: 500, body: { error: "llama runner process has terminated: exit status 2" } }),
      ],
      4,
      "fail after ndjson frames: the stream's 200 status was already sent",
      "Record a mid-stream error as an ndjson line, the way the provider streams it, or move the fail above the stream",
    ],
    [
      "a head after the stream's first line",
      [line(text("Hi")), JSON.stringify({ type: "emit_inbound", head: { status: 200 } }), line(done)],
      4,
      "a head after ndjson frames: the status and headers go out once, before the first frame",
      "Keep one head line, right below the expect_outbound it answers",
    ],
    [
      "an sse frame",
      ['{"type":"emit_inbound","sse":{"data":{"done":true}}}'],
      3,
      "a sse frame, but this provider streams ndjson",
      'Write the provider\'s frames as "ndjson" lines',
    ],
  ])("check rejects %s, naming its line and the fix", async (_name, answer, number, problem, fix) => {
    const error = await Effect.runPromise(Effect.flip(validateTranscript("bad.ndjson", [...head, ...answer].join("\n"))));
    expect(error).toBeInstanceOf(TranscriptError);
    expect(error.line).toBe(number);
    expect(error.problem).toContain(problem);
    expect(error.fix).toContain(fix);
  });
});

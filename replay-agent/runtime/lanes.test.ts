import { describe, expect, it, onTestFinished } from "vitest";
import { clients, type Parsed } from "../fixtures/clients.ts";
import { fixtureLines, writeVariant, type Line } from "../fixtures/variant.ts";
import { startReplayServer } from "../index.ts";
import type { NewHttpProvider } from "../transcript/providers.ts";

const providers: ReadonlyArray<NewHttpProvider> = ["openai-chat", "openai-responses", "anthropic-messages"];

/** short-tour (a stream held at pause "mid-stream") with non-streaming's "Name this thread" exchange as a background request: its own lane, optional, any number of times. */
const withBackgroundTitle = async (provider: NewHttpProvider): Promise<string> => {
  const [meta, ...tour] = await fixtureLines(`${provider}/short-tour.ndjson`);
  const [, title, answer] = await fixtureLines(`${provider}/non-streaming.ndjson`);
  if (meta === undefined || title === undefined || answer === undefined) throw new Error("fixture lines missing");
  return writeVariant([meta, { ...title, lane: "title", optional: true, times: "any" }, answer, ...tour]);
};

const serveFile = async (transcript: string) => {
  const server = await startReplayServer({ transcript });
  onTestFinished(() => server.close());
  return server;
};

const texts = async (stream: AsyncIterable<Parsed>) => {
  const items: Array<string> = [];
  for await (const item of stream) if ("text" in item) items.push(item.text);
  return items;
};

describe.each(providers)("%s lanes, read by the official client", (provider) => {
  const client = clients[provider];

  it.each([0, 1, 2])(
    "answers a title request sent %i time(s) at once while the main stream is held, and the transcript ends fully played",
    async (titles) => {
      const server = await serveFile(await withBackgroundTitle(provider));
      const reading = texts(await client.stream(server.url, "Give me a short tour"));
      await server.paused("mid-stream");
      for (let sent = 0; sent < titles; sent++) expect(await client.ask(server.url, "Name this thread")).toBe("Math helpers tour");
      expect(server.status()).toMatchObject({ paused: "mid-stream", held: [{ name: "mid-stream" }], mismatches: [] });
      server.resume();
      expect(await reading).toEqual(["This", " project", " has", " two", " files."]);
      expect(server.status()).toMatchObject({ remaining: 0, mismatches: [], next: null });
      expect(server.requests().map(({ matched, line }) => ({ matched, line }))).toHaveLength(titles + 1);
    },
  );
});

describe("waiting for a pause", () => {
  it("fails as soon as the app sends a request the transcript does not expect, naming it, since the test fails on it anyway", async () => {
    const [meta, ...tour] = await fixtureLines("openai-chat/short-tour.ndjson");
    if (meta === undefined) throw new Error("fixture lines missing");
    const server = await serveFile(await writeVariant([meta, ...tour]));
    // The wait fails while the request is answered, so its rejection is caught at once.
    const waiting = server.paused("mid-stream").then(
      () => new Error("the pause was reached"),
      (error: unknown) => error,
    );
    await expect(clients["openai-chat"].ask(server.url, "Name this chat")).rejects.toMatchObject({ status: 400 });
    expect(String(await waiting)).toContain(
      'the transcript will not reach pause "mid-stream": the app sent a request the transcript did not expect (last user message: "Name this chat"), turned down against line 2: body.messages[0].content: expected "Give me a short tour", got "Name this chat"',
    );
  });
});

const line = (value: Line) => value;
const meta = line({ type: "meta", format: "replay-transcript", version: 1, provider: "openai-chat" });
const expectOutbound = (content: string, fields: object = {}) =>
  line({
    type: "expect_outbound",
    ...fields,
    request: { method: "POST", path: "/v1/chat/completions", body: { messages: { $last: { content } } } },
  });
const reply = (content: string) =>
  line({
    type: "emit_inbound",
    response: {
      status: 200,
      body: {
        id: "chatcmpl-1",
        object: "chat.completion",
        created: 1,
        model: "gpt-4o-mini",
        choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
      },
    },
  });

/** Sends each message as a non-streamed request; what each got back: the reply's text, or the replay's mismatch diff. */
const sendAll = async (url: string, messages: ReadonlyArray<string>) => {
  const answers: Array<string> = [];
  for (const content of messages) {
    const response = await fetch(`${url}/v1/chat/completions`, {
      method: "POST",
      body: JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content }] }),
    });
    const body = (await response.json()) as { choices?: Array<{ message: { content: string } }>; error?: { diff: string } };
    answers.push(body.choices?.[0]?.message.content ?? `mismatch: ${body.error?.diff ?? "?"}`);
  }
  return answers;
};

describe("matching expectations in lanes", () => {
  it.each([
    {
      name: "an optional expectation never matched is not unplayed",
      lines: [expectOutbound("a"), reply("A"), expectOutbound("b", { optional: true }), reply("B")],
      sent: ["a"],
      answers: ["A"],
      remaining: 0,
    },
    {
      name: "a request matching the next expectation passes over an optional one, which is closed",
      lines: [expectOutbound("a", { optional: true }), reply("A"), expectOutbound("b"), reply("B")],
      sent: ["b", "a"],
      answers: [
        "B",
        "mismatch: the transcript expects no more requests: each of its 2 expect_outbound lines was matched as often as it may be, or passed over as optional",
      ],
      remaining: 0,
    },
    {
      name: "times: 2 answers two requests the same way, and a third does not match",
      lines: [expectOutbound("a", { times: 2 }), reply("A"), expectOutbound("b"), reply("B")],
      sent: ["a", "b", "a", "a", "b"],
      answers: [
        "A",
        'mismatch: body.messages[0].content: expected "a", got "b"',
        "A",
        'mismatch: body.messages[0].content: expected "b", got "a"',
        "B",
      ],
      remaining: 0,
    },
    {
      name: "a required repeat not yet matched its count is still to play",
      lines: [expectOutbound("a", { times: 2 }), reply("A")],
      sent: ["a"],
      answers: ["A"],
      remaining: 2,
    },
    {
      name: "an unordered expectation matches before or after the main lane's",
      lines: [expectOutbound("a"), reply("A"), expectOutbound("b"), reply("B"), expectOutbound("u", { unordered: true }), reply("U")],
      sent: ["a", "u", "b"],
      answers: ["A", "U", "B"],
      remaining: 0,
    },
    {
      name: "lanes keep their own order",
      lines: [
        expectOutbound("a"),
        reply("A"),
        expectOutbound("t1", { lane: "title" }),
        reply("T1"),
        expectOutbound("t2", { lane: "title" }),
        reply("T2"),
        expectOutbound("b"),
        reply("B"),
      ],
      sent: ["t1", "a", "t2", "b"],
      answers: ["T1", "A", "T2", "B"],
      remaining: 0,
    },
  ])("$name", async ({ lines, sent, answers, remaining }) => {
    const server = await serveFile(await writeVariant([meta, ...lines]));
    expect(await sendAll(server.url, sent)).toEqual(answers);
    expect(server.status().remaining).toBe(remaining);
  });
});

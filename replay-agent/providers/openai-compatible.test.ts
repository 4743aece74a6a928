import { Mistral } from "@mistralai/mistralai";
import Groq from "groq-sdk";
import OpenAI, { AzureOpenAI } from "openai";
import { describe, expect, it, onTestFinished } from "vitest";
import { fixtureLines, writeVariant, type Line } from "../fixtures/variant.ts";
import { startReplayServer } from "../index.ts";

/**
 * Hosts that speak OpenAI's chat completions under their own paths, each driven by its own official
 * client: an `openai-chat` transcript serves them with only its request path changed. Each client
 * streams short-tour's answer: the deltas before its pause arrive, the rest only after resume.
 */
interface Host {
  readonly name: string;
  /** The path the client posts to, query string included. */
  readonly path: string;
  /** A chunk as the host streams it, from OpenAI's. */
  readonly chunk?: (data: Record<string, unknown>) => Record<string, unknown>;
  /** The deltas the client parsed from the stream, one by one. */
  readonly stream: (url: string) => Promise<AsyncIterable<string>>;
}

const messages = [{ role: "user" as const, content: "Give me a short tour" }];

/** The text deltas of an OpenAI-shaped chunk stream. */
async function* deltas(stream: AsyncIterable<{ choices: ReadonlyArray<{ delta?: { content?: string | null } }> }>) {
  for await (const chunk of stream) {
    const text = chunk.choices[0]?.delta?.content;
    if (text) yield text;
  }
}

const hosts: ReadonlyArray<Host> = [
  {
    name: "Azure OpenAI (openai's AzureOpenAI, a deployment path and api-version)",
    path: "/openai/deployments/tour-deployment/chat/completions?api-version=2024-10-21",
    stream: async (url) =>
      deltas(
        await new AzureOpenAI({
          endpoint: url,
          apiKey: "replay",
          deployment: "tour-deployment",
          apiVersion: "2024-10-21",
          maxRetries: 0,
        }).chat.completions.create({ model: "gpt-4o-mini", messages, stream: true }),
      ),
  },
  {
    name: "OpenRouter (openai with OpenRouter's base URL)",
    path: "/api/v1/chat/completions",
    stream: async (url) =>
      deltas(
        await new OpenAI({ baseURL: `${url}/api/v1`, apiKey: "replay", maxRetries: 0 }).chat.completions.create({
          model: "gpt-4o-mini",
          messages,
          stream: true,
        }),
      ),
  },
  {
    name: "Groq (groq-sdk)",
    path: "/openai/v1/chat/completions",
    stream: async (url) =>
      deltas(
        await new Groq({ baseURL: url, apiKey: "replay", maxRetries: 0 }).chat.completions.create({
          model: "gpt-4o-mini",
          messages,
          stream: true,
        }),
      ),
  },
  {
    name: "Mistral (@mistralai/mistralai)",
    path: "/v1/chat/completions",
    // Mistral's chunks carry no service tier, fingerprint, logprobs or null usage (its client's schema refuses `"usage":null`).
    chunk: ({ service_tier: _tier, system_fingerprint: _fingerprint, usage, choices, ...rest }) => ({
      ...rest,
      model: "mistral-small-latest",
      ...(usage === null ? {} : { usage }),
      choices: (choices as ReadonlyArray<Record<string, unknown>>).map(({ logprobs: _logprobs, ...choice }) => choice),
    }),
    stream: async (url) => {
      const events = await new Mistral({ serverURL: url, apiKey: "replay" }).chat.stream({ model: "gpt-4o-mini", messages });
      return (async function* () {
        for await (const event of events) {
          const text = event.data.choices[0]?.delta.content;
          if (typeof text === "string" && text !== "") yield text;
        }
      })();
    },
  },
];

/** short-tour's lines as the host answers: its request path, and its chunks in the host's shape. */
const atHost = (lines: ReadonlyArray<Line>, { path, chunk = (data) => data }: Host): ReadonlyArray<Line> =>
  lines.map((line): Line => {
    const request = line["request"] as { readonly path: string } | undefined;
    if (line.type === "expect_outbound" && request !== undefined) return { ...line, request: { ...request, path } };
    const sse = line["sse"] as { readonly data: Record<string, unknown> | "[DONE]" } | undefined;
    return sse === undefined || sse.data === "[DONE]" ? line : { ...line, sse: { ...sse, data: chunk(sse.data) } };
  });

describe.each(hosts)("openai-chat served to $name", (host) => {
  it("streams the answer to the host's path, held at the pause until resumed, and plays the transcript to its end", async () => {
    const server = await startReplayServer({
      transcript: await writeVariant(atHost(await fixtureLines("openai-chat/short-tour.ndjson"), host)),
    });
    onTestFinished(() => server.close());

    let resumed = false;
    let threeArrived = () => {};
    const beforePause = new Promise<void>((resolve) => {
      threeArrived = resolve;
    });
    const received: Array<{ readonly text: string; readonly afterResume: boolean }> = [];
    const reading = (async () => {
      for await (const text of await host.stream(server.url)) {
        received.push({ text, afterResume: resumed });
        if (received.length === 3) threeArrived();
      }
    })();
    await beforePause;
    await server.paused("mid-stream");
    resumed = true;
    server.resume();
    await reading;

    expect(received).toEqual([
      { text: "This", afterResume: false },
      { text: " project", afterResume: false },
      { text: " has", afterResume: false },
      { text: " two", afterResume: true },
      { text: " files.", afterResume: true },
    ]);
    expect(server.requests()).toEqual([expect.objectContaining({ method: "POST", path: host.path, matched: true })]);
    expect(server.status()).toMatchObject({ remaining: 0, mismatches: [] });
  });
});

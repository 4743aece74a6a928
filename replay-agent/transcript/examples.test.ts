import * as Effect from "effect/Effect";
import { describe, expect, it } from "vitest";
import { validateTranscript } from "../index.ts";
import { examplesOf } from "./examples.ts";
import { parseTranscript } from "./parse.ts";
import { providers, providerTransport, type Provider } from "./providers.ts";

const text = (lines: ReadonlyArray<unknown>) => lines.map((line) => JSON.stringify(line)).join("\n");

/** The TranscriptError parsing `lines` ends with. */
const rejected = (lines: ReadonlyArray<unknown>) => Effect.runPromise(Effect.flip(parseTranscript("bad.ndjson", text(lines))));

describe("the lines a fix quotes", () => {
  it.each(providers)(
    "are lines a %s transcript takes: its meta, its requests, its answers, and its error as an answer check passes",
    async (provider) => {
      const examples = examplesOf(provider);
      const [meta] = examples.meta;
      const [request] = examples.expect_outbound;
      const answers = [
        ...examples.expect_outbound,
        ...examples.emit_inbound,
        ...(providerTransport[provider] === "stdio" ? [] : examples.fail),
      ];
      for (const answer of answers) {
        const transcript = await Effect.runPromise(parseTranscript("example.ndjson", text([meta, request, answer])));
        expect(transcript.meta.provider).toBe(provider);
        expect(transcript.entries.at(-1)).toMatchObject(answer);
      }
      if (providerTransport[provider] !== "stdio") {
        const checked = await Effect.runPromise(validateTranscript("example.ndjson", text([meta, request, ...examples.fail])));
        expect(checked.entries.map((entry) => entry.type)).toEqual(["expect_outbound", "fail"]);
      }
    },
  );

  it.each<readonly [Provider, unknown, string]>([
    [
      "bedrock",
      { type: "emit_inbound" },
      'Write it like {"type":"emit_inbound","eventstream":{"headers":{":event-type":"contentBlockDelta",":content-type":"application/json",":message-type":"event"},"payload":{"contentBlockIndex":0,"delta":{"text":"Hi"}}}} or {"type":"emit_inbound","response":{"status":200,"body":{}}}',
    ],
    [
      "ollama",
      { type: "fail", status: 404 },
      'Write it like {"type":"fail","status":404,"body":{"error":"model \\"llama3.2\\" not found, try pulling it first"}}',
    ],
    [
      "claude-code",
      { type: "expect_outbound", request: { method: "POST", path: "/v1/messages" } },
      'Write it like {"type":"expect_outbound","message":{"type":"control_request","request_id":{"$any":true},"request":{"subtype":"initialize"}}}',
    ],
    [
      "codex-exec",
      { type: "emit_inbound", message: { type: "turn.started" }, response: { status: 200, body: {} } },
      'Write it like {"type":"emit_inbound","message":{"type":"thread.started","thread_id":"019ad3f2-6c41-7b90-a2e5-3f8c1d07b6e4"}}',
    ],
  ])("follow the transcript's provider: a bad line of a %s transcript", async (provider, bad, fix) => {
    const meta = { type: "meta", format: "replay-transcript", version: 1, provider };
    const request = { type: "expect_outbound", request: { method: "POST", path: { $any: true } } };
    expect((await rejected(providerTransport[provider] === "stdio" ? [meta, bad] : [meta, request, bad])).fix).toBe(fix);
  });
});

import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { startRecorder } from "../fixtures/cli-process.ts";
import { clients, type Parsed } from "../fixtures/clients.ts";
import { fixture } from "../fixtures/fixture.ts";
import { loadTranscript, startReplayServer } from "../index.ts";

const scratch = async () => {
  const dir = await mkdtemp(join(tmpdir(), "replay-agent-record-"));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return dir;
};

/** Secrets planted where a careless recorder would write them. */
const planted = {
  recorderKey: "sk-proj-Recorder0Key1Planted2In3Env4",
  anthropicKey: "sk-ant-api03-Recorder0Key1Planted2In3Env4",
  githubToken: "ghp_Planted0In1The2Request3Body4abcdef",
  upstreamToken: "Upstream0Token1Planted2In3Answer",
};

/** A stand-in for the real provider that keeps the headers it got and answers with a secret in its body, a cookie and a request id. */
const fakeProvider = async (answer: object) => {
  const seen: Array<IncomingHttpHeaders> = [];
  const server = createServer((request, response) => {
    seen.push(request.headers);
    request.resume();
    request.once("end", () => {
      response.writeHead(200, { "content-type": "application/json", "set-cookie": "session=planted-cookie", "x-request-id": "req_recorded" });
      response.end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
};

const replyWithSecret = `Your token is Bearer ${planted.upstreamToken}`;

interface AuthCase {
  readonly provider: "openai-chat" | "anthropic-messages";
  readonly env: Readonly<Record<string, string>>;
  readonly auth: Readonly<Record<string, string>>;
  readonly answer: object;
}

describe("replay-agent record", () => {
  it.each<AuthCase>([
    {
      provider: "openai-chat",
      env: { OPENAI_API_KEY: planted.recorderKey },
      auth: { authorization: `Bearer ${planted.recorderKey}` },
      answer: { id: "chatcmpl-1", object: "chat.completion", created: 1733000000, model: "gpt-4o-mini", choices: [{ index: 0, message: { role: "assistant", content: replyWithSecret }, finish_reason: "stop" }] },
    },
    {
      provider: "anthropic-messages",
      env: { ANTHROPIC_API_KEY: planted.anthropicKey },
      auth: { "x-api-key": planted.anthropicKey },
      answer: { id: "msg_1", type: "message", role: "assistant", model: "claude-sonnet-4-6", content: [{ type: "text", text: replyWithSecret }], stop_reason: "end_turn", stop_sequence: null, usage: { input_tokens: 9, output_tokens: 7 } },
    },
  ])("forwards $provider requests with the key from its environment and writes no credential", async ({ provider, env, auth, answer }) => {
    const upstream = await fakeProvider(answer);
    const out = join(await scratch(), "recorded.ndjson");
    const recorder = await startRecorder({ provider, upstream: upstream.url, out, env });
    const client = clients[provider];
    const question = `Is ${planted.githubToken} still valid?`;

    expect(await client.ask(recorder.url, question)).toBe(replyWithSecret);
    const stopped = await recorder.stop("SIGINT");
    expect(stopped.exitCode).toBe(0);
    expect(stopped.stdout).toContain(`replay-agent stopped: recorded 1 request and 1 frame to ${out}`);

    expect(upstream.seen).toEqual([expect.objectContaining(auth)]);
    expect(JSON.stringify(upstream.seen)).not.toContain("replay");
    const text = await readFile(out, "utf8");
    for (const secret of [...Object.values(planted), "planted-cookie"]) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/"(authorization|x-api-key|api-key|cookie|set-cookie)"/i);

    const transcript = await loadTranscript(out);
    expect(transcript.meta).toMatchObject({ provider, model: expect.any(String), client: expect.stringMatching(/JS/), source: "recorded", capturedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    expect(transcript.entries.map((entry) => entry.type)).toEqual(["expect_outbound", "emit_inbound"]);
    const replay = await startReplayServer({ transcript: out });
    onTestFinished(() => replay.close());
    expect(await client.ask(replay.url, question)).toBe("Your token is Bearer [redacted]");
    expect(replay.status()).toMatchObject({ remaining: 0, mismatches: [] });
  });

  it("relays each frame as it arrives, appends it at once, and leaves a valid transcript when stopped mid-stream", async () => {
    const upstream = await startReplayServer({ transcript: fixture("openai-chat/short-tour.ndjson") });
    onTestFinished(() => upstream.close());
    const out = join(await scratch(), "cut-short.ndjson");
    const recorder = await startRecorder({ provider: "openai-chat", upstream: upstream.url, out, env: { OPENAI_API_KEY: planted.recorderKey } });

    const stream = await clients["openai-chat"].stream(recorder.url, "Give me a short tour");
    const received: Array<Parsed> = [];
    let threeArrived = () => {};
    const beforePause = new Promise<void>((resolve) => {
      threeArrived = resolve;
    });
    const reading = (async () => {
      for await (const item of stream) {
        received.push(item);
        if (received.length === 3) threeArrived();
      }
    })().catch((error: unknown) => error);
    await beforePause;
    await upstream.paused("mid-stream");

    const whilePaused = (await readFile(out, "utf8")).trim().split("\n").map((line) => JSON.parse(line) as { type: string });
    expect(whilePaused.map(({ type }) => type)).toEqual(["meta", "expect_outbound", "emit_inbound", "emit_inbound", "emit_inbound", "emit_inbound"]);

    const stopped = await recorder.stop("SIGTERM");
    expect(stopped.exitCode).toBe(0);
    expect(stopped.stdout).toContain("recorded 1 request and 4 frames");
    expect(await reading).toBeInstanceOf(Error);
    expect(received).toEqual([{ text: "This" }, { text: " project" }, { text: " has" }]);
    const transcript = await loadTranscript(out);
    expect(transcript.entries.map((entry) => entry.type)).toEqual(["expect_outbound", "emit_inbound", "emit_inbound", "emit_inbound", "emit_inbound", "disconnect"]);
  });
});

import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import OpenAI from "openai";
import { describe, expect, it, onTestFinished } from "vitest";
import { firstLine, replayAgent } from "./fixtures/cli-process.ts";
import { fixture } from "./fixtures/fixture.ts";

const nameThread = (url: string, content: string) =>
  new OpenAI({ baseURL: `${url}/v1`, apiKey: "replay", maxRetries: 0 }).chat.completions
    .create({ model: "gpt-4o-mini", messages: [{ role: "user", content }] })
    .catch((error: unknown) => error);

describe("replay-agent serve", () => {
  it.each([
    ["exits 0 on SIGTERM after a full play", ["Name this thread"], "SIGTERM", 0, "played all 2 entries; 0 mismatches; transcript fully played"],
    ["exits 0 on SIGINT after a full play", ["Name this thread"], "SIGINT", 0, "played all 2 entries; 0 mismatches; transcript fully played"],
    [
      "exits 1 after a partial play",
      [],
      "SIGTERM",
      1,
      "played 0 of 2 entries; 2 remaining, next: line 3 (expect_outbound POST /v1/chat/completions); 0 mismatches; transcript NOT fully played",
    ],
    [
      "exits 1 after a mismatch, even when the rest played",
      ["Name this chat", "Name this thread"],
      "SIGTERM",
      1,
      'played all 2 entries; 1 mismatch; transcript NOT fully played\n  1. POST /v1/chat/completions against line 3:\n     body.messages[0].content: expected "Name this thread", got "Name this chat"',
    ],
  ] as const)("%s", async (_name, questions, signal, exitCode, summary) => {
    const subprocess = replayAgent(["serve", "--transcript", fixture("openai-chat/non-streaming.ndjson")]);
    onTestFinished(() => {
      subprocess.kill();
    });
    const listening = await firstLine(subprocess.stdout);
    expect(listening).toMatch(/^replay-agent listening on http:\/\/127\.0\.0\.1:\d+$/);
    const url = listening.replace("replay-agent listening on ", "");
    for (const question of questions) await nameThread(url, question);
    subprocess.kill(signal);
    const result = await subprocess;
    expect(result.exitCode).toBe(exitCode);
    expect(result.stdout).toContain(`replay-agent stopped: ${summary}`);
  });
});

describe("replay-agent check", () => {
  it.each([
    ["a valid transcript", "short-tour", 0, "stdout", "  requests: 1\n  frames:   9\n  pauses:   mid-stream (line 8)"],
    ["a valid stdio transcript", "acp-prompt", 0, "stdout", "  provider: jsonrpc-stdio\n  model:    (not recorded)\n  requests: 4\n  frames:   9\n  pauses:   mid-prompt (line 10)"],
    ["a stream without [DONE]", "unterminated", 2, "stderr", "unterminated.ndjson:4: the stream answering line 3 ends without [DONE]"],
    ["a missing file", "missing", 2, "stderr", "cannot read transcript"],
  ] as const)("reports %s with its exit code", async (_name, file, exitCode, stream, output) => {
    const dir = await mkdtemp(join(tmpdir(), "replay-agent-cli-"));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const unterminated = join(dir, "unterminated.ndjson");
    await writeFile(
      unterminated,
      [
        '{"type":"meta","format":"replay-transcript","version":1,"provider":"openai-chat","model":"gpt-4o-mini","source":"handwritten"}',
        "",
        '{"type":"expect_outbound","request":{"method":"POST","path":"/v1/chat/completions","body":{"stream":true}}}',
        '{"type":"emit_inbound","sse":{"data":{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1733000000,"model":"gpt-4o-mini","choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":null}]}}}',
      ].join("\n"),
    );
    const paths = { "short-tour": fixture("openai-chat/short-tour.ndjson"), "acp-prompt": fixture("jsonrpc-stdio/acp-prompt.ndjson"), unterminated, missing: join(dir, "missing.ndjson") };
    const result = await replayAgent(["check", paths[file]]);
    expect(result.exitCode).toBe(exitCode);
    expect(result[stream]).toContain(output);
  });

  it.each([
    [[], {}, "Usage:\n  replay-agent serve --transcript <file> [--port <n>]"],
    [["serve", "--transcript", "t.ndjson", "--port", "http"], {}, '--port takes a port number from 0 to 65535, got "http"'],
    [["stdio", "--transcript", "t.ndjson", "--port", "4100"], {}, "stdio does not take --port"],
    [["record", "--provider", "openai-chat", "--out", "r.ndjson"], {}, "record needs --provider <p>, --upstream <url> and --out <file>"],
    [["record", "--provider", "jsonrpc-stdio", "--upstream", "http://127.0.0.1:9", "--out", "r.ndjson"], {}, 'record --provider takes one of openai-chat, openai-responses, anthropic-messages (HTTP providers), got "jsonrpc-stdio"'],
    [["record", "--provider", "openai-chat", "--upstream", "api.openai.com", "--out", "r.ndjson"], {}, '--upstream takes an http or https URL, like https://api.openai.com, got "api.openai.com"'],
    [["record", "--provider", "anthropic-messages", "--upstream", "http://127.0.0.1:9", "--out", "r.ndjson"], { ANTHROPIC_API_KEY: "" }, "forwards each request with the key in ANTHROPIC_API_KEY, which is not set"],
    [["serve", "--transcript", fixture("jsonrpc-stdio/acp-prompt.ndjson")], {}, '"jsonrpc-stdio" transcripts are not served by replay-agent serve. Use replay-agent stdio --transcript'],
    [["stdio", "--transcript", fixture("openai-chat/short-tour.ndjson")], {}, '"openai-chat" transcripts are not served by replay-agent stdio. Use replay-agent serve --transcript'],
  ])("exits 2 for %j, saying what to change", async (args, env, message) => {
    const result = await replayAgent(args, env);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(message);
  });
});

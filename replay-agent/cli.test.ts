import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import OpenAI from "openai";
import { describe, expect, it, onTestFinished, vi } from "vitest";
import { main } from "./cli.ts";
import { firstLine, replayAgent } from "./fixtures/cli-process.ts";
import { fixture } from "./fixtures/fixture.ts";

/**
 * Runs the CLI's `main` in this process, as bin/replay-agent.mjs does, with `env` over this
 * process's environment: its exit code and what it printed. For commands that end by themselves
 * (check, new, usage errors); what takes signals or stdin runs as a process (`replayAgent`).
 */
async function inProcess(args: ReadonlyArray<string>, env: Readonly<Record<string, string>> = {}) {
  const printed = { stdout: "", stderr: "" };
  const capture = (stream: "stdout" | "stderr") =>
    vi.spyOn(process[stream], "write").mockImplementation((chunk: string | Uint8Array) => {
      printed[stream] += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
      return true;
    });
  const spies = [capture("stdout"), capture("stderr")];
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  try {
    const exitCode = await main(args);
    return { exitCode, ...printed };
  } finally {
    for (const spy of spies) spy.mockRestore();
    vi.unstubAllEnvs();
  }
}

const nameThread = (url: string, content: string) =>
  new OpenAI({ baseURL: `${url}/v1`, apiKey: "replay", maxRetries: 0 }).chat.completions
    .create({ model: "gpt-4o-mini", messages: [{ role: "user", content }] })
    .catch((error: unknown) => error);

describe("replay-agent serve", () => {
  it.each([
    [
      "exits 0 on SIGTERM after a full play",
      ["Name this thread"],
      "SIGTERM",
      0,
      "played all 2 entries; 0 mismatches; transcript fully played",
    ],
    [
      "exits 0 on SIGINT after a full play",
      ["Name this thread"],
      "SIGINT",
      0,
      "played all 2 entries; 0 mismatches; transcript fully played",
    ],
    [
      "exits 1 after a partial play",
      [],
      "SIGTERM",
      1,
      "played 0 entries; 2 remaining, next: line 3 (expect_outbound POST /v1/chat/completions); 0 mismatches; transcript NOT fully played",
    ],
    [
      "exits 1 after a mismatch, even when the rest played",
      ["Name this chat", "Name this thread"],
      "SIGTERM",
      1,
      'played all 2 entries; 1 mismatch; transcript NOT fully played\n  1. POST /v1/chat/completions (last user message: "Name this chat") against line 3:\n     body.messages[0].content: expected "Name this thread", got "Name this chat"',
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

describe("replay-agent new", () => {
  it("writes a transcript check accepts, whose first line is the command that wrote it, and prints the same without --out", async () => {
    const dir = await mkdtemp(join(tmpdir(), "replay-agent-new-"));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const out = join(dir, "tour.ndjson");
    const description = [
      "--provider",
      "openai-chat",
      "--user",
      "Give me a short tour",
      "--tool",
      'list_files {"path":"src"}',
      "--reply",
      "This project has two files.",
      "--pause",
      "mid-stream@3",
      "--background",
      "title=Math helpers",
    ];
    const written = await inProcess(["new", ...description, "--out", out]);
    expect(written).toMatchObject({ exitCode: 0, stderr: "" });
    expect(written.stdout).toContain(
      `${out}: valid replay-transcript v1\n  provider: openai-chat\n  model:    gpt-4o-mini\n  requests: 3\n`,
    );
    expect(written.stdout).toContain("  pauses:   mid-stream (line 20)\n  lanes:    main (2 requests), title (1 request, 1 optional)");
    const text = await readFile(out, "utf8");
    expect(text.split("\n")[0]).toBe(
      `// Written by: replay-agent new --provider openai-chat --user 'Give me a short tour' --tool 'list_files {"path":"src"}' --reply 'This project has two files.' --pause mid-stream@3 --background 'title=Math helpers' --out ${out}`,
    );
    expect((await inProcess(["check", out])).exitCode).toBe(0);
    const printed = await inProcess(["new", ...description]);
    expect(printed.exitCode).toBe(0);
    expect(printed.stdout).toBe(text.replace(` --out ${out}`, ""));
    expect((await inProcess(["new", ...description, "--out", out])).stderr).toContain(`replay-agent new cannot write ${out}: EEXIST`);
  });
});

describe("replay-agent new's pace", () => {
  it("writes --tokens-per-second and --first-token-ms as the meta line's pace, which check prints", async () => {
    const dir = await mkdtemp(join(tmpdir(), "replay-agent-new-"));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const out = join(dir, "paced.ndjson");
    const pace = ["--tokens-per-second", "25", "--first-token-ms", "800"];
    const written = await inProcess([
      "new",
      "--provider",
      "anthropic-messages",
      "--user",
      "Hi",
      "--reply",
      "Hello there!",
      ...pace,
      "--out",
      out,
    ]);
    expect(written).toMatchObject({ exitCode: 0, stderr: "" });
    expect(written.stdout).toContain("  frames:   9\n  pace:     25 tokens/s, first token after 800 ms\n");
    const [, metaLine] = (await readFile(out, "utf8")).split("\n");
    expect(JSON.parse(metaLine ?? "")).toMatchObject({ provider: "anthropic-messages", pace: { tokensPerSecond: 25, firstTokenMs: 800 } });
    const session = await inProcess(["new", "--provider", "jsonrpc-stdio", "--user", "Hi", "--reply", "Hello!", "--first-token-ms", "0"]);
    expect(session.exitCode).toBe(0);
    expect(JSON.parse(session.stdout.split("\n")[1] ?? "")).toMatchObject({ provider: "jsonrpc-stdio", pace: { firstTokenMs: 0 } });
    const unpaced = await inProcess(["new", "--provider", "anthropic-messages", "--user", "Hi", "--reply", "Hello there!"]);
    expect(JSON.parse(unpaced.stdout.split("\n")[1] ?? "")).not.toHaveProperty("pace");
  });
});

describe("replay-agent --help", () => {
  it.each([
    [["--help"]],
    [["-h"]],
    [["help"]],
    [["serve", "--help"]],
    [["stdio", "--transcript", "t.ndjson", "--help"]],
    [["record", "-h"]],
    [["check", "--help"]],
    [["new", "--provider", "gemini", "--help"]],
  ])("prints the usage for %j and exits 0", async (args) => {
    const result = await inProcess(args);
    expect(result).toMatchObject({ exitCode: 0, stderr: "" });
    expect(result.stdout).toMatch(/^Usage:\n {2}replay-agent serve --transcript <file> \[--port <n>\]/);
    expect(result.stdout).toContain("  replay-agent --help, replay-agent <command> --help    print this usage\n");
  });
});

describe("replay-agent check", () => {
  it.each([
    ["a valid transcript", "short-tour", 0, "stdout", "  requests: 1\n  frames:   9\n  pauses:   mid-stream (line 8)"],
    [
      "a valid stdio transcript",
      "acp-prompt",
      0,
      "stdout",
      "  provider: jsonrpc-stdio\n  model:    (not recorded)\n  requests: 4\n  frames:   9\n  pauses:   mid-prompt (line 10)",
    ],
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
    const paths = {
      "short-tour": fixture("openai-chat/short-tour.ndjson"),
      "acp-prompt": fixture("jsonrpc-stdio/acp-prompt.ndjson"),
      unterminated,
      missing: join(dir, "missing.ndjson"),
    };
    const result = await inProcess(["check", paths[file]]);
    expect(result.exitCode).toBe(exitCode);
    expect(result[stream]).toContain(output);
  });

  it.each([
    [[], {}, "Usage:\n  replay-agent serve --transcript <file> [--port <n>]"],
    [["serve", "--transcript", "t.ndjson", "--port", "http"], {}, '--port takes a port number from 0 to 65535, got "http"'],
    [["stdio", "--transcript", "t.ndjson", "--port", "4100"], {}, "stdio does not take --port"],
    [["record", "--provider", "openai-chat", "--out", "r.ndjson"], {}, "record needs --provider <p>, --upstream <url> and --out <file>"],
    [
      ["record", "--provider", "mistral", "--upstream", "http://127.0.0.1:9", "--out", "r.ndjson"],
      {},
      'record --provider takes one of openai-chat, openai-responses, anthropic-messages, gemini, ollama, bedrock, cohere, opencode (HTTP providers, with --upstream), openai-realtime (WebSocket, with --upstream) or jsonrpc-stdio, codex-app-server, codex-exec, claude-code (stdio agents, with --agent), got "mistral"',
    ],
    [
      ["record", "--provider", "claude-code", "--out", "r.ndjson"],
      {},
      "record --provider claude-code needs --out <file> and --agent '<the real agent's command line>'",
    ],
    [
      ["record", "--provider", "jsonrpc-stdio", "--upstream", "http://127.0.0.1:9", "--out", "r.ndjson", "--agent", "gemini"],
      {},
      "record --provider jsonrpc-stdio does not take --upstream: the app spawns the recorder in place of its agent, and the recorder starts the --agent command",
    ],
    [
      ["record", "--provider", "codex-exec", "--out", "r.ndjson", "--agent", "codex 'exec"],
      {},
      `--agent "codex 'exec": its single quote is never closed`,
    ],
    [
      ["record", "--provider", "claude-code", "--out", "r.ndjson", "--agent", "claude", "--output-format", "stream-json"],
      {},
      "Unknown option '--output-format'",
    ],
    [
      ["record", "--provider", "openai-chat", "--upstream", "https://api.openai.com", "--out", "r.ndjson", "--", "--verbose"],
      {},
      "record --provider openai-chat records an HTTP provider through a proxy: leave out --agent and the arguments after --, which are for a stdio agent",
    ],
    [
      ["record", "--provider", "openai-chat", "--upstream", "api.openai.com", "--out", "r.ndjson"],
      {},
      '--upstream takes an http or https URL, like https://api.openai.com, got "api.openai.com"',
    ],
    [
      ["record", "--provider", "anthropic-messages", "--upstream", "http://127.0.0.1:9", "--out", "r.ndjson"],
      { ANTHROPIC_API_KEY: "" },
      "forwards each request with the key in ANTHROPIC_API_KEY, which is not set",
    ],
    [
      ["record", "--provider", "bedrock", "--upstream", "https://bedrock-runtime.us-east-1.amazonaws.com", "--out", "r.ndjson"],
      { AWS_ACCESS_KEY_ID: "", AWS_SECRET_ACCESS_KEY: "" },
      "replay-agent: replay-agent record --provider bedrock signs each request with AWS Signature V4, with the credentials in AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN for temporary ones), but AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY are not set. Export AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY; AWS profiles and SSO are not read, and the app's own signature is never forwarded\n",
    ],
    [
      ["record", "--provider", "bedrock", "--upstream", "http://127.0.0.1:9", "--out", "r.ndjson"],
      {
        AWS_ACCESS_KEY_ID: "AKIARECORDER0PLANTED",
        AWS_SECRET_ACCESS_KEY: "Recorder0Secret1Planted",
        AWS_REGION: "",
        AWS_DEFAULT_REGION: "",
      },
      "replay-agent: replay-agent record --provider bedrock signs each request for a region: the one its --upstream host names (127.0.0.1 names none), else AWS_REGION or AWS_DEFAULT_REGION, which are not set. Export AWS_REGION, the region of the upstream\n",
    ],
    [
      ["record", "--provider", "openai-realtime", "--upstream", "wss://api.openai.com", "--out", "r.ndjson"],
      { OPENAI_API_KEY: "" },
      "replay-agent record --provider openai-realtime forwards each request with the key in OPENAI_API_KEY, which is not set. Export OPENAI_API_KEY",
    ],
    [
      ["record", "--provider", "openai-realtime", "--upstream", "api.openai.com", "--out", "r.ndjson"],
      {},
      '--upstream takes a ws or wss URL, like wss://api.openai.com, got "api.openai.com"',
    ],
    [
      ["serve", "--transcript", fixture("jsonrpc-stdio/acp-prompt.ndjson")],
      {},
      '"jsonrpc-stdio" transcripts are not served by replay-agent serve. Use replay-agent stdio --transcript',
    ],
    [
      ["new", "--provider", "openai-chat", "--user", "Hi"],
      {},
      "new needs --reply <text> (the answer), --tool '<name> <json>' with --reply, or --fail <status>",
    ],
    [
      ["new", "--provider", "openai-chat", "--user", "Hi", "--reply", "Hello!", "--pause", "mid-stream"],
      {},
      '--pause takes <name>@<n>, the pause\'s name and after how many deltas of the reply it holds, like --pause mid-stream@3 (@0: before the first frame); got "mid-stream"',
    ],
    [
      ["new", "--provider", "openai-chat", "--user", "Hi", "--reply", "Hello!", "--pause", "mid-stream@9"],
      {},
      'the command line: pause "mid-stream@9" holds after delta 9, but this answer streams 2 deltas. Pick a number from 0 (before the first frame) to 2',
    ],
    [
      ["new", "--provider", "openai-chat", "--user", "Hi", "--tool", "list_files {path}", "--reply", "Hello!"],
      {},
      '--tool "list_files {path}": the arguments after "list_files" are not JSON',
    ],
    [
      ["new", "--provider", "ollama", "--user", "Hi", "--thinking", "A greeting.", "--reply", "Hello!"],
      {},
      "--thinking: replay-agent new writes no thinking for ollama, only for openai-responses, anthropic-messages, gemini, opencode, jsonrpc-stdio, codex-app-server, codex-exec and claude-code. Leave out --thinking, or pick one of those with --provider",
    ],
    [
      ["new", "--provider", "mistral", "--user", "Hi", "--reply", "Hello!"],
      {},
      'new --provider takes one of openai-chat, openai-responses, anthropic-messages, gemini, ollama, bedrock, cohere, opencode, openai-realtime, jsonrpc-stdio, codex-app-server, codex-exec, claude-code, got "mistral"',
    ],
    [
      ["new", "--provider", "openai-chat", "--user", "Hi", "--reply", "Hello!", "--tokens-per-second", "0"],
      {},
      '--tokens-per-second takes how many frames a second the answers stream, a number greater than 0, like --tokens-per-second 40; got "0"',
    ],
    [
      ["new", "--provider", "openai-chat", "--user", "Hi", "--reply", "Hello!", "--first-token-ms", "soon"],
      {},
      '--first-token-ms takes the milliseconds before each answer\'s first frame, a number from 0 up, like --first-token-ms 600; got "soon"',
    ],
    [["serve", "--transcript", "t.ndjson", "--", "--help"], {}, "serve takes no positional arguments, got --help"],
    [
      ["new", "--from", "turns.json", "--user", "Hi"],
      {},
      "new --from takes the whole description from its file; leave out --user or put them in the file",
    ],
    [["new", "--from", "missing.json"], {}, "replay-agent new cannot read the description missing.json: ENOENT"],
  ])("exits 2 for %j, saying what to change", async (args, env, message) => {
    const result = await inProcess(args, env);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(message);
  });

  it("ends record as its agent ended, killed by the same signal, and records that exit as 128 + the signal's number", async () => {
    const dir = await mkdtemp(join(tmpdir(), "replay-agent-cli-"));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const out = join(dir, "r.ndjson");
    const result = await replayAgent(["record", "--provider", "jsonrpc-stdio", "--out", out, "--agent", "sh -c 'kill -KILL $$'"]);
    expect(result.signal).toBe("SIGKILL");
    expect(result.stderr).toContain(
      `replay-agent stopped: recorded the agent's arguments, 0 messages from the app and 0 from the agent to ${out}; the agent was ended by SIGKILL (code 137), recorded as {"type":"exit","code":137}`,
    );
    const lines = (await readFile(out, "utf8")).trimEnd().split("\n");
    expect(lines.slice(1).map((line) => JSON.parse(line))).toEqual([
      { type: "expect_outbound", spawn: { args: [] } },
      { type: "exit", code: 137 },
    ]);
  });

  // stdio and record read stdin and take signals, so they run as a process: the bin's exit code is main's.
  it.each([
    [
      "stdio with an HTTP transcript",
      ["stdio", "--transcript", fixture("openai-chat/short-tour.ndjson")],
      '"openai-chat" transcripts are not served by replay-agent stdio. Use replay-agent serve --transcript',
    ],
    [
      "record with an --out that exists",
      [
        "record",
        "--provider",
        "jsonrpc-stdio",
        "--out",
        fixture("jsonrpc-stdio/acp-prompt.ndjson"),
        "--agent",
        "gemini",
        "--",
        "--experimental-acp",
      ],
      `replay-agent record cannot write ${fixture("jsonrpc-stdio/acp-prompt.ndjson")}: the file already exists`,
    ],
    [
      "record with an agent that cannot start",
      ["record", "--provider", "claude-code", "--out", "{dir}/r.ndjson", "--agent", "{dir}/no-such-claude --verbose"],
      "replay-agent record cannot start the agent {dir}/no-such-claude --verbose: spawn {dir}/no-such-claude ENOENT",
    ],
  ])("exits 2 for %s, as a process, saying what to change", async (_name, args, message) => {
    const dir = await mkdtemp(join(tmpdir(), "replay-agent-cli-"));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const result = await replayAgent(args.map((arg) => arg.replaceAll("{dir}", dir)));
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(message.replaceAll("{dir}", dir));
    expect(existsSync(join(dir, "r.ndjson"))).toBe(false);
  });
});

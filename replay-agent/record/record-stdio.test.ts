import { execFile, spawn } from "node:child_process";
import { constants, createReadStream } from "node:fs";
import { mkdtemp, open, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable, Writable } from "node:stream";
import { text } from "node:stream/consumers";
import { promisify } from "node:util";
import { client, methods, ndJsonStream, type SessionNotification } from "@agentclientprotocol/sdk";
import { query, type CanUseTool, type SDKMessage } from "@anthropic-ai/claude-agent-sdk";
import { Codex, type ThreadEvent } from "@openai/codex-sdk";
import * as Effect from "effect/Effect";
import { describe, expect, it, onTestFinished } from "vitest";
import { builtReplayAgent } from "../../test-support/built-package.ts";
import { fixture } from "../fixtures/fixture.ts";
import { fixtureLines, writeVariant, type Line } from "../fixtures/variant.ts";
import { readTranscript, startStdioPeer, type StdioPeer } from "../index.ts";
import { shellQuote } from "../stdio/launcher.ts";

/** A codex-exec fixture without its spawn line, so the stand-in agent takes whatever arguments the test's thread passes codex. */
const withoutSpawn = async (name: string): Promise<Array<Line>> =>
  (await fixtureLines(name)).filter((line) => !Object.hasOwn(line, "spawn"));

/** The replay-agent bin as an installed package runs it (see fixtures/cli-process.ts). */
const bin = await builtReplayAgent();
const execFileAsync = promisify(execFile);

const tempDir = async () => {
  const dir = await mkdtemp(join(tmpdir(), "replay-agent-record-stdio-"));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return dir;
};

const startPeer = async (transcript: string) => {
  const peer = await startStdioPeer({ transcript });
  onTestFinished(() => peer.close());
  return peer;
};

/**
 * The command the app spawns in place of its agent: `replay-agent record` in front of `agent` (a
 * stdio peer playing a fixture, the real process the recorder stands before), ending with `--`
 * so the arguments the app appends are the app's.
 */
const recorder = (provider: string, out: string, agent: StdioPeer) => [
  process.execPath,
  bin,
  "record",
  "--provider",
  provider,
  "--out",
  out,
  "--agent",
  agent.commandLine,
  "--",
];

/**
 * An executable called `name` that runs `command` with the arguments it is given, for SDKs that
 * take their agent's binary as a path, and what it writes on stderr: through a named pipe, which
 * ends when the recorder (and the agent it started) have exited, the event that says the
 * recording is complete when the SDK holds the process.
 */
const launcher = async (dir: string, name: string, command: ReadonlyArray<string>) => {
  const file = join(dir, name);
  const fifo = join(dir, `${name}.stderr`);
  await execFileAsync("mkfifo", [fifo]);
  const stderr = text(createReadStream(fifo));
  // A launcher never run leaves the read end waiting for a writer: open one, so it ends.
  onTestFinished(() =>
    open(fifo, constants.O_WRONLY | constants.O_NONBLOCK).then(
      (handle) => handle.close(),
      () => undefined,
    ),
  );
  await writeFile(file, `#!/bin/sh\nexec ${shellQuote(command)} "$@" 2>${shellQuote([fifo])}\n`, { mode: 0o755 });
  return { file, stderr };
};

/**
 * The recording's lines as JSON but its delay lines (the time the agent took, which varies from run
 * to run: the timing test reads them), the delays apart, and what `check` makes of it.
 */
const recorded = async (file: string) => {
  const all = (await readFile(file, "utf8"))
    .split("\n")
    .filter((text) => text !== "")
    .map((text): Line => JSON.parse(text));
  return {
    lines: all.filter((line) => line.type !== "delay"),
    delays: all.filter((line) => line.type === "delay"),
    all,
    transcript: await Effect.runPromise(readTranscript(file)),
  };
};

const emitted = (lines: ReadonlyArray<Line>) => lines.filter((line) => line.type === "emit_inbound").map((line) => line["message"]);

/** A child's stdout as the web stream of bytes the ACP SDK reads. */
const bytesOf = (stdout: Readable): ReadableStream<Uint8Array> =>
  new ReadableStream({
    start: (controller) => {
      stdout.on("data", (chunk: Buffer) => controller.enqueue(new Uint8Array(chunk)));
      stdout.once("end", () => controller.close());
    },
  });

const textOf = (notification: SessionNotification) =>
  notification.update.sessionUpdate === "agent_message_chunk" && notification.update.content.type === "text"
    ? notification.update.content.text
    : notification.update.sessionUpdate;

/**
 * The app: spawns `argv` as its ACP agent with `--experimental-acp`, initializes, opens a session
 * and prompts, granting the permission the agent asks for. `whilePrompting` runs once the prompt
 * is sent, with a way to wait until the app has read `count` updates; `ending` says how the app
 * lets go of the agent: it closes its stdin once the prompt is answered, or it kills it (SIGTERM)
 * while the prompt is still open. Resolves with all it read, once the agent's process has closed.
 */
const acpApp = async (
  argv: ReadonlyArray<string>,
  whilePrompting: (updatesRead: (count: number) => Promise<void>) => Promise<void>,
  ending: "close stdin" | "kill",
) => {
  const [command = "", ...args] = argv;
  const child = spawn(command, [...args, "--experimental-acp"], { stdio: ["pipe", "pipe", "pipe"] });
  const stderr = text(child.stderr);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("close", (code, signal) => resolve({ code, signal })),
  );
  onTestFinished(async () => {
    child.kill();
    await exited;
  });
  const updates: Array<string> = [];
  const waiting: Array<{ readonly count: number; readonly read: () => void }> = [];
  const updatesRead = (count: number) => new Promise<void>((read) => (updates.length >= count ? read() : waiting.push({ count, read })));
  const permissions: Array<unknown> = [];
  const connection = client({ name: "replay-agent test" })
    .onNotification(methods.client.session.update, ({ params }) => {
      updates.push(textOf(params));
      waiting.filter(({ count }) => updates.length === count).forEach(({ read }) => read());
    })
    .onRequest(methods.client.session.requestPermission, ({ params }) => {
      permissions.push(params.toolCall);
      return { outcome: { outcome: "selected", optionId: "allow" } };
    })
    .connect(ndJsonStream(Writable.toWeb(child.stdin), bytesOf(child.stdout)));
  const initialized = await connection.agent.request(methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} });
  const { sessionId } = await connection.agent.request(methods.agent.session.new, { cwd: "/project", mcpServers: [] });
  const prompting = connection.agent.request(methods.agent.session.prompt, {
    sessionId,
    prompt: [{ type: "text", text: "Clean up the project" }],
  });
  await whilePrompting(updatesRead);
  if (ending === "kill") {
    child.kill("SIGTERM");
    prompting.catch(() => undefined);
    return { initialized, sessionId, result: undefined, updates, permissions, exit: await exited, stderr: await stderr };
  }
  const result = await prompting;
  child.stdin.end();
  return { initialized, sessionId, result, updates, permissions, exit: await exited, stderr: await stderr };
};

/** The line the recorder ends its stderr with. */
const summary = (stderr: string) => stderr.split("\n").findLast((line) => line.startsWith("replay-agent stopped: "));

describe("replay-agent record in front of a stdio agent", () => {
  it("records an ACP client's session with a jsonrpc-stdio agent, and the recording replays it to the same client", async () => {
    const dir = await tempDir();
    const out = join(dir, "acp.ndjson");
    const agent = await startPeer(fixture("jsonrpc-stdio/acp-prompt.ndjson"));

    const { stderr, ...recording } = await acpApp(
      recorder("jsonrpc-stdio", out, agent),
      async () => {
        await agent.paused("mid-prompt");
        await agent.resume();
      },
      "close stdin",
    );

    const seen = {
      initialized: expect.objectContaining({ protocolVersion: 1, agentInfo: { name: "replayed-agent", version: "0.1.0" } }),
      sessionId: "sess_7f3a2c9e41b8",
      result: { stopReason: "end_turn" },
      updates: ["This project has", " an unused file.", "tool_call", "tool_call_update", " Deleted src/old.ts."],
      permissions: [{ toolCallId: "call_1", title: "Delete src/old.ts" }],
      exit: { code: 0, signal: null },
    };
    expect(recording).toEqual(seen);
    expect(summary(stderr)).toBe(
      `replay-agent stopped: recorded the agent's arguments, 4 messages from the app and 9 from the agent to ${out}; the agent exited with code 0`,
    );
    await agent.close();
    expect(agent.status()).toMatchObject({ remaining: 0, mismatches: [] });

    const { lines, delays, transcript } = await recorded(out);
    expect(transcript.meta).toMatchObject({ provider: "jsonrpc-stdio", source: "recorded", capturedAt: expect.any(String) });
    expect(lines.slice(1, 3)).toEqual([
      { type: "expect_outbound", spawn: { args: ["--experimental-acp"] } },
      {
        type: "expect_outbound",
        message: { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: 1, clientCapabilities: {} } },
      },
    ]);
    // Each message where it came: the agent's updates and its permission request in the prompt's answer, the rest after the app's answer.
    expect(lines.map((line) => (line.type === "expect_outbound" ? "app" : line.type === "emit_inbound" ? "agent" : line.type))).toEqual([
      "meta",
      "app",
      "app",
      "agent",
      "app",
      "agent",
      "app",
      "agent",
      "agent",
      "agent",
      "agent",
      "app",
      "agent",
      "agent",
      "agent",
    ]);
    // The app closed the agent's stdin and it exited 0, as the replay agent does by itself: no exit line.
    expect(emitted(lines)).toEqual(emitted(await fixtureLines("jsonrpc-stdio/acp-prompt.ndjson")));

    const replay = await startPeer(out);
    const { stderr: _replayStderr, ...replayed } = await acpApp(replay.command, async () => {}, "close stdin");
    expect(replayed).toEqual(seen);
    await replay.close();
    // Its 14 messages, and the delay lines before the agent's (the agent held at its pause before the tool call, at least).
    expect(delays.length).toBeGreaterThanOrEqual(1);
    expect(replay.status()).toMatchObject({ played: 14 + delays.length, remaining: 0, mismatches: [], next: null });
  });

  it("keeps the time the agent took before each line as delay lines, and the recording replays with them; --no-timing keeps none", async () => {
    const original = await fixtureLines("jsonrpc-stdio/acp-prompt.ndjson");
    // The agent takes 300 ms to answer the prompt, then 150 ms between its first two chunks (its pause left out).
    const slow = await writeVariant([
      ...original.slice(0, 6),
      { type: "delay", ms: 300 },
      ...original.slice(6, 7),
      { type: "delay", ms: 150 },
      ...original.slice(7, 8),
      ...original.slice(9),
    ]);
    const dir = await tempDir();
    const out = join(dir, "timed.ndjson");
    const recording = await acpApp(recorder("jsonrpc-stdio", out, await startPeer(slow)), async () => {}, "close stdin");

    const { all, lines, delays } = await recorded(out);
    const before = (line: Line | undefined) => all[all.findIndex((candidate) => JSON.stringify(candidate) === JSON.stringify(line)) - 1];
    const [first, second] = [before(original[6]), before(original[7])];
    expect([first?.type, second?.type]).toEqual(["delay", "delay"]);
    // Lower bounds only: each line came no sooner than the agent's wait, less up to 1 ms a timer of its (Node's timers keep whole ms).
    expect(Number(first?.["ms"])).toBeGreaterThanOrEqual(299);
    expect(Number(second?.["ms"])).toBeGreaterThanOrEqual(149);
    expect(delays.every((line) => Number.isInteger(line["ms"]) && Number(line["ms"]) >= 1)).toBe(true);
    // Each delay line right before an agent's line, never before the app's.
    expect(all.filter((line, index) => line.type === "delay" && all[index + 1]?.type !== "emit_inbound")).toEqual([]);
    expect(emitted(lines)).toEqual(emitted(original));

    const replay = await startPeer(out);
    const replayed = await acpApp(replay.command, async () => {}, "close stdin");
    expect(replayed.updates).toEqual(recording.updates);
    await replay.close();
    expect(replay.status()).toMatchObject({ played: all.length - 1, remaining: 0, mismatches: [], next: null });

    const untimed = join(dir, "untimed.ndjson");
    const argv = recorder("jsonrpc-stdio", untimed, await startPeer(slow));
    await acpApp([...argv.slice(0, -1), "--no-timing", "--"], async () => {}, "close stdin");
    expect((await recorded(untimed)).delays).toEqual([]);
  });

  it("records the Agent SDK's turn with Claude Code, its random request_ids as patterns, and the recording replays it to query()", async () => {
    const dir = await tempDir();
    const out = join(dir, "tool-turn.ndjson");
    const agent = await startPeer(fixture("claude-code/tool-turn.ndjson"));
    const claude = await launcher(dir, "claude", recorder("claude-code", out, agent));
    const turn = async (pathToClaudeCodeExecutable: string) => {
      const asked: Array<string> = [];
      const canUseTool: CanUseTool = async (tool, input) => {
        asked.push(tool);
        return { behavior: "allow", updatedInput: input };
      };
      const messages: Array<SDKMessage> = [];
      const options = { pathToClaudeCodeExecutable, model: "claude-sonnet-4-5", canUseTool };
      for await (const message of query({ prompt: "What is in src?", options })) messages.push(message);
      return {
        asked,
        read: messages.map((message) =>
          message.type === "assistant"
            ? message.message.content.map((block) =>
                block.type === "text" ? block.text : `${block.type} ${block.type === "tool_use" ? block.name : ""}`,
              )
            : message.type === "result"
              ? `result ${message.subtype}`
              : message.type,
        ),
      };
    };
    const read = {
      asked: ["Bash"],
      read: [
        "system",
        "system",
        ["I'll list the files in src."],
        ["tool_use Bash"],
        "system",
        "system",
        "user",
        ["There are two files in src: `math.ts` and `util.ts`."],
        "result success",
        "system",
      ],
    };

    expect(await turn(claude.file)).toEqual(read);
    expect(summary(await claude.stderr)).toBe(
      `replay-agent stopped: recorded the agent's arguments, 3 messages from the app and 12 from the agent to ${out}; the agent exited with code 0`,
    );
    await agent.close();
    expect(agent.status()).toMatchObject({ remaining: 0, mismatches: [] });

    const { lines, transcript } = await recorded(out);
    expect(transcript.meta).toMatchObject({ provider: "claude-code", model: "claude-sonnet-4-5", source: "recorded" });
    const original = await fixtureLines("claude-code/tool-turn.ndjson");
    expect(lines[1]).toEqual(original[1]);
    expect(lines.filter((line) => line.type === "expect_outbound").map((line) => line["message"])).toEqual([
      undefined,
      expect.objectContaining({
        type: "control_request",
        request_id: { $any: true },
        request: expect.objectContaining({ subtype: "initialize" }),
      }),
      {
        type: "user",
        session_id: "",
        message: { role: "user", content: [{ type: "text", text: "What is in src?" }] },
        parent_tool_use_id: null,
      },
      {
        type: "control_response",
        response: {
          subtype: "success",
          request_id: "6d1e3b7a-2c4f-4a9e-8b5d-0f7c9e2a4b61",
          response: {
            behavior: "allow",
            updatedInput: { command: "ls src", description: "List files in src" },
            toolUseID: "toolu_01Hs8K2mXw9Pq4Lr7Tv3Yc6N",
          },
        },
      },
    ]);
    // The agent answered initialize under the SDK's own request_id; every other frame is the fixture's, as the agent wrote it.
    const [initializeAnswer, ...frames] = emitted(lines);
    const [fixtureAnswer, ...fixtureFrames] = emitted(original);
    expect(initializeAnswer).toEqual({
      type: "control_response",
      response: { ...(fixtureAnswer as { response: object }).response, request_id: expect.stringMatching(/^[0-9a-z]+$/) },
    });
    expect(frames).toEqual(fixtureFrames);
    expect(lines.at(-1)?.type).toBe("emit_inbound");

    const replay = await startPeer(out);
    expect(await turn(replay.executable)).toEqual(read);
    await replay.close();
    expect(replay.status()).toMatchObject({ remaining: 0, mismatches: [], next: null });
  });

  it("records codex exec's prompt as one text message and its schema file's path as a pattern, and the recording replays the turn to @openai/codex-sdk", async () => {
    const dir = await tempDir();
    const out = join(dir, "fix-tests.ndjson");
    const agent = await startPeer(await writeVariant(await withoutSpawn("codex-exec/fix-tests.ndjson")));
    const codex = await launcher(dir, "codex", recorder("codex-exec", out, agent));
    const prompt = "Run the tests and fix what fails";
    const run = async (codexPathOverride: string) => {
      const thread = new Codex({ codexPathOverride }).startThread({
        model: "gpt-5.1-codex",
        workingDirectory: dir,
        skipGitRepoCheck: true,
      });
      // The SDK writes the schema to a new temporary folder each turn and passes its path.
      const turn = await thread.run(prompt, { outputSchema: { type: "object", properties: {}, additionalProperties: false } });
      return { finalResponse: turn.finalResponse, items: turn.items.map((item) => item.type), usage: turn.usage };
    };
    const read = {
      finalResponse: "All 12 tests pass; nothing needed fixing.",
      items: ["reasoning", "command_execution", "agent_message"],
      usage: expect.objectContaining({ input_tokens: 9874, output_tokens: 444 }),
    };

    expect(await run(codex.file)).toEqual(read);
    expect(summary(await codex.stderr)).toBe(
      `replay-agent stopped: recorded the agent's arguments, 1 message from the app and 7 from the agent to ${out}; the agent exited with code 0`,
    );
    await agent.close();
    expect(agent.status()).toMatchObject({ remaining: 0, mismatches: [] });

    const { lines, transcript } = await recorded(out);
    expect(transcript.meta).toMatchObject({ provider: "codex-exec", model: "gpt-5.1-codex" });
    expect(lines.slice(1, 3)).toEqual([
      {
        type: "expect_outbound",
        spawn: {
          args: [
            "exec",
            "--experimental-json",
            "--model",
            "gpt-5.1-codex",
            "--cd",
            dir,
            "--skip-git-repo-check",
            "--output-schema",
            { $any: true },
          ],
        },
      },
      { type: "expect_outbound", message: prompt },
    ]);
    // codex exec exited 0 once its turn was done, after the app had closed its stdin: no exit line, as in the fixture.
    expect(lines.slice(3)).toEqual((await withoutSpawn("codex-exec/fix-tests.ndjson")).slice(2));

    const replay = await startPeer(out);
    expect(await run(replay.executable)).toEqual(read);
    await replay.close();
    expect(replay.status()).toMatchObject({ remaining: 0, mismatches: [], next: null });
  });
});

describe("replay-agent record keeps secrets out", () => {
  it("writes the key the app hands its agent as [redacted] in what the agent says, and a token in the prompt as a pattern that still matches", async () => {
    const dir = await tempDir();
    const out = join(dir, "failed-turn.ndjson");
    // An API key of no known shape, which only the agent's environment gives away, and a GitHub token in the prompt.
    const apiKey = "replay-test-key-7f3a9c2e41";
    const token = "ghp_R3plAyT0k3nN0tR3al0000000000000000";
    const refused = `unexpected status 401 Unauthorized: Incorrect API key provided: ${apiKey}`;
    const original = await withoutSpawn("codex-exec/failed-turn.ndjson");
    const refusing = original.map((line) =>
      line.type === "emit_inbound" && JSON.stringify(line).includes("401")
        ? JSON.parse(
            JSON.stringify(line).replace("Missing bearer or basic authentication in header", `Incorrect API key provided: ${apiKey}`),
          )
        : line,
    );
    const agent = await startPeer(await writeVariant(refusing));
    const codex = await launcher(dir, "codex", recorder("codex-exec", out, agent));
    const prompt = `Please fix what fails, then push with ${token}`;
    // runStreamed() reads to codex's exit (run() kills it at turn.failed, racing its own exit 1).
    const failure = async (codexPathOverride: string) => {
      const { events } = await new Codex({ codexPathOverride, apiKey }).startThread().runStreamed(prompt);
      let failed: unknown;
      try {
        for await (const event of events) if (event.type === "turn.failed") failed = event.error.message;
      } catch (error) {
        return { failed, exit: String(error) };
      }
      return { failed, exit: "none" };
    };

    expect(await failure(codex.file)).toEqual({ failed: refused, exit: "Error: Codex Exec exited with code 1: " });
    expect(summary(await codex.stderr)).toContain('the agent exited with code 1, recorded as {"type":"exit","code":1}');
    await agent.close();
    const text = await readFile(out, "utf8");
    expect(text).not.toContain(apiKey);
    expect(text).not.toContain(token);
    const { lines } = await recorded(out);
    expect(lines[2]).toEqual({ type: "expect_outbound", message: { $regex: "^Please fix what fails, then push with \\S+$" } });
    expect(emitted(lines).at(-1)).toEqual({
      type: "turn.failed",
      error: { message: "unexpected status 401 Unauthorized: Incorrect API key provided: [redacted]" },
    });

    const replay = await startPeer(out);
    expect(await failure(replay.executable)).toEqual({
      failed: "unexpected status 401 Unauthorized: Incorrect API key provided: [redacted]",
      exit: expect.stringMatching(/^Error: Codex Exec exited with code 1: /),
    });
    await replay.close();
    expect(replay.status()).toMatchObject({ remaining: 0, mismatches: [] });
    expect(replay.requests()).toEqual([
      expect.objectContaining({ message: { spawn: { args: ["exec", "--experimental-json"] } }, matched: true }),
      expect.objectContaining({ message: prompt, matched: true }),
    ]);
  });
});

describe("replay-agent record stopped by a signal", () => {
  it("passes SIGTERM on to the agent and leaves a recording that passes check without an exit line, which replays up to there", async () => {
    const dir = await tempDir();
    const out = join(dir, "killed.ndjson");
    const agent = await startPeer(fixture("jsonrpc-stdio/acp-prompt.ndjson"));

    const recording = await acpApp(
      recorder("jsonrpc-stdio", out, agent),
      async (updatesRead) => {
        await updatesRead(2);
        await agent.paused("mid-prompt");
      },
      "kill",
    );

    expect(recording).toMatchObject({ updates: ["This project has", " an unused file."], result: undefined });
    // The agent here (a replay agent) exits 1 on SIGTERM, its transcript unplayed; the recorder exits as it did.
    expect(recording.exit).toEqual({ code: 1, signal: null });
    expect(summary(recording.stderr)).toBe(
      `replay-agent stopped: recorded the agent's arguments, 3 messages from the app and 4 from the agent to ${out}; the agent exited with code 1`,
    );
    await agent.close();
    expect(agent.status()).toMatchObject({ paused: "mid-prompt", mismatches: [] });
    const { lines } = await recorded(out);
    expect(lines.slice(-3).map((line) => line.type)).toEqual(["expect_outbound", "emit_inbound", "emit_inbound"]);

    const replay = await startPeer(out);
    const replayed = await acpApp(replay.command, (updatesRead) => updatesRead(2), "kill");
    expect(replayed).toMatchObject({ updates: ["This project has", " an unused file."], exit: { code: 0, signal: null } });
    await replay.close();
    expect(replay.status()).toMatchObject({ remaining: 0, mismatches: [] });
  });

  it("ends a recording that would not pass check as it stands with the agent's exit: codex exec aborted mid-turn", async () => {
    const dir = await tempDir();
    const out = join(dir, "aborted.ndjson");
    const original = await withoutSpawn("codex-exec/fix-tests.ndjson");
    // The real agent holds after turn.started, where the app aborts the turn.
    const agent = await startPeer(await writeVariant([...original.slice(0, 4), { type: "pause", name: "working" }, ...original.slice(4)]));
    const codex = await launcher(dir, "codex", recorder("codex-exec", out, agent));
    const turn = async (codexPathOverride: string, abortAt: string | undefined) => {
      const abort = new AbortController();
      const { events } = await new Codex({ codexPathOverride }).startThread().runStreamed("Run the tests and fix what fails", {
        signal: abort.signal,
      });
      const seen: Array<ThreadEvent["type"]> = [];
      try {
        for await (const event of events) {
          seen.push(event.type);
          if (event.type === abortAt) {
            await agent.paused("working");
            abort.abort();
          }
        }
        return { seen, error: undefined };
      } catch (error) {
        return { seen, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
      }
    };

    expect(await turn(codex.file, "turn.started")).toEqual({
      seen: ["thread.started", "turn.started"],
      error: expect.stringMatching(/^AbortError/),
    });
    expect(summary(await codex.stderr)).toBe(
      `replay-agent stopped: recorded the agent's arguments, 1 message from the app and 2 from the agent to ${out}; the agent exited with code 1, recorded as {"type":"exit","code":1}`,
    );
    await agent.close();
    const { lines } = await recorded(out);
    expect(lines.slice(2)).toEqual([...original.slice(1, 4), { type: "exit", code: 1 }]);

    // Replayed, the agent exits there by itself, as the SDK reports.
    const replay = await startPeer(out);
    expect(await turn(replay.executable, undefined)).toEqual({
      seen: ["thread.started", "turn.started"],
      error: expect.stringMatching(/^Error: Codex Exec exited with code 1: /),
    });
    await replay.close();
    expect(replay.status()).toMatchObject({ remaining: 0, mismatches: [] });
  });
});

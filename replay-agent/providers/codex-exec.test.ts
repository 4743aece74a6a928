import { Codex, type ThreadEvent } from "@openai/codex-sdk";
import * as Effect from "effect/Effect";
import { describe, expect, it, onTestFinished } from "vitest";
import { fixture } from "../fixtures/fixture.ts";
import { writeNew } from "../fixtures/new-file.ts";
import { startStdioPeer, TranscriptError, validateTranscript } from "../index.ts";

const prompt = "Run the tests and fix what fails";
const failure = "unexpected status 401 Unauthorized: Missing bearer or basic authentication in header";

/** The thread options of every fixture's run: the SDK passes them as flags, which each fixture's spawn line expects. */
const threadOptions = { model: "gpt-5.1-codex", workingDirectory: "/home/dev/project", skipGitRepoCheck: true };
const args = ["exec", "--experimental-json", "--model", "gpt-5.1-codex", "--cd", "/home/dev/project", "--skip-git-repo-check"];

/** A peer playing `transcript`, and a thread of the SDK that spawns the peer's launcher as its codex binary. */
const startThread = async (transcript: string) => {
  const peer = await startStdioPeer({ transcript });
  onTestFinished(() => peer.close());
  return { peer, thread: new Codex({ codexPathOverride: peer.executable }).startThread(threadOptions) };
};

/** The events a streamed turn yielded, and the error it ended with (undefined when it ended cleanly). */
const drain = async (events: AsyncGenerator<ThreadEvent>) => {
  const seen: Array<ThreadEvent> = [];
  try {
    for await (const event of events) seen.push(event);
    return { seen, error: undefined };
  } catch (error) {
    return { seen, error };
  }
};

const usage = {
  input_tokens: 9874,
  cached_input_tokens: 8448,
  cache_write_input_tokens: 0,
  output_tokens: 444,
  reasoning_output_tokens: 256,
};

describe("the codex-exec peer, spawned by @openai/codex-sdk", () => {
  it("run() writes the prompt to stdin and reads the turn: its items, final response and usage", async () => {
    const { peer, thread } = await startThread(fixture("codex-exec/fix-tests.ndjson"));

    const turn = await thread.run(prompt);

    expect(turn.finalResponse).toBe("All 12 tests pass; nothing needed fixing.");
    expect(turn.usage).toEqual(usage);
    expect(turn.items).toEqual([
      { id: "item_0", type: "reasoning", text: "**Running the test suite**" },
      expect.objectContaining({
        id: "item_1",
        type: "command_execution",
        command: "/bin/bash -lc 'npm test'",
        exit_code: 0,
        status: "completed",
      }),
      { id: "item_2", type: "agent_message", text: "All 12 tests pass; nothing needed fixing." },
    ]);
    expect(thread.id).toBe("019ad3f2-6c41-7b90-a2e5-3f8c1d07b6e4");
    await peer.close();
    expect(peer.status()).toMatchObject({ remaining: 0, mismatches: [], next: null });
    expect(peer.requests()).toEqual([
      expect.objectContaining({ message: { spawn: { args } }, matched: true, line: 4 }),
      expect.objectContaining({ message: prompt, matched: true, line: 5 }),
    ]);
  });

  it("runStreamed() yields every event as codex printed it, in order", async () => {
    const { peer, thread } = await startThread(fixture("codex-exec/fix-tests.ndjson"));
    const { events } = await thread.runStreamed(prompt);

    const { seen, error } = await drain(events);

    expect(error).toBeUndefined();
    expect(
      seen.map((event) => (event.type.startsWith("item.") && "item" in event ? `${event.type} ${event.item.type}` : event.type)),
    ).toEqual([
      "thread.started",
      "turn.started",
      "item.completed reasoning",
      "item.started command_execution",
      "item.completed command_execution",
      "item.completed agent_message",
      "turn.completed",
    ]);
    expect(seen.at(-1)).toEqual({ type: "turn.completed", usage });
    await peer.close();
    expect(peer.status()).toMatchObject({ remaining: 0, mismatches: [] });
  });

  it("plays what replay-agent new writes: the reasoning, a shell command with its output, the answer and the usage", async () => {
    const { file } = await writeNew({
      provider: "codex-exec",
      model: "gpt-5.1-codex",
      turns: [
        {
          user: prompt,
          thinking: "**Running the test suite**",
          reply: "I'll run the tests.",
          tools: [{ name: "shell", arguments: { command: "npm test" }, result: "ℹ pass 12\nℹ fail 0\n" }],
        },
        { reply: "All 12 tests pass." },
      ],
    });
    const { peer, thread } = await startThread(file);

    const turn = await thread.run(prompt);

    expect(turn.items).toEqual([
      { id: "item_0", type: "reasoning", text: "**Running the test suite**" },
      { id: "item_1", type: "agent_message", text: "I'll run the tests." },
      {
        id: "item_2",
        type: "command_execution",
        command: "/bin/bash -lc 'npm test'",
        aggregated_output: "ℹ pass 12\nℹ fail 0\n",
        exit_code: 0,
        status: "completed",
      },
      { id: "item_3", type: "agent_message", text: "All 12 tests pass." },
    ]);
    expect(turn.finalResponse).toBe("All 12 tests pass.");
    expect(turn.usage).toMatchObject({ reasoning_output_tokens: 6 });
    await peer.close();
    expect(peer.status()).toMatchObject({ remaining: 0, mismatches: [], next: null });
  });

  it("run() raises a failed turn's error message", async () => {
    const { thread } = await startThread(fixture("codex-exec/failed-turn.ndjson"));

    const failed = await thread.run("Please fix what fails").catch((error: unknown) => error);

    // run() stops reading at turn.failed and kills codex without waiting for it: the peer's status is not awaited here.
    expect(failed).toBeInstanceOf(Error);
    expect(failed).toMatchObject({ message: failure });
  });

  it.each([
    {
      name: "a failed turn, then codex's exit 1",
      transcript: "codex-exec/failed-turn.ndjson",
      sent: "Please fix what fails",
      events: [
        { type: "thread.started", thread_id: "019ad3f3-0b28-7e61-8d4c-72a9e5f1c3b0" },
        { type: "turn.started" },
        { type: "error", message: failure },
        { type: "turn.failed", error: { message: failure } },
      ],
      error:
        "^Codex Exec exited with code 1: replay-agent control on http://127\\.0\\.0\\.1:\\d+\\nreplay-agent stopped: played all 7 entries; 0 mismatches",
      mismatches: 0,
    },
    {
      name: "a prompt the transcript does not expect, as an error event naming the line it missed, then exit 1",
      transcript: "codex-exec/fix-tests.ndjson",
      sent: "Fix it",
      events: [
        {
          type: "error",
          message: `replay-agent could not replay the prompt on stdin (message: "Fix it"): the request does not match ${fixture("codex-exec/fix-tests.ndjson")}:5 (expect_outbound ${prompt}). Change the app or the transcript so they agree:\n(root): expected "${prompt}", got "Fix it"`,
        },
      ],
      error:
        '^Codex Exec exited with code 1: [^]*replay-agent: the app sent a message the transcript did not expect: [^]*\\(root\\): expected "Run the tests and fix what fails", got "Fix it"',
      mismatches: 1,
    },
  ])("runStreamed() yields $name, and raises the exit as the SDK's error", async ({ transcript, sent, events, error, mismatches }) => {
    const { peer, thread } = await startThread(fixture(transcript));
    const streamed = await thread.runStreamed(sent);

    const ended = await drain(streamed.events);

    expect(ended.seen).toEqual(events);
    expect(ended.error).toBeInstanceOf(Error);
    expect((ended.error as Error).message).toMatch(new RegExp(error));
    await peer.close();
    expect(peer.status()).toMatchObject({ remaining: mismatches === 0 ? 0 : 8 });
    expect(peer.status().mismatches).toHaveLength(mismatches);
    expect(peer.requests()).toEqual([
      expect.objectContaining({ message: { spawn: { args } }, matched: true }),
      expect.objectContaining({ message: sent, matched: mismatches === 0 }),
    ]);
  });
});

const line = (value: object) => JSON.stringify(value);
const meta = line({ type: "meta", format: "replay-transcript", version: 1, provider: "codex-exec" });
const ask = line({ type: "expect_outbound", message: prompt });
const event = (message: object) => line({ type: "emit_inbound", message });
const threadStarted = event({ type: "thread.started", thread_id: "019ad3f2-6c41-7b90-a2e5-3f8c1d07b6e4" });
const turnStarted = event({ type: "turn.started" });
const turnCompleted = event({ type: "turn.completed", usage });
const turnFailed = event({ type: "turn.failed", error: { message: failure } });

describe("codex-exec framing", () => {
  it.each([
    [
      "a prompt given as a JSON pattern",
      [meta, line({ type: "expect_outbound", message: { text: prompt } }), threadStarted, turnCompleted],
      2,
      "expect_outbound.message must match the prompt the app writes to stdin as text",
    ],
    [
      "an event before the prompt",
      [meta, threadStarted, ask, turnCompleted],
      2,
      "an event before the prompt: codex exec prints nothing before it has read its prompt from stdin",
    ],
    [
      "a second prompt",
      [meta, ask, threadStarted, turnCompleted, ask],
      5,
      "a second prompt (the first is line 2): codex exec reads one prompt from stdin, runs one turn and exits",
    ],
    [
      "a first event other than thread.started",
      [meta, ask, turnStarted, turnCompleted],
      3,
      'the first event must be thread.started (codex exec names its thread before anything else), got "turn.started"',
    ],
    [
      "turn.completed without usage",
      [meta, ask, threadStarted, event({ type: "turn.completed" })],
      4,
      'turn.completed needs a "usage" object',
    ],
    [
      "an event after turn.completed",
      [meta, ask, threadStarted, turnCompleted, turnStarted],
      5,
      "an event after the turn.completed at line 4: the turn is over",
    ],
    [
      "turn.failed with no exit after it",
      [meta, ask, threadStarted, turnFailed],
      4,
      "turn.failed with no exit after it: codex exec exits 1 after a failed turn",
    ],
    [
      "exit 0 after turn.failed",
      [meta, ask, threadStarted, turnFailed, line({ type: "exit", code: 0 })],
      5,
      "exit 0 after the turn.failed at line 4: codex exec exits 1 after a failed turn",
    ],
    [
      "a run that never ends its turn",
      [meta, ask, threadStarted, turnStarted],
      4,
      "the run ends without turn.completed or turn.failed, and no exit cuts it short",
    ],
  ])("rejects %s, naming its line", async (_name, lines, number, problem) => {
    const error = await Effect.runPromise(Effect.flip(validateTranscript("bad.ndjson", lines.join("\n"))));
    expect(error).toBeInstanceOf(TranscriptError);
    expect(error.line).toBe(number);
    expect(error.problem).toContain(problem);
    expect(error.fix).not.toBe("");
  });
});

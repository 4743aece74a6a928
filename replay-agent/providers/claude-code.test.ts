import { query, type CanUseTool, type Query, type SDKMessage } from "@anthropic-ai/claude-agent-sdk";
import * as Effect from "effect/Effect";
import { describe, expect, it, onTestFinished } from "vitest";
import { fixture } from "../fixtures/fixture.ts";
import { writeNew } from "../fixtures/new-file.ts";
import { startStdioPeer, TranscriptError, validateTranscript } from "../index.ts";

const startPeer = async (name: string, transcript = fixture(name)) => {
  const peer = await startStdioPeer({ transcript });
  onTestFinished(() => peer.close());
  return peer;
};

/** Every message the app reads from the query, and the error that ended it, if any. */
const readAll = async (q: Query): Promise<{ readonly messages: ReadonlyArray<SDKMessage>; readonly error: unknown }> => {
  const messages: Array<SDKMessage> = [];
  try {
    for await (const message of q) messages.push(message);
    return { messages, error: undefined };
  } catch (error) {
    return { messages, error };
  }
};

/** The assistant's content blocks as the app shows them: text, or the tool it calls. */
const blocksOf = (messages: ReadonlyArray<SDKMessage>): ReadonlyArray<string> =>
  messages.flatMap((message) =>
    message.type === "assistant"
      ? message.message.content.map((block) =>
          block.type === "text" ? block.text : block.type === "tool_use" ? `tool ${block.name}` : block.type,
        )
      : [],
  );

const toolTurnArgs = [
  "--output-format",
  "stream-json",
  "--verbose",
  "--input-format",
  "stream-json",
  "--model=claude-sonnet-4-5",
  "--permission-prompt-tool=stdio",
];

describe("the claude-code profile, spawned by the Agent SDK", () => {
  it("plays a turn with a tool: the app's canUseTool answers the CLI's permission request, and the app reads the texts and the result", async () => {
    const peer = await startPeer("claude-code/tool-turn.ndjson");
    const asked: Array<{ readonly tool: string; readonly input: unknown; readonly toolUseID: string }> = [];
    const canUseTool: CanUseTool = async (tool, input, { toolUseID }) => {
      asked.push({ tool, input, toolUseID });
      return { behavior: "allow", updatedInput: input };
    };
    const q = query({
      prompt: "What is in src?",
      options: { pathToClaudeCodeExecutable: peer.executable, model: "claude-sonnet-4-5", canUseTool },
    });
    const { messages, error } = await readAll(q);

    expect(error).toBeUndefined();
    expect(asked).toEqual([
      { tool: "Bash", input: { command: "ls src", description: "List files in src" }, toolUseID: "toolu_01Hs8K2mXw9Pq4Lr7Tv3Yc6N" },
    ]);
    expect(blocksOf(messages)).toEqual([
      "I'll list the files in src.",
      "tool Bash",
      "There are two files in src: `math.ts` and `util.ts`.",
    ]);
    expect(messages.map((message) => (message.type === "system" ? message.subtype : message.type))).toEqual([
      "init",
      "session_state_changed",
      "assistant",
      "assistant",
      "session_state_changed",
      "session_state_changed",
      "user",
      "assistant",
      "result",
      "session_state_changed",
    ]);
    expect(messages.at(-2)).toMatchObject({
      type: "result",
      subtype: "success",
      result: "There are two files in src: `math.ts` and `util.ts`.",
    });

    await peer.close();
    expect(peer.status()).toMatchObject({ played: 16, remaining: 0, mismatches: [], next: null });
    expect(peer.requests().map(({ message, matched, line }) => ({ message, matched, line }))).toEqual([
      { message: { spawn: { args: toolTurnArgs } }, matched: true, line: 4 },
      {
        message: expect.objectContaining({ type: "control_request", request: expect.objectContaining({ subtype: "initialize" }) }),
        matched: true,
        line: 5,
      },
      {
        message: {
          type: "user",
          session_id: "",
          message: { role: "user", content: [{ type: "text", text: "What is in src?" }] },
          parent_tool_use_id: null,
        },
        matched: true,
        line: 7,
      },
      {
        message: {
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
        matched: true,
        line: 14,
      },
    ]);
  });

  it("plays what replay-agent new writes: the thinking, the text, a tool the app's canUseTool allows, the answer and the result", async () => {
    const { file } = await writeNew({
      provider: "claude-code",
      model: "claude-sonnet-4-5",
      turns: [
        {
          user: "What is in src?",
          thinking: "The user wants the files in src.",
          reply: "I'll list the files in src.",
          tools: [{ name: "Bash", arguments: { command: "ls src" }, result: "math.ts" }],
        },
        { reply: "There is one file in src: `math.ts`." },
      ],
    });
    const peer = await startPeer("new", file);
    const asked: Array<{ readonly tool: string; readonly input: unknown }> = [];
    const canUseTool: CanUseTool = async (tool, input) => {
      asked.push({ tool, input });
      return { behavior: "allow", updatedInput: input };
    };
    const q = query({
      prompt: "What is in src?",
      options: { pathToClaudeCodeExecutable: peer.executable, model: "claude-sonnet-4-5", canUseTool },
    });
    const { messages, error } = await readAll(q);

    expect(error).toBeUndefined();
    expect(asked).toEqual([{ tool: "Bash", input: { command: "ls src" } }]);
    const thinking = messages.flatMap((message) =>
      message.type === "assistant" ? message.message.content.flatMap((block) => (block.type === "thinking" ? [block.thinking] : [])) : [],
    );
    expect(thinking).toEqual(["The user wants the files in src."]);
    expect(blocksOf(messages)).toEqual(["thinking", "I'll list the files in src.", "tool Bash", "There is one file in src: `math.ts`."]);
    expect(messages.find((message) => message.type === "user")).toMatchObject({
      message: { content: [{ type: "tool_result", content: "math.ts" }] },
    });
    expect(messages.find((message) => message.type === "result")).toMatchObject({
      subtype: "success",
      result: "There is one file in src: `math.ts`.",
      num_turns: 2,
    });
    await peer.close();
    expect(peer.status()).toMatchObject({ remaining: 0, mismatches: [], next: null });
  });

  it("answers the app's interrupt with the request_id the SDK picked, then ends the turn with the interrupted result", async () => {
    const peer = await startPeer("claude-code/interrupt.ndjson");
    const q = query({
      prompt: "Summarize the README",
      options: { pathToClaudeCodeExecutable: peer.executable, includePartialMessages: true },
    });
    const deltas: Array<string> = [];
    const messages: Array<SDKMessage> = [];
    let receipt: unknown;
    for await (const message of q) {
      messages.push(message);
      if (message.type === "stream_event" && message.event.type === "content_block_delta" && message.event.delta.type === "text_delta") {
        deltas.push(message.event.delta.text);
        if (deltas.length === 2) receipt = await q.interrupt();
      }
    }

    expect(deltas).toEqual(["The README", " describes"]);
    expect(receipt).toEqual({ still_queued: [] });
    expect(messages.map((message) => message.type)).toEqual([
      "system",
      "system",
      "stream_event",
      "stream_event",
      "stream_event",
      "stream_event",
      "user",
      "result",
      "system",
    ]);
    expect(messages.at(-2)).toMatchObject({
      type: "result",
      subtype: "error_during_execution",
      is_error: true,
      errors: ["[ede_diagnostic] result_type=user last_content_type=n/a stop_reason=null"],
    });
    await peer.close();
    expect(peer.status()).toMatchObject({ remaining: 0, mismatches: [], next: null });
    expect(peer.requests().at(-1)).toMatchObject({
      message: { type: "control_request", request_id: expect.stringMatching(/^[0-9a-z]+$/), request: { subtype: "interrupt" } },
      matched: true,
      line: 14,
    });
  });

  it("refuses to start with an argument the transcript's spawn line does not expect, naming it", async () => {
    const peer = await startPeer("claude-code/tool-turn.ndjson");
    const q = query({
      prompt: "What is in src?",
      options: {
        pathToClaudeCodeExecutable: peer.executable,
        model: "claude-opus-4-1",
        canUseTool: async (_tool, input) => ({ behavior: "allow", updatedInput: input }),
      },
    });
    const { messages, error } = await readAll(q);

    expect(messages).toEqual([]);
    expect(error).toBeInstanceOf(Error);
    expect(String(error)).toContain("Claude Code process exited with code 1");
    expect(String(error)).toContain('spawn.args[5]: expected "--model=claude-sonnet-4-5", got "--model=claude-opus-4-1"');
    await peer.close();
    expect(peer.status()).toMatchObject({
      played: 0,
      mismatches: [
        {
          message: { spawn: { args: toolTurnArgs.map((arg) => (arg === "--model=claude-sonnet-4-5" ? "--model=claude-opus-4-1" : arg)) } },
          expectedLine: 4,
          diff: 'spawn.args[5]: expected "--model=claude-sonnet-4-5", got "--model=claude-opus-4-1"',
        },
      ],
      next: { line: 4, type: "expect_outbound" },
    });
  });

  it("rejects an unexpected control request with an error control_response and ends an unexpected prompt's turn with an error result", async () => {
    const peer = await startPeer("claude-code/tool-turn.ndjson");
    const q = query({
      prompt: "Hello",
      options: {
        pathToClaudeCodeExecutable: peer.executable,
        model: "claude-sonnet-4-5",
        canUseTool: async (_tool, input) => ({ behavior: "allow", updatedInput: input }),
      },
    });
    const modeChange = q.setPermissionMode("acceptEdits").then(
      () => undefined,
      (error: unknown) => error,
    );
    const { messages, error } = await readAll(q);

    const unexpectedPrompt =
      'replay-agent did not expect this user message (the transcript expects line 7 here): message.content[0].text: expected "What is in src?", got "Hello"';
    expect(messages).toEqual([
      expect.objectContaining({ type: "result", subtype: "error_during_execution", is_error: true, errors: [unexpectedPrompt] }),
    ]);
    expect(String(error)).toContain(`Claude Code returned an error result: ${unexpectedPrompt}`);
    expect(await modeChange).toBeInstanceOf(Error);
    expect(String(await modeChange)).toContain(
      'replay-agent did not expect this set_permission_mode control_request (the transcript expects line 7 here): type: expected "user", got "control_request"',
    );
    await peer.close();
    expect(peer.status()).toMatchObject({
      remaining: 13,
      mismatches: [
        { message: { type: "user" }, expectedLine: 7 },
        { message: { type: "control_request", request: { subtype: "set_permission_mode", mode: "acceptEdits" } }, expectedLine: 7 },
      ],
    });
  });
});

const line = (value: object) => JSON.stringify(value);
const meta = line({ type: "meta", format: "replay-transcript", version: 1, provider: "claude-code" });
const initialize = line({
  type: "expect_outbound",
  message: { type: "control_request", request_id: { $any: true }, request: { subtype: "initialize" } },
});
const emit = (message: unknown) => line({ type: "emit_inbound", message });
const initialized = emit({ type: "control_response", response: { subtype: "success", request_id: "k7w2d9x4m1qz", response: {} } });
const prompt = line({ type: "expect_outbound", message: { type: "user" } });
const permission = emit({
  type: "control_request",
  request_id: "6d1e3b7a-2c4f-4a9e-8b5d-0f7c9e2a4b61",
  request: { subtype: "can_use_tool", tool_name: "Bash", input: {}, tool_use_id: "toolu_01" },
});

describe("the claude-code framing rules", () => {
  it.each([
    ["a message without a type", [meta, initialize, emit({ subtype: "init" })], 3, 'expected a JSON object with a string "type"'],
    [
      "a control_request id the SDK never sends",
      [
        meta,
        line({
          type: "expect_outbound",
          message: { type: "control_request", request_id: "k7w2d9x4m1qz", request: { subtype: "initialize" } },
        }),
      ],
      2,
      'the SDK picks a new random request_id for each control_request, so "k7w2d9x4m1qz" will never match',
    ],
    ["an app's control_request left unanswered", [meta, initialize, prompt], 2, "the app's initialize control_request is never answered"],
    [
      "a control_response outside the answer to a control_request",
      [meta, initialize, initialized, prompt, initialized],
      5,
      "a control_response answers a control_request of the app, but this one is not in the answer to one",
    ],
    [
      "a CLI permission request the app never answers",
      [meta, initialize, initialized, prompt, permission],
      5,
      "the CLI's can_use_tool control_request (request_id",
    ],
    [
      "an error result without errors",
      [meta, initialize, initialized, prompt, emit({ type: "result", subtype: "error_during_execution", is_error: true })],
      5,
      'an error result of subtype "error_during_execution" needs "errors", an array of strings',
    ],
    [
      "a spawn line after the first",
      [meta, initialize, initialized, line({ type: "expect_outbound", spawn: { args: [] } })],
      4,
      'expect_outbound with "spawn" after line 2',
    ],
    [
      "a spawn line in a lane",
      [meta, line({ type: "expect_outbound", spawn: { args: [] }, lane: "start" })],
      2,
      'expect_outbound with "spawn" is matched once, when the app starts the agent, and takes no "lane"',
    ],
  ])("rejects %s, naming its line", async (_name, lines, number, problem) => {
    const error = await Effect.runPromise(Effect.flip(validateTranscript("bad.ndjson", lines.join("\n"))));
    expect(error).toBeInstanceOf(TranscriptError);
    expect(error.line).toBe(number);
    expect(error.problem).toContain(problem);
    expect(error.fix).not.toBe("");
  });
});

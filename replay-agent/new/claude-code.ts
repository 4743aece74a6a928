import { base36, draw, ids, uuid } from "./ids.ts";
import {
  emitMessage,
  expectMessage,
  type SessionLine,
  type SessionPlan,
  type SessionTemplate,
  type SessionTurn,
} from "./session-template.ts";
import { textContent } from "./template.ts";

/**
 * The Claude Code CLI as the Agent SDK drives it (`--input-format stream-json`): the SDK's
 * initialize control_request and the CLI's answer, then per prompt the `system` init message, one
 * `assistant` message per content block (thinking, text, tool_use), for each tool the
 * `can_use_tool` control_request the app answers and the tool's result as a `user` message, and
 * the `result`. Without `includePartialMessages` the CLI sends whole blocks, no stream events.
 */

const version = "2.1.335";
const cwd = "/home/dev/project";

/** The dated model the API names in assistant messages. */
const dated: Readonly<Record<string, string>> = {
  "claude-sonnet-4-5": "claude-sonnet-4-5-20250929",
  "claude-haiku-4-5": "claude-haiku-4-5-20251001",
  "claude-opus-4-1": "claude-opus-4-1-20250805",
};

/** What the CLI answers the SDK's initialize with: its commands, agents, models and account. */
const initializeResponse = {
  commands: [
    {
      name: "compact",
      description: "Clear conversation history but keep a summary in context. Optional: /compact [instructions for summarization]",
      argumentHint: "<optional custom summarization instructions>",
    },
    { name: "review", description: "Review a pull request", argumentHint: "" },
  ],
  agents: [
    {
      name: "general-purpose",
      description: "General-purpose agent for researching complex questions, searching for code, and executing multi-step tasks.",
    },
    { name: "Explore", description: "Fast agent specialized for exploring codebases.", model: "haiku" },
  ],
  output_style: "default",
  available_output_styles: ["default", "Explanatory", "Learning"],
  models: [
    { value: "default", displayName: "Default (recommended)", description: "Sonnet 4.5 · Smartest model for daily use" },
    { value: "opus", displayName: "Opus", description: "Opus 4.1 · Legacy model" },
    { value: "haiku", displayName: "Haiku", description: "Haiku 4.5 · Fastest model for simple tasks" },
  ],
  account: { apiKeySource: "ANTHROPIC_API_KEY", apiProvider: "firstParty" },
  claude_code_version: version,
  pending_permission_requests: [],
  pending_user_dialog_requests: [],
};

const tools = [
  "Task",
  "Bash",
  "Glob",
  "Grep",
  "ExitPlanMode",
  "Read",
  "Edit",
  "Write",
  "NotebookEdit",
  "WebFetch",
  "TodoWrite",
  "WebSearch",
];

const usageOf = (input: number, output: number) => ({
  input_tokens: input,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
  cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
  output_tokens: output,
  service_tier: "standard",
});

/** Sonnet 4.5's price: $3 a million input tokens, $15 a million output tokens. */
const cost = (input: number, output: number) => Math.round((input * 3 + output * 15) * 1000) / 1e9;

const turnLines = (session: SessionPlan, turn: SessionTurn): ReadonlyArray<SessionLine> => {
  const sessionId = uuid(`claudeSession|${session.seed}`);
  const model = dated[session.model] ?? session.model;
  const uuidOf = (what: string) => uuid(`claudeMessage|${turn.seed}|${what}`);
  const state = (step: number, value: string, what: string) =>
    emitMessage(step, { type: "system", subtype: "session_state_changed", state: value, uuid: uuidOf(what), session_id: sessionId });
  const lines: Array<SessionLine> = [
    expectMessage(turn.first, { type: "user", message: { role: "user", content: textContent(turn.user, "text") } }),
    emitMessage(turn.first, {
      type: "system",
      subtype: "init",
      cwd,
      session_id: sessionId,
      tools,
      mcp_servers: [],
      model: session.model,
      permissionMode: "default",
      slash_commands: ["compact", "context", "cost", "init", "pr-comments", "release-notes", "review", "security-review"],
      apiKeySource: "ANTHROPIC_API_KEY",
      claude_code_version: version,
      output_style: "default",
      agents: ["general-purpose", "statusline-setup", "Explore", "Plan"],
      skills: [],
      plugins: [],
      uuid: uuidOf("init"),
    }),
    state(turn.first, "running", "running"),
  ];
  for (const [offset, step] of turn.steps.entries()) {
    const index = turn.first + offset;
    const id = ids.anthropicMessage(`${turn.seed}|${offset}`);
    const input = 3 + offset * 3;
    const output = Math.max(1, Math.round(turn.usage.output / turn.steps.length));
    const assistant = (what: string, block: unknown) =>
      emitMessage(
        index,
        {
          type: "assistant",
          message: {
            model,
            id,
            type: "message",
            role: "assistant",
            content: [block],
            stop_reason: null,
            stop_sequence: null,
            usage: usageOf(input, output),
          },
          parent_tool_use_id: null,
          session_id: sessionId,
          uuid: uuidOf(`${offset}|${what}`),
        },
        true,
      );
    if (step.thinking !== undefined) {
      lines.push(
        assistant("thinking", { type: "thinking", thinking: step.thinking, signature: ids.thinkingSignature(`${turn.seed}|${offset}`) }),
      );
    }
    if (step.text !== undefined) lines.push(assistant("text", { type: "text", text: step.text }));
    for (const call of step.calls)
      lines.push(assistant(call.id ?? "", { type: "tool_use", id: call.id, name: call.name, input: call.arguments }));
    for (const call of step.calls) {
      const requestId = uuid(`claudeRequest|${turn.seed}|${offset}|${call.id ?? ""}`);
      lines.push(
        state(index, "requires_action", `${call.id ?? ""}|requires_action`),
        emitMessage(index, {
          type: "control_request",
          request_id: requestId,
          request: { subtype: "can_use_tool", tool_name: call.name, input: call.arguments, tool_use_id: call.id },
        }),
        expectMessage(index + 1, {
          type: "control_response",
          response: { subtype: "success", request_id: requestId, response: { behavior: "allow", toolUseID: call.id } },
        }),
        state(index + 1, "running", `${call.id ?? ""}|running`),
        emitMessage(index + 1, {
          type: "user",
          message: {
            role: "user",
            content: [{ tool_use_id: call.id, type: "tool_result", content: call.result ?? "", is_error: false }],
          },
          parent_tool_use_id: null,
          session_id: sessionId,
          uuid: uuidOf(`${call.id ?? ""}|result`),
        }),
      );
    }
  }
  const last = turn.first + turn.steps.length - 1;
  const { input, output } = turn.usage;
  lines.push(
    emitMessage(last, {
      type: "result",
      subtype: "success",
      is_error: false,
      duration_ms: 1200 + 900 * turn.steps.length,
      duration_api_ms: 1000 + 800 * turn.steps.length,
      num_turns: turn.steps.length,
      result: turn.steps.at(-1)?.text ?? "",
      stop_reason: "end_turn",
      session_id: sessionId,
      total_cost_usd: cost(input, output),
      usage: {
        input_tokens: input,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
        output_tokens: output,
        server_tool_use: { web_search_requests: 0, web_fetch_requests: 0 },
        service_tier: "standard",
        cache_creation: { ephemeral_1h_input_tokens: 0, ephemeral_5m_input_tokens: 0 },
      },
      modelUsage: {
        [model]: {
          inputTokens: input,
          outputTokens: output,
          cacheReadInputTokens: 0,
          cacheCreationInputTokens: 0,
          webSearchRequests: 0,
          costUSD: cost(input, output),
          contextWindow: 200000,
          maxOutputTokens: 64000,
        },
      },
      permission_denials: [],
      uuid: uuidOf("result"),
    }),
    state(last, "idle", "idle"),
  );
  return lines;
};

export const claudeCodeTemplate: SessionTemplate = {
  defaultModel: "claude-sonnet-4-5",
  thinking: true,
  takesToolIds: true,
  oneTurn: false,
  toolProblem: () => undefined,
  toolId: ids.toolUse,
  open: (session) => [
    ...(session.asked === undefined ? [] : [{ type: "expect_outbound", spawn: { args: { $some: `--model=${session.asked}` } } }]),
    {
      type: "expect_outbound",
      message: { type: "control_request", request_id: { $any: true }, request: { subtype: "initialize" } },
    },
    {
      type: "emit_inbound",
      message: {
        type: "control_response",
        response: {
          subtype: "success",
          request_id: draw(`claudeInitialize|${session.seed}`, 12, base36),
          response: initializeResponse,
        },
      },
    },
  ],
  turn: turnLines,
};

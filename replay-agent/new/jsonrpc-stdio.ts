import { uuid } from "./ids.ts";
import {
  emitMessage,
  expectMessage,
  type SessionLine,
  type SessionPlan,
  type SessionTemplate,
  type SessionTurn,
} from "./session-template.ts";
import { tokenize } from "./tokenize.ts";

/**
 * An agent of the Agent Client Protocol on stdio (JSON-RPC 2.0, one message a line): the client's
 * `initialize` and `session/new`, then per prompt the client's `session/prompt`, answered by
 * `session/update` notifications (`agent_thought_chunk` and `agent_message_chunk` a token each;
 * for a tool call `tool_call`, the agent's `session/request_permission` the client answers, and
 * `tool_call_update` with the tool's output) and the prompt's result with its `stopReason`. The
 * client numbers its requests from 0, as `@agentclientprotocol/sdk` does; so does the agent.
 */

const rpc = { jsonrpc: "2.0" } as const;

/** The id of the agent's session. */
const sessionIdOf = (session: SessionPlan) => `sess_${uuid(`acpSession|${session.seed}`).replaceAll("-", "").slice(0, 12)}`;

/** How many permission requests the agent sent in the turns before `turn`: the next one's id. */
const requestsBefore = (turn: SessionTurn | undefined): number =>
  turn === undefined ? 0 : requestsBefore(turn.previous) + turn.steps.reduce((sum, step) => sum + step.calls.length, 0);

const turnLines = (session: SessionPlan, turn: SessionTurn): ReadonlyArray<SessionLine> => {
  const sessionId = sessionIdOf(session);
  const promptId = 2 + turn.index;
  let permission = requestsBefore(turn.previous);
  const update = (step: number, value: Readonly<Record<string, unknown>>, delta = false) =>
    emitMessage(step, { ...rpc, method: "session/update", params: { sessionId, update: value } }, delta);
  const chunks = (step: number, kind: string, text: string) =>
    tokenize(text).map((piece) => update(step, { sessionUpdate: kind, content: { type: "text", text: piece } }, true));
  const lines: Array<SessionLine> = [
    expectMessage(turn.first, {
      ...rpc,
      id: promptId,
      method: "session/prompt",
      params: { sessionId, prompt: { $some: { type: "text", text: turn.user } } },
    }),
  ];
  for (const [offset, step] of turn.steps.entries()) {
    const index = turn.first + offset;
    if (step.thinking !== undefined) lines.push(...chunks(index, "agent_thought_chunk", step.thinking));
    if (step.text !== undefined) lines.push(...chunks(index, "agent_message_chunk", step.text));
    for (const call of step.calls) {
      const toolCall = { toolCallId: call.id, title: call.name, kind: "other", status: "pending", rawInput: call.arguments };
      const requestId = permission++;
      lines.push(
        update(index, { sessionUpdate: "tool_call", ...toolCall }, true),
        emitMessage(index, {
          ...rpc,
          id: requestId,
          method: "session/request_permission",
          params: {
            sessionId,
            toolCall,
            options: [
              { optionId: "allow", name: "Allow", kind: "allow_once" },
              { optionId: "reject", name: "Reject", kind: "reject_once" },
            ],
          },
        }),
        expectMessage(index + 1, { ...rpc, id: requestId, result: { outcome: { outcome: "selected", optionId: "allow" } } }),
        update(index + 1, { sessionUpdate: "tool_call_update", toolCallId: call.id, status: "in_progress" }),
        update(index + 1, {
          sessionUpdate: "tool_call_update",
          toolCallId: call.id,
          status: "completed",
          content: [{ type: "content", content: { type: "text", text: call.result ?? "" } }],
          rawOutput: { output: call.result ?? "" },
        }),
      );
    }
  }
  lines.push(emitMessage(turn.first + turn.steps.length - 1, { ...rpc, id: promptId, result: { stopReason: "end_turn" } }));
  return lines;
};

export const jsonRpcStdioTemplate: SessionTemplate = {
  defaultModel: undefined,
  thinking: true,
  takesToolIds: true,
  oneTurn: false,
  toolProblem: () => undefined,
  toolId: (seed, name) => `${name}_${uuid(`acpToolCall|${seed}`).slice(0, 8)}`,
  open: (session) => [
    { type: "expect_outbound", message: { ...rpc, id: 0, method: "initialize", params: { protocolVersion: 1 } } },
    {
      type: "emit_inbound",
      message: {
        ...rpc,
        id: 0,
        result: {
          protocolVersion: 1,
          agentCapabilities: { loadSession: false, promptCapabilities: { image: false, audio: false, embeddedContext: false } },
          authMethods: [],
          agentInfo: { name: "replayed-agent", version: "0.1.0" },
        },
      },
    },
    {
      type: "expect_outbound",
      message: { ...rpc, id: 1, method: "session/new", params: { cwd: { $any: true }, mcpServers: { $any: true } } },
    },
    { type: "emit_inbound", message: { ...rpc, id: 1, result: { sessionId: sessionIdOf(session) } } },
  ],
  turn: turnLines,
};

import { codexId, codexToolProblem, commandOf } from "./codex-common.ts";
import { ids } from "./ids.ts";
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
 * `codex app-server` on stdio (JSON-RPC without the "jsonrpc" member): the app's `initialize`,
 * `initialized` and `thread/start`, then per turn its `turn/start`, answered by the turn, the
 * items it adds (the user's message; reasoning with its summary deltas; the agent's message with
 * its deltas; for each shell command the item, the `item/commandExecution/requestApproval` the
 * app answers, its output and its completion), the token usage and `turn/completed`. The app
 * numbers its requests from 0, and so does the server.
 */

const cwd = "/home/dev/project";
const cliVersion = "0.155.1";

const threadIdOf = (session: SessionPlan) => codexId(`thread|${session.seed}`);

/** The thread as thread/start answers it and thread/started announces it. */
const threadOf = (session: SessionPlan) => {
  const id = threadIdOf(session);
  return {
    id,
    environments: null,
    extra: null,
    sessionId: id,
    forkedFromId: null,
    parentThreadId: null,
    preview: "",
    ephemeral: false,
    section: null,
    sectionEnteredAt: null,
    projectId: null,
    historyMode: "legacy",
    modelProvider: "openai",
    model: session.model,
    reasoningEffort: "medium",
    createdAt: 1764496400,
    updatedAt: 1764496400,
    recencyAt: 1764496400,
    status: { type: "idle" },
    path: `/home/dev/.codex/sessions/2025/11/30/rollout-2025-11-30T09-53-20-${id}.jsonl`,
    cwd,
    cliVersion,
    originator: "codex_app_server",
    source: "appServer",
    canAcceptDirectInput: true,
    threadSource: null,
    agentNickname: null,
    agentRole: null,
    gitInfo: null,
    name: null,
    daybreakEnabled: null,
    turns: [],
  };
};

/** How many approvals the server asked for in the turns before `turn`: the next request's id. */
const requestsBefore = (turn: SessionTurn | undefined): number =>
  turn === undefined ? 0 : requestsBefore(turn.previous) + turn.steps.reduce((sum, step) => sum + step.calls.length, 0);

const turnLines = (session: SessionPlan, turn: SessionTurn): ReadonlyArray<SessionLine> => {
  const threadId = threadIdOf(session);
  const turnId = codexId(`turn|${turn.seed}`);
  const at = 1764496401 + turn.index * 60;
  const where = { threadId, turnId };
  let request = requestsBefore(turn.previous);
  const notify = (step: number, method: string, params: Readonly<Record<string, unknown>>, delta = false) =>
    emitMessage(step, { method, params }, delta);
  const item = (
    step: number,
    started: Readonly<Record<string, unknown>>,
    completed: Readonly<Record<string, unknown>>,
    between: ReadonlyArray<SessionLine>,
  ) => [
    notify(step, "item/started", { item: started, ...where, startedAtMs: at * 1000 + 12 }),
    ...between,
    notify(step, "item/completed", { item: completed, ...where, completedAtMs: at * 1000 + 13 }),
  ];
  const turnOf = (status: string, started: number | null, completed: number | null) => ({
    id: turnId,
    items: [],
    itemsView: "notLoaded",
    status,
    error: null,
    startedAt: started,
    completedAt: completed,
    durationMs: completed === null || started === null ? null : (completed - started) * 1000,
  });
  const userItem = {
    type: "userMessage",
    id: codexId(`user|${turn.seed}`),
    clientId: null,
    content: [{ type: "text", text: turn.user, text_elements: [] }],
  };
  const lines: Array<SessionLine> = [
    expectMessage(turn.first, {
      id: 2 + turn.index,
      method: "turn/start",
      params: { threadId, input: { $some: { type: "text", text: turn.user } } },
    }),
    emitMessage(turn.first, { id: 2 + turn.index, result: { turn: turnOf("inProgress", null, null) } }),
    notify(turn.first, "turn/started", { threadId, turn: turnOf("inProgress", at, null) }),
    ...item(turn.first, userItem, userItem, []),
  ];
  for (const [offset, step] of turn.steps.entries()) {
    const index = turn.first + offset;
    const seed = `${turn.seed}|${offset}`;
    if (step.thinking !== undefined) {
      const itemId = ids.reasoning(seed);
      const reasoning = { type: "reasoning", id: itemId };
      lines.push(
        ...item(index, { ...reasoning, summary: [], content: [] }, { ...reasoning, summary: [step.thinking], content: [] }, [
          notify(index, "item/reasoning/summaryPartAdded", { ...where, itemId, summaryIndex: 0 }),
          ...tokenize(step.thinking).map((delta) =>
            notify(index, "item/reasoning/summaryTextDelta", { ...where, itemId, delta, summaryIndex: 0 }, true),
          ),
        ]),
      );
    }
    if (step.text !== undefined) {
      const itemId = ids.responseMessage(seed);
      const message = {
        type: "agentMessage",
        id: itemId,
        phase: step.calls.length > 0 ? "commentary" : "final_answer",
        memoryCitation: null,
        delivery: null,
        questions: null,
      };
      lines.push(
        ...item(
          index,
          { ...message, text: "" },
          { ...message, text: step.text },
          tokenize(step.text).map((delta) => notify(index, "item/agentMessage/delta", { ...where, itemId, delta }, true)),
        ),
      );
    }
    for (const call of step.calls) {
      const itemId = call.id ?? "";
      const command = commandOf(call.arguments);
      const commandActions = [{ type: "unknown", command }];
      const execution = {
        type: "commandExecution",
        id: itemId,
        pluginId: null,
        scriptPath: null,
        command,
        cwd,
        processId: null,
        source: "agent",
        commandActions,
      };
      const requestId = request++;
      const output = call.result ?? "";
      lines.push(
        notify(
          index,
          "item/started",
          {
            item: { ...execution, status: "inProgress", aggregatedOutput: null, exitCode: null, durationMs: null },
            ...where,
            startedAtMs: at * 1000 + 500,
          },
          true,
        ),
        emitMessage(index, {
          id: requestId,
          method: "item/commandExecution/requestApproval",
          params: { ...where, itemId, startedAtMs: at * 1000 + 500, environmentId: null, reason: null, command, cwd, commandActions },
        }),
        expectMessage(index + 1, { id: requestId, result: { decision: "accept" } }),
        notify(index + 1, "serverRequest/resolved", { threadId, requestId }),
        ...(output === "" ? [] : [notify(index + 1, "item/commandExecution/outputDelta", { ...where, itemId, delta: output })]),
        notify(index + 1, "item/completed", {
          item: { ...execution, status: "completed", aggregatedOutput: output, exitCode: 0, durationMs: 812 },
          ...where,
          completedAtMs: at * 1000 + 1400,
        }),
      );
    }
  }
  const last = turn.first + turn.steps.length - 1;
  const usage = (input: number, output: number, reasoning: number) => ({
    totalTokens: input + output,
    inputTokens: input,
    cachedInputTokens: 0,
    cacheWriteInputTokens: 0,
    outputTokens: output,
    reasoningOutputTokens: reasoning,
  });
  const { input, output, thinking } = turn.usage;
  lines.push(
    notify(last, "thread/tokenUsage/updated", {
      ...where,
      tokenUsage: { total: usage(input, output, thinking), last: usage(input, output, thinking), modelContextWindow: 272000 },
    }),
    notify(last, "turn/completed", { threadId, turn: turnOf("completed", at, at + 2 + turn.steps.length) }),
  );
  return lines;
};

export const codexAppServerTemplate: SessionTemplate = {
  defaultModel: "gpt-5.1-codex",
  thinking: true,
  takesToolIds: true,
  oneTurn: false,
  toolProblem: codexToolProblem,
  toolId: ids.openaiCall,
  open: (session) => [
    { type: "expect_outbound", message: { id: 0, method: "initialize", params: { clientInfo: { $any: true } } } },
    {
      type: "emit_inbound",
      message: {
        id: 0,
        result: {
          userAgent: `codex_app_server/${cliVersion} (Ubuntu 24.4.0; x86_64) unknown`,
          codexHome: "/home/dev/.codex",
          platformFamily: "unix",
          platformOs: "linux",
        },
      },
    },
    { type: "expect_outbound", message: { method: "initialized" } },
    {
      type: "expect_outbound",
      message: { id: 1, method: "thread/start", ...(session.asked === undefined ? {} : { params: { model: session.asked } }) },
    },
    {
      type: "emit_inbound",
      message: {
        id: 1,
        result: {
          thread: threadOf(session),
          model: session.model,
          modelProvider: "openai",
          serviceTier: null,
          cwd,
          runtimeWorkspaceRoots: [cwd],
          instructionSources: [],
          approvalPolicy: "on-request",
          approvalsReviewer: "user",
          sandbox: { type: "workspaceWrite", writableRoots: [], networkAccess: false, excludeTmpdirEnvVar: false, excludeSlashTmp: false },
          activePermissionProfile: null,
          reasoningEffort: "medium",
          multiAgentMode: "explicitRequestOnly",
        },
      },
    },
    { type: "emit_inbound", message: { method: "thread/started", params: { thread: threadOf(session) } } },
  ],
  turn: turnLines,
};

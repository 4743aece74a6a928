import { randomUUID } from "node:crypto";
import type { TokenUsage } from "./events.ts";
import { findProject, findThread, type Project, type Thread } from "./projection.ts";
import type { ConversationEntry, ModelProvider, ModelReply, TitleProvider } from "./provider.ts";
import type { Store } from "./store.ts";
import { titleThread } from "./thread-title.ts";
import { runTool } from "./tools.ts";

export interface TurnContext {
  provider: ModelProvider;
  /** Titles the thread in its first turn, beside the reply; null: the first message is its title. */
  titles: TitleProvider | null;
  store: Store;
  threadId: string;
  turnId: string;
  signal: AbortSignal;
}

const maxModelCalls = 8;

/** Runs one turn to its end, recording every step: model calls and tool calls until the model answers. */
export async function runTurn(context: TurnContext): Promise<void> {
  const { store, threadId, turnId, signal } = context;
  // The title is asked beside the reply: the turn neither waits for it nor fails with it.
  void titleThread(context.titles, store, threadId).catch((error: unknown) => console.error(`agent-chat: thread ${threadId} got no title:`, error));
  try {
    const usage = await converse(context);
    store.record({ type: "turn.completed", threadId, turnId, usage });
  } catch (error) {
    if (signal.aborted) store.record({ type: "turn.interrupted", threadId, turnId });
    else store.record({ type: "turn.failed", threadId, turnId, error: errorMessage(error) });
  }
}

async function converse(context: TurnContext): Promise<TokenUsage | null> {
  const { store, threadId, turnId, signal } = context;
  const state = store.sync();
  const thread = findThread(state, threadId);
  if (!thread) throw new Error(`thread ${threadId} does not exist`);
  const project = thread.projectName === null ? undefined : findProject(state, thread.projectName);
  const conversation = history(thread);
  let usage: TokenUsage | null = null;
  for (let call = 0; call < maxModelCalls; call++) {
    const reply = await streamReply(context, systemPrompt(project), conversation);
    usage = addUsage(usage, reply.usage);
    if (reply.stop !== "tool_calls") return usage;
    conversation.push({ role: "assistant", text: reply.text, toolCalls: reply.toolCalls });
    for (const toolCall of reply.toolCalls) {
      const toolCallId = randomUUID();
      store.record({ type: "tool_call.started", threadId, turnId, toolCallId, name: toolCall.name, arguments: toolCall.arguments });
      const result = runTool(toolCall.name, toolCall.arguments, project?.dir ?? null);
      store.record({ type: "tool_call.finished", threadId, toolCallId, result });
      conversation.push({ role: "tool", toolCallId: toolCall.id, result });
    }
    signal.throwIfAborted();
  }
  throw new Error(`the model was still calling tools after ${maxModelCalls} rounds`);
}

// One model call, its text recorded delta by delta as it streams in.
async function streamReply(context: TurnContext, system: string, conversation: ConversationEntry[]): Promise<ModelReply> {
  const { provider, store, threadId, turnId, signal } = context;
  let messageId: string | null = null;
  const onText = (text: string) => {
    if (messageId === null) {
      messageId = randomUUID();
      store.record({ type: "message.assistant.started", threadId, turnId, messageId });
    }
    store.record({ type: "message.assistant.delta", threadId, messageId, text });
  };
  return provider.stream({ system, conversation, onText, signal });
}

function history(thread: Thread): ConversationEntry[] {
  return thread.messages
    .filter((message) => message.text !== "")
    .map((message) => (message.role === "user" ? { role: "user", text: message.text } : { role: "assistant", text: message.text, toolCalls: [] }));
}

function systemPrompt(project: Project | undefined): string {
  const where =
    project === undefined
      ? "This thread has no project, so there are no files to look at."
      : `You are working in the project "${project.name}". Use list_files and read_file to look at its files.`;
  return `You are agent-chat, a helpful assistant for a software project. ${where} Answer concisely.`;
}

function addUsage(total: TokenUsage | null, usage: TokenUsage | null): TokenUsage | null {
  if (usage === null) return total;
  return {
    promptTokens: (total?.promptTokens ?? 0) + usage.promptTokens,
    completionTokens: (total?.completionTokens ?? 0) + usage.completionTokens,
  };
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

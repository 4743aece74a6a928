import { randomUUID } from "node:crypto";
import type { OpenAI } from "openai";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import type { CompletionUsage } from "openai/resources/completions";
import type { TokenUsage } from "./events.ts";
import { findProject, findThread, type Project, type Thread } from "./projection.ts";
import type { Store } from "./store.ts";
import { StreamAssembly } from "./stream-assembly.ts";
import { runTool, toolDefinitions } from "./tools.ts";

export interface ModelSettings {
  client: OpenAI;
  model: string;
}

export interface TurnContext extends ModelSettings {
  store: Store;
  threadId: string;
  turnId: string;
  signal: AbortSignal;
}

const maxModelCalls = 8;

/** Runs one turn to its end, recording every step: model calls and tool calls until the model answers. */
export async function runTurn(context: TurnContext): Promise<void> {
  const { store, threadId, turnId, signal } = context;
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
  const messages = history(thread, project);
  let usage: TokenUsage | null = null;
  for (let call = 0; call < maxModelCalls; call++) {
    const assembly = await streamCompletion(context, messages);
    usage = addUsage(usage, assembly.usage);
    if (assembly.finishReason === null) throw new Error("the model's stream ended without a finish reason");
    if (assembly.finishReason !== "tool_calls") return usage;
    const toolCalls = assembly.toolCalls();
    messages.push({
      role: "assistant",
      content: assembly.text === "" ? null : assembly.text,
      tool_calls: toolCalls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.arguments } })),
    });
    for (const toolCall of toolCalls) {
      const toolCallId = randomUUID();
      store.record({ type: "tool_call.started", threadId, turnId, toolCallId, name: toolCall.name, arguments: toolCall.arguments });
      const result = runTool(toolCall.name, toolCall.arguments, project?.dir ?? null);
      store.record({ type: "tool_call.finished", threadId, toolCallId, result });
      messages.push({ role: "tool", tool_call_id: toolCall.id, content: result });
    }
    signal.throwIfAborted();
  }
  throw new Error(`the model was still calling tools after ${maxModelCalls} rounds`);
}

// One model call, its text recorded delta by delta as it streams in.
async function streamCompletion(context: TurnContext, messages: ChatCompletionMessageParam[]): Promise<StreamAssembly> {
  const { client, model, store, threadId, turnId, signal } = context;
  const stream = await client.chat.completions.create(
    { model, messages, tools: toolDefinitions, stream: true, stream_options: { include_usage: true } },
    { signal },
  );
  const assembly = new StreamAssembly();
  let messageId: string | null = null;
  for await (const chunk of stream) {
    const text = assembly.add(chunk);
    if (text === "") continue;
    if (messageId === null) {
      messageId = randomUUID();
      store.record({ type: "message.assistant.started", threadId, turnId, messageId });
    }
    store.record({ type: "message.assistant.delta", threadId, messageId, text });
  }
  return assembly;
}

function history(thread: Thread, project: Project | undefined): ChatCompletionMessageParam[] {
  const messages: ChatCompletionMessageParam[] = [{ role: "system", content: systemPrompt(project) }];
  for (const message of thread.messages) {
    if (message.text !== "") messages.push({ role: message.role, content: message.text });
  }
  return messages;
}

function systemPrompt(project: Project | undefined): string {
  const where =
    project === undefined
      ? "This thread has no project, so there are no files to look at."
      : `You are working in the project "${project.name}". Use list_files and read_file to look at its files.`;
  return `You are agent-chat, a helpful assistant for a software project. ${where} Answer concisely.`;
}

function addUsage(total: TokenUsage | null, usage: CompletionUsage | null): TokenUsage | null {
  if (usage === null) return total;
  return {
    promptTokens: (total?.promptTokens ?? 0) + usage.prompt_tokens,
    completionTokens: (total?.completionTokens ?? 0) + usage.completion_tokens,
  };
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

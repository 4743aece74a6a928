// The model provider as the turn loop sees it, in no provider's wire format. Each provider
// (src/providers/) turns a ModelCall into its own request and its stream into a ModelReply.
import type { TokenUsage } from "./events.ts";

export type ProviderName = "openai" | "openai-fetch" | "anthropic" | "ollama" | "codex";

/** Which provider to talk to, where, and with which key and model. */
export interface ProviderSettings {
  name: ProviderName;
  model: string;
  /** The provider's endpoint (for `codex`, the command line that starts the agent); its default when undefined. */
  baseURL: string | undefined;
  apiKey: string;
}

/** A tool call the model asked for; `arguments` is the JSON text of its input. */
export interface ModelToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** One entry of the conversation a model call continues. */
export type ConversationEntry =
  | { role: "user"; text: string }
  | { role: "assistant"; text: string; toolCalls: ModelToolCall[] }
  | { role: "tool"; toolCallId: string; result: string };

export interface ModelCall {
  system: string;
  conversation: readonly ConversationEntry[];
  /** Receives the reply's text piece by piece, as it streams in. */
  onText: (text: string) => void;
  /** Aborts the request: Stop generation. */
  signal: AbortSignal;
}

/** One model call's outcome, once the provider's stream has ended. */
export interface ModelReply {
  text: string;
  /** "tool_calls": the model waits for the results of `toolCalls` before it answers. */
  stop: "answered" | "tool_calls";
  toolCalls: ModelToolCall[];
  usage: TokenUsage | null;
}

export interface ModelProvider {
  /** Streams one model call; rejects on a provider error, a dropped stream or an abort. */
  stream(call: ModelCall): Promise<ModelReply>;
}

/** A second provider that names a thread from its first message, asked beside the reply (AGENT_CHAT_TITLE_PROVIDER). */
export interface TitleProvider {
  /** The title for a thread opened with `message`; rejects on a provider error or an answer with no text. */
  title(message: string): Promise<string>;
}

// Everything agent-chat remembers is one of these events, appended to the log in order.

export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
}

export type ChatEvent =
  | { type: "server.started"; at: string }
  | { type: "project.added"; at: string; name: string; dir: string }
  | { type: "thread.created"; at: string; threadId: string; title: string; projectName: string | null }
  | { type: "thread.titled"; at: string; threadId: string; title: string }
  | { type: "message.user"; at: string; threadId: string; turnId: string; messageId: string; text: string }
  | { type: "turn.started"; at: string; threadId: string; turnId: string }
  | { type: "message.assistant.started"; at: string; threadId: string; turnId: string; messageId: string }
  | { type: "message.assistant.delta"; at: string; threadId: string; messageId: string; text: string }
  | {
      type: "tool_call.started";
      at: string;
      threadId: string;
      turnId: string;
      toolCallId: string;
      name: string;
      arguments: string;
    }
  | { type: "tool_call.finished"; at: string; threadId: string; toolCallId: string; result: string }
  | { type: "turn.completed"; at: string; threadId: string; turnId: string; usage: TokenUsage | null }
  | { type: "turn.interrupted"; at: string; threadId: string; turnId: string }
  | { type: "turn.failed"; at: string; threadId: string; turnId: string; error: string };

type ChatEventType = ChatEvent["type"];

/** An event without its timestamp, as the code that records it writes it. */
export type NewChatEvent = WithoutTime<ChatEvent>;
type WithoutTime<E> = E extends unknown ? Omit<E, "at"> : never;

const eventTypes: ReadonlySet<string> = new Set<ChatEventType>([
  "server.started",
  "project.added",
  "thread.created",
  "thread.titled",
  "message.user",
  "turn.started",
  "message.assistant.started",
  "message.assistant.delta",
  "tool_call.started",
  "tool_call.finished",
  "turn.completed",
  "turn.interrupted",
  "turn.failed",
]);

export function isChatEvent(value: unknown): value is ChatEvent {
  if (typeof value !== "object" || value === null) return false;
  const { type, at } = value as { type?: unknown; at?: unknown };
  return typeof type === "string" && eventTypes.has(type) && typeof at === "string";
}

export function stamp(event: NewChatEvent): ChatEvent {
  return { ...event, at: new Date().toISOString() } as ChatEvent;
}

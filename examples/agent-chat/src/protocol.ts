import type { ChatEvent } from "./events.ts";
import { findThread, type Project, type State, type Thread } from "./projection.ts";

// The JSON messages of the WebSocket at /ws.

export type ClientMessage =
  | { type: "thread.create"; projectName?: string; title?: string }
  | { type: "message.send"; threadId?: string; text: string }
  | { type: "turn.stop"; turnId: string };

export type ServerMessage =
  | { type: "snapshot"; state: State }
  | { type: "projects"; projects: Project[] }
  | { type: "thread"; thread: Thread }
  | { type: "delta"; threadId: string; messageId: string; text: string }
  | { type: "thread.opened"; threadId: string }
  | { type: "error"; message: string };

/** The client message in a WebSocket frame, or undefined when the frame is not one. */
export function parseClientMessage(data: string): ClientMessage | undefined {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  const message = value as Record<string, unknown>;
  switch (message.type) {
    case "thread.create":
      if (!isOptionalString(message.projectName) || !isOptionalString(message.title)) return undefined;
      return { type: "thread.create", projectName: message.projectName, title: message.title };
    case "message.send":
      if (!isOptionalString(message.threadId) || typeof message.text !== "string") return undefined;
      return { type: "message.send", threadId: message.threadId, text: message.text };
    case "turn.stop":
      if (typeof message.turnId !== "string") return undefined;
      return { type: "turn.stop", turnId: message.turnId };
    default:
      return undefined;
  }
}

/** What browsers are told after an event is applied: the changed thread, or just a delta of text. */
export function updateFor(event: ChatEvent, state: State): ServerMessage | undefined {
  switch (event.type) {
    case "server.started":
      return { type: "snapshot", state };
    case "project.added":
      return { type: "projects", projects: state.projects };
    case "message.assistant.delta":
      return { type: "delta", threadId: event.threadId, messageId: event.messageId, text: event.text };
    default: {
      const thread = findThread(state, event.threadId);
      return thread && { type: "thread", thread };
    }
  }
}

function isOptionalString(value: unknown): value is string | undefined {
  return value === undefined || typeof value === "string";
}

import type { ChatEvent, TokenUsage } from "./events.ts";

export interface Project {
  name: string;
  dir: string;
}

export interface Message {
  id: string;
  threadId: string;
  turnId: string;
  role: "user" | "assistant";
  text: string;
  /** Position among the thread's messages and tool calls. */
  order: number;
}

export type TurnStatus = "running" | "completed" | "interrupted" | "failed";

export interface Turn {
  id: string;
  threadId: string;
  status: TurnStatus;
  error: string | null;
  usage: TokenUsage | null;
  startedAt: string;
  endedAt: string | null;
}

export interface ToolCall {
  id: string;
  threadId: string;
  turnId: string;
  name: string;
  arguments: string;
  result: string | null;
  order: number;
}

export interface Thread {
  id: string;
  title: string;
  projectName: string | null;
  createdAt: string;
  messages: Message[];
  turns: Turn[];
  toolCalls: ToolCall[];
}

export interface State {
  projects: Project[];
  threads: Thread[];
}

export const emptyState: State = { projects: [], threads: [] };

const titleLength = 60;

export function reduce(state: State, event: ChatEvent): State {
  switch (event.type) {
    case "server.started":
      return { ...state, threads: state.threads.map((thread) => interruptRunningTurns(thread, event.at)) };
    case "project.added":
      return {
        ...state,
        projects: [...state.projects.filter((p) => p.name !== event.name), { name: event.name, dir: event.dir }],
      };
    case "thread.created":
      if (findThread(state, event.threadId)) return state;
      return {
        ...state,
        threads: [
          ...state.threads,
          {
            id: event.threadId,
            title: event.title,
            projectName: event.projectName,
            createdAt: event.at,
            messages: [],
            turns: [],
            toolCalls: [],
          },
        ],
      };
    case "thread.titled":
      return updateThread(state, event.threadId, (thread) => ({ ...thread, title: titleFrom(event.title) || thread.title }));
    case "message.user":
      return updateThread(state, event.threadId, (thread) => ({
        ...thread,
        title: thread.title === "" ? titleFrom(event.text) : thread.title,
        messages: [...thread.messages, message(thread, event.messageId, event.turnId, "user", event.text)],
      }));
    case "turn.started":
      return updateThread(state, event.threadId, (thread) => ({
        ...thread,
        turns: [
          ...thread.turns,
          {
            id: event.turnId,
            threadId: thread.id,
            status: "running",
            error: null,
            usage: null,
            startedAt: event.at,
            endedAt: null,
          },
        ],
      }));
    case "message.assistant.started":
      return updateThread(state, event.threadId, (thread) => ({
        ...thread,
        messages: [...thread.messages, message(thread, event.messageId, event.turnId, "assistant", "")],
      }));
    case "message.assistant.delta":
      return updateThread(state, event.threadId, (thread) => ({
        ...thread,
        messages: thread.messages.map((m) => (m.id === event.messageId ? { ...m, text: m.text + event.text } : m)),
      }));
    case "tool_call.started":
      return updateThread(state, event.threadId, (thread) => ({
        ...thread,
        toolCalls: [
          ...thread.toolCalls,
          {
            id: event.toolCallId,
            threadId: thread.id,
            turnId: event.turnId,
            name: event.name,
            arguments: event.arguments,
            result: null,
            order: nextOrder(thread),
          },
        ],
      }));
    case "tool_call.finished":
      return updateThread(state, event.threadId, (thread) => ({
        ...thread,
        toolCalls: thread.toolCalls.map((c) => (c.id === event.toolCallId ? { ...c, result: event.result } : c)),
      }));
    case "turn.completed":
      return endTurn(state, event.threadId, event.turnId, { status: "completed", usage: event.usage, endedAt: event.at });
    case "turn.interrupted":
      return endTurn(state, event.threadId, event.turnId, { status: "interrupted", endedAt: event.at });
    case "turn.failed":
      return endTurn(state, event.threadId, event.turnId, { status: "failed", error: event.error, endedAt: event.at });
  }
}

export function findThread(state: State, threadId: string): Thread | undefined {
  return state.threads.find((t) => t.id === threadId);
}

export function findProject(state: State, name: string): Project | undefined {
  return state.projects.find((p) => p.name === name);
}

function updateThread(state: State, threadId: string, update: (thread: Thread) => Thread): State {
  if (!findThread(state, threadId)) return state;
  return { ...state, threads: state.threads.map((t) => (t.id === threadId ? update(t) : t)) };
}

// A turn's end is final: a late end event for a turn that already ended changes nothing.
function endTurn(state: State, threadId: string, turnId: string, end: Partial<Turn>): State {
  return updateThread(state, threadId, (thread) => ({
    ...thread,
    turns: thread.turns.map((t) => (t.id === turnId && t.status === "running" ? { ...t, ...end } : t)),
  }));
}

// The server started again, so a turn still running was cut off by a crash or a kill.
function interruptRunningTurns(thread: Thread, at: string): Thread {
  if (!thread.turns.some((t) => t.status === "running")) return thread;
  return {
    ...thread,
    turns: thread.turns.map((t) => (t.status === "running" ? { ...t, status: "interrupted", endedAt: at } : t)),
  };
}

function message(thread: Thread, id: string, turnId: string, role: Message["role"], text: string): Message {
  return { id, threadId: thread.id, turnId, role, text, order: nextOrder(thread) };
}

function nextOrder(thread: Thread): number {
  return thread.messages.length + thread.toolCalls.length;
}

function titleFrom(text: string): string {
  const oneLine = text.replace(/\s+/g, " ").trim();
  return oneLine.length > titleLength ? `${oneLine.slice(0, titleLength - 1)}…` : oneLine;
}

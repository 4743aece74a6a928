import { describe, expect, it } from "vitest";
import type { ChatEvent } from "./events.ts";
import { emptyState, findThread, reduce, type State, type Thread } from "./projection.ts";

const at = "2026-11-30T12:00:00.000Z";
const threadId = "thread-1";

function replay(events: ChatEvent[]): State {
  return events.reduce(reduce, emptyState);
}

function thread(state: State): Thread {
  const found = findThread(state, threadId);
  if (!found) throw new Error("the thread was not created");
  return found;
}

function userTurn(turnId: string, text: string): ChatEvent[] {
  return [
    { type: "message.user", at, threadId, turnId, messageId: `user-${turnId}`, text },
    { type: "turn.started", at, threadId, turnId },
  ];
}

function assistantText(turnId: string, ...deltas: string[]): ChatEvent[] {
  const messageId = `assistant-${turnId}`;
  return [
    { type: "message.assistant.started", at, threadId, turnId, messageId },
    ...deltas.map((text): ChatEvent => ({ type: "message.assistant.delta", at, threadId, messageId, text })),
  ];
}

const created: ChatEvent = { type: "thread.created", at, threadId, title: "", projectName: "demo" };

describe("projection", () => {
  it("follows a turn from its user message through streamed text and a tool call to completed", () => {
    const state = replay([
      created,
      ...userTurn("t1", "Give me a short tour"),
      ...assistantText("t1", "Let me look ", "at the files."),
      { type: "tool_call.started", at, threadId, turnId: "t1", toolCallId: "c1", name: "list_files", arguments: '{"path":"src"}' },
      { type: "tool_call.finished", at, threadId, toolCallId: "c1", result: "src/math.ts" },
      { type: "turn.completed", at, threadId, turnId: "t1", usage: { promptTokens: 10, completionTokens: 5 } },
    ]);

    const { messages, toolCalls, turns, title } = thread(state);
    expect(title).toBe("Give me a short tour");
    expect(messages.map((m) => [m.role, m.text])).toEqual([
      ["user", "Give me a short tour"],
      ["assistant", "Let me look at the files."],
    ]);
    expect(toolCalls).toMatchObject([{ name: "list_files", arguments: '{"path":"src"}', result: "src/math.ts", turnId: "t1" }]);
    expect(turns).toMatchObject([{ id: "t1", status: "completed", error: null, usage: { promptTokens: 10, completionTokens: 5 } }]);
  });

  it("shows a turn as running until it ends, and a failed turn with its error", () => {
    const running = replay([created, ...userTurn("t1", "Hello")]);
    expect(thread(running).turns[0]?.status).toBe("running");

    const failed = reduce(running, { type: "turn.failed", at, threadId, turnId: "t1", error: "500 upstream exploded" });
    expect(thread(failed).turns[0]).toMatchObject({ status: "failed", error: "500 upstream exploded" });
  });

  it("keeps the partial text of an interrupted turn, and a later end event does not change it", () => {
    const state = replay([
      created,
      ...userTurn("t1", "Tell me a long story"),
      ...assistantText("t1", "Once upon"),
      { type: "turn.interrupted", at, threadId, turnId: "t1" },
      { type: "turn.completed", at, threadId, turnId: "t1", usage: null },
    ]);

    expect(thread(state).turns[0]?.status).toBe("interrupted");
    expect(thread(state).messages[1]?.text).toBe("Once upon");
  });

  it("marks a turn still running when the server starts again as interrupted, and leaves ended turns alone", () => {
    const state = replay([
      { type: "server.started", at },
      created,
      ...userTurn("t1", "First"),
      { type: "turn.completed", at, threadId, turnId: "t1", usage: null },
      ...userTurn("t2", "Second"),
      ...assistantText("t2", "Half an ans"),
      { type: "server.started", at },
    ]);

    expect(thread(state).turns.map((t) => [t.id, t.status])).toEqual([
      ["t1", "completed"],
      ["t2", "interrupted"],
    ]);
    expect(thread(state).messages.at(-1)?.text).toBe("Half an ans");
  });

  it("orders messages and tool calls as they were recorded, across turns", () => {
    const state = replay([
      created,
      ...userTurn("t1", "What is in src?"),
      ...assistantText("t1", "Looking."),
      { type: "tool_call.started", at, threadId, turnId: "t1", toolCallId: "c1", name: "list_files", arguments: "{}" },
      { type: "tool_call.finished", at, threadId, toolCallId: "c1", result: "src/" },
      { type: "message.assistant.started", at, threadId, turnId: "t1", messageId: "answer-t1" },
      { type: "message.assistant.delta", at, threadId, messageId: "answer-t1", text: "One folder." },
      { type: "turn.completed", at, threadId, turnId: "t1", usage: null },
      ...userTurn("t2", "Thanks"),
    ]);

    const { messages, toolCalls } = thread(state);
    const items = [...messages.map((m) => ({ order: m.order, shown: m.text })), ...toolCalls.map((c) => ({ order: c.order, shown: c.name }))];
    expect(items.sort((a, b) => a.order - b.order).map((item) => item.shown)).toEqual([
      "What is in src?",
      "Looking.",
      "list_files",
      "One folder.",
      "Thanks",
    ]);
    expect(thread(state).title).toBe("What is in src?");
  });

  it("replaces a project added again under the same name", () => {
    const state = replay([
      { type: "project.added", at, name: "demo", dir: "/old" },
      { type: "project.added", at, name: "other", dir: "/other" },
      { type: "project.added", at, name: "demo", dir: "/new" },
    ]);

    expect(state.projects).toEqual([
      { name: "other", dir: "/other" },
      { name: "demo", dir: "/new" },
    ]);
  });

  it("titles a thread with the title its title provider gave, on one line, over its first message; an empty title changes nothing", () => {
    const opened = replay([created, ...userTurn("t1", "How do you say hello in French?")]);
    const titled = reduce(opened, { type: "thread.titled", at, threadId, title: " Saying hello\nin French " });
    expect(thread(titled).title).toBe("Saying hello in French");
    expect(thread(reduce(titled, { type: "thread.titled", at, threadId, title: " " })).title).toBe("Saying hello in French");
  });
});

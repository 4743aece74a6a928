// DOM building for the thread list and the open thread. Threads are plain objects from the server.
import { MarkdownStream } from "./markdown.js";

/** Each assistant message's element on screen → its reply, which takes the streamed deltas. */
const replies = new WeakMap();

/** Creates an element with attributes (null and false skip one) and children. */
function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === false || value === undefined) continue;
    element.setAttribute(name, value === true ? "" : String(value));
  }
  element.append(...children.filter((child) => child !== null));
  return element;
}

export function threadTitle(thread) {
  return thread.title || "New thread";
}

export function renderThreadList(list, threads, openId) {
  list.replaceChildren(
    ...threads.map((thread) => {
      const running = thread.turns.some((turn) => turn.status === "running");
      return h(
        "li",
        {},
        h(
          "a",
          {
            href: `#/thread/${thread.id}`,
            class: running ? "thread-link running" : "thread-link",
            "aria-current": thread.id === openId ? "page" : null,
          },
          h("span", { class: "thread-link-title" }, threadTitle(thread)),
          h("span", { class: "thread-link-project" }, thread.projectName ?? "no project"),
        ),
      );
    }),
  );
}

export function renderProjects(select, projects, chosen) {
  select.hidden = projects.length === 0;
  select.replaceChildren(
    ...projects.map((project) =>
      h("option", { value: project.name, selected: project.name === chosen }, project.name),
    ),
  );
}

/** The open thread: its messages and tool calls in order, each turn closed by its status line. */
export function renderThread(container, thread, openToolCalls) {
  const turns = new Map(thread.turns.map((turn) => [turn.id, turn]));
  const items = [...thread.messages, ...thread.toolCalls].sort((a, b) => a.order - b.order);
  const children = [];
  items.forEach((item, index) => {
    children.push("role" in item ? messageElement(item) : toolCallElement(item, openToolCalls));
    const next = items[index + 1];
    const turn = turns.get(item.turnId);
    if (turn && next?.turnId !== item.turnId) children.push(statusElement(turn));
  });
  container.replaceChildren(...children);
}

export function renderEmpty(container, projects) {
  const hint =
    projects.length === 0
      ? h(
          "p",
          {},
          "No project yet. Add one with ",
          h("code", {}, "pnpm cli project add <name> <dir>"),
          " so the assistant can read its files.",
        )
      : h("p", {}, `New threads open in the project ${projects[0].name}.`);
  container.replaceChildren(h("div", { class: "empty" }, h("h2", {}, "Start a conversation"), hint));
}

/** Appends streamed text to an assistant message already on screen; false when it is not there. */
export function appendDelta(container, messageId, text) {
  const element = container.querySelector(`[data-message-id="${CSS.escape(messageId)}"]`);
  const reply = element && replies.get(element);
  if (!reply) return false;
  reply.append(text);
  return true;
}

/** A person's message as they wrote it; an assistant's reply as Markdown. */
function messageElement(message) {
  const element = h("div", { class: `message ${message.role}`, "data-role": message.role, "data-message-id": message.id });
  if (message.role === "user") {
    element.append(message.text);
  } else {
    const reply = new Reply(element);
    reply.append(message.text);
    replies.set(element, reply);
  }
  return element;
}

/** A reply's element as its text streams in: closed blocks are added once, the open rest is replaced. */
class Reply {
  #markdown = new MarkdownStream();
  #element;
  /** The nodes of the open rest. */
  #open = [];

  constructor(element) {
    this.#element = element;
  }

  append(text) {
    const { restart, closed, open } = this.#markdown.push(text);
    if (restart) this.#element.replaceChildren();
    else for (const node of this.#open) node.remove();
    this.#element.insertAdjacentHTML("beforeend", closed);
    const template = document.createElement("template");
    template.innerHTML = open;
    this.#open = [...template.content.childNodes];
    this.#element.append(template.content);
  }
}

function toolCallElement(call, openToolCalls) {
  const label = `${call.name} ${call.arguments}`.trim();
  const details = h(
    "details",
    {
      class: call.result === null ? "tool-call pending" : "tool-call",
      "data-testid": "tool-call",
      "aria-label": label,
      open: openToolCalls.has(call.id),
    },
    h("summary", {}, h("span", { class: "tool-name" }, call.name), " ", h("code", { class: "tool-args" }, call.arguments)),
    h("pre", { class: "tool-result" }, call.result ?? "running…"),
  );
  details.addEventListener("toggle", () => {
    if (details.open) openToolCalls.add(call.id);
    else openToolCalls.delete(call.id);
  });
  return details;
}

/** The turn's status line: its status, and its token usage once the turn has it. */
function statusElement(turn) {
  const text = turn.status === "failed" ? `failed: ${turn.error}` : turn.status;
  const usage = turn.usage
    ? `${turn.usage.promptTokens} prompt + ${turn.usage.completionTokens} completion tokens`
    : null;
  return h(
    "div",
    { class: "turn-end" },
    h(
      "div",
      { class: `turn-status ${turn.status}`, "data-testid": "turn-status", "data-status": turn.status, title: usage },
      text,
    ),
    usage === null ? null : h("span", { class: "turn-usage", "data-testid": "turn-usage" }, usage),
  );
}

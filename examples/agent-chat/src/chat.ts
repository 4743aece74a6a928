import { randomUUID } from "node:crypto";
import { findProject, findThread } from "./projection.ts";
import type { ModelProvider, TitleProvider } from "./provider.ts";
import type { Store } from "./store.ts";
import { runTurn } from "./turn.ts";

/** A request from a browser that cannot be carried out; its message is shown to the person. */
export class ChatRequestError extends Error {}

interface RunningTurn {
  controller: AbortController;
  done: Promise<void>;
}

/** What a person can do in the app: open threads, send messages, stop turns. */
export class Chat {
  readonly #store: Store;
  readonly #provider: ModelProvider;
  readonly #titles: TitleProvider | null;
  readonly #running = new Map<string, RunningTurn>();

  constructor(store: Store, provider: ModelProvider, titles: TitleProvider | null) {
    this.#store = store;
    this.#provider = provider;
    this.#titles = titles;
  }

  /** Opens a thread in the named project, or in the first project when none is named. */
  createThread(projectName?: string, title?: string): string {
    const state = this.#store.sync();
    const project = projectName === undefined ? state.projects[0] : findProject(state, projectName);
    if (projectName !== undefined && !project) throw new ChatRequestError(`There is no project named ${projectName}.`);
    const threadId = randomUUID();
    this.#store.record({ type: "thread.created", threadId, title: title?.trim() ?? "", projectName: project?.name ?? null });
    return threadId;
  }

  /** Records the message and starts the turn that answers it; without a thread, opens one. */
  sendMessage(threadId: string | undefined, text: string): string {
    const message = text.trim();
    if (message === "") throw new ChatRequestError("The message is empty.");
    if (threadId !== undefined) {
      const thread = findThread(this.#store.sync(), threadId);
      if (!thread) throw new ChatRequestError("This thread does not exist.");
      if (thread.turns.some((t) => t.status === "running")) {
        throw new ChatRequestError("A reply is still being generated in this thread; stop it first.");
      }
    }
    const id = threadId ?? this.createThread();
    const turnId = randomUUID();
    this.#store.record({ type: "message.user", threadId: id, turnId, messageId: randomUUID(), text: message });
    this.#store.record({ type: "turn.started", threadId: id, turnId });
    const controller = new AbortController();
    const done = runTurn({ provider: this.#provider, titles: this.#titles, store: this.#store, threadId: id, turnId, signal: controller.signal })
      .catch((error: unknown) => console.error(`agent-chat: turn ${turnId} could not be recorded:`, error))
      .finally(() => this.#running.delete(turnId));
    this.#running.set(turnId, { controller, done });
    return id;
  }

  stopTurn(turnId: string): void {
    this.#running.get(turnId)?.controller.abort();
  }

  /** Stops every running turn and waits until each has recorded its end. */
  async stopAll(): Promise<void> {
    const turns = [...this.#running.values()];
    for (const turn of turns) turn.controller.abort();
    await Promise.all(turns.map((t) => t.done));
  }
}

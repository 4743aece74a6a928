import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { createInterface } from "node:readline";
import type { ModelCall, ModelProvider, ModelReply, ProviderSettings } from "../provider.ts";

/** The command that starts the agent when CODEX_COMMAND is unset. */
const defaultCommand = "codex app-server";

/** One message of the app-server protocol: JSON-RPC 2.0 without its `"jsonrpc"` field, one JSON object a line. */
interface Message {
  id?: number | string;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { message?: string };
}

/** A turn this app started, and how to settle the model call waiting on it. */
interface RunningTurn {
  threadId: string;
  turnId: string | null;
  text: string;
  onText: (text: string) => void;
  settle: (outcome: { status: string; error?: string }) => void;
}

/**
 * Codex's `app-server` as the agent: the app spawns it once (CODEX_COMMAND, a shell command line),
 * starts one thread, and runs each model call as a turn on it. Codex reads the project and runs
 * its tools itself, so every reply is an answer; the app shows the agent message's deltas of its
 * own thread and ends the call when its own turn completes.
 */
export function codexProvider(settings: ProviderSettings): ModelProvider {
  const command = settings.baseURL ?? defaultCommand;
  let agent: Promise<Agent> | undefined;
  return {
    stream: async (call) => {
      agent ??= startAgent(command, settings.model);
      return (await agent).runTurn(call);
    },
  };
}

interface Agent {
  runTurn(call: ModelCall): Promise<ModelReply>;
}

async function startAgent(command: string, model: string): Promise<Agent> {
  const child: ChildProcessWithoutNullStreams = spawn(command, { shell: true, stdio: ["pipe", "pipe", "pipe"] });
  child.stderr.resume();
  let nextId = 0;
  const pending = new Map<number | string, { resolve: (result: Record<string, unknown>) => void; reject: (error: Error) => void }>();
  let running: RunningTurn | undefined;
  const exited = new Promise<never>((_, reject) => child.once("exit", (code) => reject(new Error(`the agent exited with code ${code}`))));
  exited.catch(() => {
    for (const waiter of pending.values()) waiter.reject(new Error("the agent exited"));
    running?.settle({ status: "failed", error: "the agent exited" });
  });
  const send = (message: Message) => child.stdin.write(`${JSON.stringify(message)}\n`);
  const request = (method: string, params: Record<string, unknown>) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      send({ method, id, params });
    });
  const notified = (method: string, params: Record<string, unknown>) => {
    if (running === undefined) return;
    // Codex streams every thread it runs on this connection, a helper agent's included: only this thread's events are the reply's.
    const ours = params["threadId"] === running.threadId;
    if (method === "item/agentMessage/delta" && ours && typeof params["delta"] === "string") {
      running.text += params["delta"];
      running.onText(params["delta"]);
    } else if (method === "turn/completed" && ours) {
      const turn = params["turn"] as { id?: string; status?: string; error?: { message?: string } | null } | undefined;
      if (turn?.id !== running.turnId) return;
      running.settle({ status: turn.status ?? "completed", ...(turn.error?.message === undefined ? {} : { error: turn.error.message }) });
    }
  };
  createInterface({ input: child.stdout, crlfDelay: Number.POSITIVE_INFINITY }).on("line", (line) => {
    if (line.trim() === "") return;
    const message = JSON.parse(line) as Message;
    if (message.method !== undefined && message.id !== undefined) {
      // The agent asks the app something (an approval): this app approves nothing.
      send({ id: message.id, result: { decision: "decline" } });
    } else if (message.method !== undefined) {
      notified(message.method, message.params ?? {});
    } else if (message.id !== undefined) {
      const waiter = pending.get(message.id);
      pending.delete(message.id);
      if (message.error !== undefined) waiter?.reject(new Error(`the agent refused: ${message.error.message ?? "an error"}`));
      else waiter?.resolve(message.result ?? {});
    }
  });
  await Promise.race([request("initialize", { clientInfo: { name: "agent_chat", title: "agent-chat", version: "0.1.0" } }), exited]);
  send({ method: "initialized" });
  const started = await Promise.race([request("thread/start", { model, approvalPolicy: "never" }), exited]);
  const threadId = (started["thread"] as { id: string }).id;

  return {
    runTurn: async ({ conversation, onText, signal }) => {
      const last = conversation.at(-1);
      const text = last?.role === "user" ? last.text : "";
      const outcome = new Promise<{ status: string; error?: string }>((settle) => {
        running = { threadId, turnId: null, text: "", onText, settle };
      });
      const turn = running as RunningTurn | undefined;
      if (turn === undefined) throw new Error("the turn did not start");
      const interrupt = () => void request("turn/interrupt", { threadId, turnId: turn.turnId }).catch(() => undefined);
      signal.addEventListener("abort", interrupt, { once: true });
      try {
        const result = await request("turn/start", { threadId, input: [{ type: "text", text }] });
        turn.turnId = (result["turn"] as { id: string }).id;
        const { status, error } = await outcome;
        signal.throwIfAborted();
        if (status !== "completed") throw new Error(`the agent's turn ${status}${error === undefined ? "" : `: ${error}`}`);
        return { text: turn.text, stop: "answered", toolCalls: [], usage: null };
      } finally {
        signal.removeEventListener("abort", interrupt);
        running = undefined;
      }
    },
  };
}

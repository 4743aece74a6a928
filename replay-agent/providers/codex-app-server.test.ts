import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { describe, expect, it, onTestFinished, vi } from "vitest";
import { main } from "../cli.ts";
import { fixture } from "../fixtures/fixture.ts";
import { writeNew } from "../fixtures/new-file.ts";
import { fixtureLines, writeVariant } from "../fixtures/variant.ts";
import { startStdioPeer, type StdioPeer } from "../index.ts";

/** Runs `replay-agent check <file>` in this process, as bin/replay-agent.mjs does: its exit code and what it printed on stderr. */
const check = async (file: string) => {
  let stderr = "";
  const spy = vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    stderr += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
    return true;
  });
  try {
    return { exitCode: await main(["check", file]), stderr };
  } finally {
    spy.mockRestore();
  }
};

type Message = Record<string, unknown>;

/** An error response to one of the app's requests. */
class AppServerError extends Error {
  constructor(readonly error: { readonly code: number; readonly message: string; readonly data?: unknown }) {
    super(error.message);
  }
}

/**
 * The app's side of `codex app-server`, written here the way an app writes it: there is no
 * official npm client of the app-server protocol (`@openai/codex-sdk` drives `codex exec`, not
 * the app server). It spawns the agent's command, writes one JSON-RPC message a line without the
 * "jsonrpc" member, settles each of its requests with the response of the same id, hands
 * notifications to `onNotification`, and answers each request of the server with `onRequest`'s
 * result under the request's id.
 */
const connectAppServer = (
  peer: StdioPeer,
  handlers: {
    readonly onNotification?: (method: string, params: Message) => void;
    readonly onRequest?: (request: Message) => unknown;
  } = {},
) => {
  const [command = "", ...args] = peer.command;
  const child = spawn(command, args, { stdio: ["pipe", "pipe", "pipe"] });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  onTestFinished(async () => {
    child.kill();
    await exited;
  });
  const received: Array<Message> = [];
  const pending = new Map<number, { resolve: (result: Message) => void; reject: (error: AppServerError) => void }>();
  const write = (message: Message) => child.stdin.write(`${JSON.stringify(message)}\n`);
  createInterface({ input: child.stdout }).on("line", (line) => {
    const message = JSON.parse(line) as Message;
    received.push(message);
    const { id, method, params } = message;
    if (typeof method === "string" && id !== undefined) write({ id, result: handlers.onRequest?.(message) });
    else if (typeof method === "string") handlers.onNotification?.(method, params as Message);
    else if (typeof id === "number") {
      const waiting = pending.get(id);
      pending.delete(id);
      if ("error" in message) waiting?.reject(new AppServerError(message["error"] as AppServerError["error"]));
      else waiting?.resolve(message["result"] as Message);
    }
  });
  let nextId = 0;
  return {
    child,
    exited,
    received,
    request: (method: string, params: Message) =>
      new Promise<Message>((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { resolve, reject });
        write({ method, id, params });
      }),
    notify: (method: string) => write({ method }),
  };
};

const startPeer = async (transcript: string) => {
  const peer = await startStdioPeer({ transcript });
  onTestFinished(() => peer.close());
  return peer;
};

const prompt = "Run the tests and fix what fails";

describe("the codex-app-server peer, driven the way an app drives codex app-server", () => {
  it("plays what replay-agent new writes: reasoning, a command the app approves, the answer, and a second turn", async () => {
    const { file } = await writeNew({
      provider: "codex-app-server",
      model: "gpt-5.1-codex",
      turns: [
        {
          user: prompt,
          thinking: "Running the test suite",
          reply: "I'll run the tests.",
          tools: [{ name: "shell", arguments: { command: "npm test" }, result: "ℹ pass 12\n" }],
        },
        { reply: "All 12 tests pass." },
        { user: "Thanks!", reply: "You're welcome." },
      ],
    });
    const peer = await startPeer(file);
    const notifications: Array<{ readonly method: string; readonly params: Message }> = [];
    const completions: Array<(params: Message) => void> = [];
    const turnCompleted = () => new Promise<Message>((resolve) => completions.push(resolve));
    const approvals: Array<Message> = [];
    const app = connectAppServer(peer, {
      onNotification: (method, params) => {
        notifications.push({ method, params });
        if (method === "turn/completed") completions.shift()?.(params);
      },
      onRequest: (request) => {
        approvals.push(request);
        return { decision: "accept" };
      },
    });
    /** The text each item streamed, by the notification that carries its deltas. */
    const streamed = (method: string) => {
      const texts = new Map<string, string>();
      for (const { method: name, params } of notifications)
        if (name === method) texts.set(String(params["itemId"]), `${texts.get(String(params["itemId"])) ?? ""}${String(params["delta"])}`);
      return [...texts.values()];
    };

    await app.request("initialize", { clientInfo: { name: "replay_app", title: "Replay App", version: "0.3.1" }, capabilities: null });
    app.notify("initialized");
    const { thread } = await app.request("thread/start", {
      model: "gpt-5.1-codex",
      cwd: "/home/dev/project",
      approvalPolicy: "on-request",
    });
    const threadId = (thread as Message)["id"];
    const first = turnCompleted();
    await app.request("turn/start", { threadId, input: [{ type: "text", text: prompt, text_elements: [] }] });
    expect(await first).toMatchObject({ threadId, turn: { status: "completed", error: null } });
    expect(approvals).toEqual([
      { id: 0, method: "item/commandExecution/requestApproval", params: expect.objectContaining({ threadId, command: "npm test" }) },
    ]);
    const second = turnCompleted();
    await app.request("turn/start", { threadId, input: [{ type: "text", text: "Thanks!", text_elements: [] }] });
    expect(await second).toMatchObject({ threadId, turn: { status: "completed" } });

    expect(streamed("item/reasoning/summaryTextDelta")).toEqual(["Running the test suite"]);
    expect(streamed("item/agentMessage/delta")).toEqual(["I'll run the tests.", "All 12 tests pass.", "You're welcome."]);
    const finished = notifications.flatMap(({ method, params }) => (method === "item/completed" ? [params["item"] as Message] : []));
    expect(finished.map((item) => item["type"])).toEqual([
      "userMessage",
      "reasoning",
      "agentMessage",
      "commandExecution",
      "agentMessage",
      "userMessage",
      "agentMessage",
    ]);
    expect(finished[3]).toMatchObject({ command: "npm test", aggregatedOutput: "ℹ pass 12\n", exitCode: 0, status: "completed" });
    expect(app.received.filter((message) => "jsonrpc" in message)).toEqual([]);
    app.child.stdin.end();
    expect(await app.exited).toBe(0);
    await peer.close();
    expect(peer.status()).toMatchObject({ remaining: 0, mismatches: [], next: null });
  });

  it("initializes, starts a thread and a turn, streams agent message deltas, asks the app to approve a command, and completes the turn", async () => {
    const peer = await startPeer(fixture("codex-app-server/approval-turn.ndjson"));
    const notifications: Array<{ readonly method: string; readonly params: Message }> = [];
    let turnCompleted = (_params: Message) => {};
    const completed = new Promise<Message>((resolve) => {
      turnCompleted = resolve;
    });
    const approvals: Array<Message> = [];
    const app = connectAppServer(peer, {
      onNotification: (method, params) => {
        notifications.push({ method, params });
        if (method === "turn/completed") turnCompleted(params);
      },
      onRequest: (request) => {
        approvals.push(request);
        return { decision: "accept" };
      },
    });

    const initialized = await app.request("initialize", {
      clientInfo: { name: "replay_app", title: "Replay App", version: "0.3.1" },
      capabilities: null,
    });
    expect(initialized).toMatchObject({ userAgent: expect.stringMatching(/^replay_app\/0\.155\.1 /), platformOs: "linux" });
    app.notify("initialized");
    const started = await app.request("thread/start", {
      cwd: "/home/dev/project",
      approvalPolicy: "on-request",
      sandbox: "workspace-write",
    });
    const thread = started["thread"] as Message;
    expect(thread).toMatchObject({ id: "019ad3f2-6c41-7b90-a2e5-3f8c1d07b6e4", status: { type: "idle" }, source: "appServer" });
    const { turn } = await app.request("turn/start", {
      threadId: thread["id"],
      input: [{ type: "text", text: prompt, text_elements: [] }],
    });
    expect(turn).toMatchObject({ status: "inProgress", items: [] });

    expect(await completed).toMatchObject({ threadId: thread["id"], turn: { status: "completed", error: null, durationMs: 16842 } });
    const replies = new Map<string, string>();
    for (const { method, params } of notifications) {
      if (method === "item/agentMessage/delta")
        replies.set(String(params["itemId"]), `${replies.get(String(params["itemId"])) ?? ""}${String(params["delta"])}`);
    }
    expect([...replies.values()]).toEqual(["I'll run the test suite first.", "All 12 tests pass; nothing needed fixing."]);
    const finished = notifications.flatMap(({ method, params }) =>
      method === "item/completed" ? [(params["item"] as Message)["type"]] : [],
    );
    expect(finished).toEqual(["userMessage", "agentMessage", "commandExecution", "agentMessage"]);
    expect(approvals).toEqual([
      {
        id: 0,
        method: "item/commandExecution/requestApproval",
        params: expect.objectContaining({ threadId: thread["id"], itemId: "call_Q8mV2xKpT4rLw9ZsN6bJ1cYd", command: "npm test" }),
      },
    ]);
    expect(notifications.map(({ method }) => method)).toEqual([
      "thread/started",
      "turn/started",
      "item/started",
      "item/completed",
      "item/started",
      "item/agentMessage/delta",
      "item/agentMessage/delta",
      "item/completed",
      "item/started",
      "serverRequest/resolved",
      "item/commandExecution/outputDelta",
      "item/completed",
      "item/started",
      "item/agentMessage/delta",
      "item/agentMessage/delta",
      "item/agentMessage/delta",
      "item/completed",
      "thread/tokenUsage/updated",
      "turn/completed",
    ]);
    expect(app.received.filter((message) => "jsonrpc" in message)).toEqual([]);

    app.child.stdin.end();
    expect(await app.exited).toBe(0);
    await peer.close();
    expect(peer.status()).toMatchObject({ remaining: 0, paused: null, mismatches: [], next: null });
    expect(peer.requests().map(({ matched, line }) => ({ matched, line }))).toEqual(
      [4, 6, 7, 10, 21].map((line) => ({ matched: true, line })),
    );
  });

  it("answers a request the transcript does not expect with an error response that has no jsonrpc member", async () => {
    const peer = await startPeer(fixture("codex-app-server/approval-turn.ndjson"));
    const app = connectAppServer(peer);
    await app.request("initialize", { clientInfo: { name: "replay_app", title: "Replay App", version: "0.3.1" }, capabilities: null });
    const refused = await app.request("account/read", { refreshToken: false }).catch((error: unknown) => error);

    expect(refused).toBeInstanceOf(AppServerError);
    expect(refused).toMatchObject({
      error: {
        code: -32601,
        message: 'Method not found: replay-agent did not expect "account/read" (the transcript expects line 6 here)',
        data: { type: "replay_mismatch", line: 6, expected: { method: "initialized" }, excerpt: 'params: {"refreshToken":false}' },
      },
    });
    expect(app.received.at(-1)).toEqual({ id: 1, error: expect.objectContaining({ code: -32601 }) });

    app.child.kill("SIGTERM");
    expect(await app.exited).toBe(1);
    await peer.close();
    expect(peer.status()).toMatchObject({
      played: 2,
      mismatches: [
        { message: { method: "account/read", id: 1 }, expectedLine: 6, diff: 'method: expected "initialized", got "account/read"' },
      ],
    });
  });

  it.each([
    [
      "an agent message",
      "emit_inbound",
      'emit_inbound.message is not a codex app-server message: it has "jsonrpc":"2.0", and codex app-server leaves the "jsonrpc" field out of every message. Drop "jsonrpc" and write the rest as the agent sent it, like {"method":"turn/started","params":{…}}',
    ],
    [
      "an app message pattern",
      "expect_outbound",
      'expect_outbound.message has "jsonrpc":"2.0", and codex app-server and its apps leave the "jsonrpc" field out of every message. Drop "jsonrpc" from the pattern, like {"id":1,"method":"thread/start","params":{…}}',
    ],
  ])('check refuses %s with "jsonrpc":"2.0", naming its line and the fix', async (_name, type, message) => {
    const lines = await fixtureLines("codex-app-server/approval-turn.ndjson");
    const at = lines.findIndex((line) => line.type === type && line !== lines[0]);
    const line = lines[at];
    if (line === undefined) throw new Error(`the fixture has no ${type} line`);
    lines[at] = { ...line, message: { jsonrpc: "2.0", ...(line["message"] as Message) } };
    const variant = await writeVariant(lines);

    const checked = await check(variant);
    expect(checked.exitCode).toBe(2);
    expect(checked.stderr).toContain(`${variant}:${at + 1}: ${message}`);
  });
});

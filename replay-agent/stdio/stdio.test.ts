import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough, Readable, Writable } from "node:stream";
import { client, methods, ndJsonStream, RequestError, type SessionNotification } from "@agentclientprotocol/sdk";
import * as Deferred from "effect/Deferred";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import { TestClock } from "effect/testing";
import { describe, expect, it, onTestFinished } from "vitest";
import { fixture } from "../fixtures/fixture.ts";
import { writeNew } from "../fixtures/new-file.ts";
import { readTranscript, serveStdio, startStdioPeer, type StdioPeer } from "../index.ts";

/** A child's stdout as the web stream of bytes the ACP SDK reads. */
const bytesOf = (stdout: Readable): ReadableStream<Uint8Array> =>
  new ReadableStream({
    start: (controller) => {
      stdout.on("data", (chunk: Buffer) => controller.enqueue(new Uint8Array(chunk)));
      stdout.once("end", () => controller.close());
    },
  });

/** Starts the app side: spawns the peer's command the way an app spawns its agent CLI, and connects the ACP client to it. */
const spawnPeer = async (peer: StdioPeer, handlers: { readonly onUpdate?: (update: SessionNotification) => void } = {}) => {
  const [command = "", ...args] = peer.command;
  const child = spawn(command, args, { stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  onTestFinished(async () => {
    child.kill();
    await exited;
  });
  const permissions: Array<unknown> = [];
  const connection = client({ name: "replay-agent test" })
    .onNotification(methods.client.session.update, ({ params }) => handlers.onUpdate?.(params))
    .onRequest(methods.client.session.requestPermission, ({ params }) => {
      permissions.push(params);
      return { outcome: { outcome: "selected", optionId: "allow" } };
    })
    .connect(ndJsonStream(Writable.toWeb(child.stdin), bytesOf(child.stdout)));
  return { agent: connection.agent, child, exited, permissions, stderr: () => stderr };
};

const startPeer = async (transcript: string) => {
  const peer = await startStdioPeer({ transcript });
  onTestFinished(() => peer.close());
  return peer;
};

/** Resolves once `count` updates arrived; a plain promise the test can await without timers. */
const arrivals = (count: number) => {
  let arrived = () => {};
  const promise = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  return { promise, seen: (received: number) => received === count && arrived() };
};

const textOf = (notification: SessionNotification) =>
  notification.update.sessionUpdate === "agent_message_chunk" && notification.update.content.type === "text"
    ? notification.update.content.text
    : notification.update.sessionUpdate;

describe("the stdio peer, spawned by an Agent Client Protocol client", () => {
  it("answers initialize and session/new, streams a prompt's updates across a pause, and asks for a permission", async () => {
    const peer = await startPeer(fixture("jsonrpc-stdio/acp-prompt.ndjson"));
    expect(peer.status()).toMatchObject({ played: 0, remaining: 14, next: { line: 3, type: "expect_outbound" } });
    let resumed = false;
    const updates: Array<{ readonly text: string; readonly afterResume: boolean }> = [];
    const beforePause = arrivals(2);
    const { agent, child, exited, permissions, stderr } = await spawnPeer(peer, {
      onUpdate: (update) => {
        updates.push({ text: textOf(update), afterResume: resumed });
        beforePause.seen(updates.length);
      },
    });

    const initialized = await agent.request(methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} });
    expect(initialized).toMatchObject({ protocolVersion: 1, agentInfo: { name: "replayed-agent" } });
    const { sessionId } = await agent.request(methods.agent.session.new, { cwd: "/project", mcpServers: [] });
    expect(sessionId).toBe("sess_7f3a2c9e41b8");
    const prompting = agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "Clean up the project" }] });

    await beforePause.promise;
    await peer.paused("mid-prompt");
    expect(peer.status()).toMatchObject({ paused: "mid-prompt", next: { line: 10, type: "pause" } });
    expect(permissions).toEqual([]);
    resumed = true;
    await peer.resume();
    expect(await prompting).toEqual({ stopReason: "end_turn" });

    expect(updates).toEqual([
      { text: "This project has", afterResume: false },
      { text: " an unused file.", afterResume: false },
      { text: "tool_call", afterResume: true },
      { text: "tool_call_update", afterResume: true },
      { text: " Deleted src/old.ts.", afterResume: true },
    ]);
    expect(permissions).toEqual([expect.objectContaining({ sessionId, toolCall: { toolCallId: "call_1", title: "Delete src/old.ts" } })]);

    child.stdin.end();
    expect(await exited).toBe(0);
    await peer.close();
    expect(peer.status()).toMatchObject({ played: 14, remaining: 0, paused: null, mismatches: [], next: null });
    expect(peer.requests().map(({ matched }) => matched)).toEqual([true, true, true, true]);
    expect(stderr()).toMatch(/^replay-agent control on http:\/\/127\.0\.0\.1:\d+\n/);
    expect(stderr()).toContain("replay-agent stopped: played all 14 entries; 0 mismatches; transcript fully played");
  });

  it("plays what replay-agent new writes: thought and message chunks, a tool call the client permits, and a second prompt", async () => {
    const { file } = await writeNew({
      provider: "jsonrpc-stdio",
      turns: [
        {
          user: "Clean up the project",
          thinking: "Find unused files.",
          reply: "Let me look.",
          tools: [{ name: "delete_file", arguments: { path: "src/old.ts" }, result: "deleted", id: "call_1" }],
        },
        { reply: "Deleted src/old.ts." },
        { user: "Thanks!", reply: "You're welcome." },
      ],
    });
    const peer = await startPeer(file);
    const updates: Array<SessionNotification["update"]> = [];
    const { agent, child, exited, permissions } = await spawnPeer(peer, { onUpdate: (update) => updates.push(update.update) });
    /** The text of every chunk of one kind, joined. */
    const joined = (kind: "agent_thought_chunk" | "agent_message_chunk") =>
      updates.flatMap((update) => (update.sessionUpdate === kind && update.content.type === "text" ? [update.content.text] : [])).join("");

    await agent.request(methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} });
    const { sessionId } = await agent.request(methods.agent.session.new, { cwd: "/project", mcpServers: [] });
    expect(
      await agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "Clean up the project" }] }),
    ).toEqual({
      stopReason: "end_turn",
    });
    expect(joined("agent_thought_chunk")).toBe("Find unused files.");
    expect(joined("agent_message_chunk")).toBe("Let me look.Deleted src/old.ts.");
    expect(permissions).toEqual([
      expect.objectContaining({
        sessionId,
        toolCall: expect.objectContaining({ toolCallId: "call_1", title: "delete_file", rawInput: { path: "src/old.ts" } }),
      }),
    ]);
    expect(updates.filter((update) => update.sessionUpdate === "tool_call_update").at(-1)).toMatchObject({
      toolCallId: "call_1",
      status: "completed",
      content: [{ type: "content", content: { type: "text", text: "deleted" } }],
    });
    expect(await agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "Thanks!" }] })).toEqual({
      stopReason: "end_turn",
    });
    expect(joined("agent_message_chunk")).toBe("Let me look.Deleted src/old.ts.You're welcome.");

    child.stdin.end();
    expect(await exited).toBe(0);
    await peer.close();
    expect(peer.status()).toMatchObject({ remaining: 0, paused: null, mismatches: [], next: null });
  });

  it("answers a method the transcript does not expect with -32601 naming it, and reports the mismatch after it exits", async () => {
    const peer = await startPeer(fixture("jsonrpc-stdio/acp-prompt.ndjson"));
    await expect(peer.paused("the-end")).rejects.toThrow('has no pause named "the-end"; its pauses are "mid-prompt" (line 10)');
    await expect(peer.resume()).rejects.toThrow("the app has not started the stdio peer yet");
    const { agent, child, exited } = await spawnPeer(peer);

    await agent.request(methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} });
    const unexpected = await agent.request(methods.agent.authenticate, { methodId: "api-key" }).catch((error: unknown) => error);
    expect(unexpected).toBeInstanceOf(RequestError);
    expect(unexpected).toMatchObject({
      code: -32601,
      message: expect.stringContaining('replay-agent did not expect "authenticate"'),
      data: expect.objectContaining({ type: "replay_mismatch", excerpt: expect.stringContaining('"methodId":"api-key"') }),
    });

    child.kill("SIGTERM");
    expect(await exited).toBe(1);
    await peer.close();
    expect(peer.status()).toMatchObject({
      played: 2,
      mismatches: [
        {
          message: { method: "authenticate", id: 1 },
          expectedLine: 5,
          diff: expect.stringContaining('method: expected "session/new", got "authenticate"'),
        },
      ],
    });
  });

  it("exits with the code of an exit line, after writing the lines before it, an optional expectation never sent not counted unplayed", async () => {
    const dir = await mkdtemp(join(tmpdir(), "replay-agent-stdio-"));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const transcript = join(dir, "refuses.ndjson");
    await writeFile(
      transcript,
      [
        '{"type":"meta","format":"replay-transcript","version":1,"provider":"jsonrpc-stdio","source":"handwritten"}',
        '{"type":"expect_outbound","unordered":true,"optional":true,"message":{"jsonrpc":"2.0","method":"session/cancel"}}',
        '{"type":"expect_outbound","message":{"jsonrpc":"2.0","id":0,"method":"initialize"}}',
        '{"type":"emit_inbound","message":{"jsonrpc":"2.0","id":0,"error":{"code":-32000,"message":"this agent needs a newer client"}}}',
        '{"type":"exit","code":3}',
      ].join("\n"),
    );
    const peer = await startPeer(transcript);
    const { agent, exited } = await spawnPeer(peer);
    const refused = await agent
      .request(methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} })
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: -32000, message: "this agent needs a newer client" });
    expect(await exited).toBe(3);
    await peer.close();
    expect(peer.status()).toMatchObject({ played: 3, remaining: 0, mismatches: [], next: null });
    expect(peer.requests()).toMatchObject([{ matched: true, line: 3 }]);
  });
});

describe("the stdio peer in process", () => {
  it("speaks first, waits out a delay on the Effect clock, answers an unexpected request with -32601, and ends at its exit line", async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const lines: Array<unknown> = [];
    const arrived: Array<Deferred.Deferred<unknown>> = Array.from({ length: 3 }, () => Deferred.makeUnsafe<unknown>());
    let buffer = "";
    output.on("data", (chunk: Buffer) => {
      buffer += chunk.toString("utf8");
      for (let end = buffer.indexOf("\n"); end !== -1; end = buffer.indexOf("\n")) {
        const message: unknown = JSON.parse(buffer.slice(0, end));
        buffer = buffer.slice(end + 1);
        const next = arrived[lines.length];
        lines.push(message);
        if (next !== undefined) Deferred.doneUnsafe(next, Exit.succeed(message));
      }
    });
    const logged: Array<string> = [];
    const line = (index: number) => Deferred.await(arrived[index] ?? Deferred.makeUnsafe<unknown>());
    const program = Effect.gen(function* () {
      const transcript = yield* readTranscript(fixture("jsonrpc-stdio/slow-agent.ndjson"));
      const served = yield* serveStdio(transcript, { input, output, log: (text) => logged.push(text) });
      expect(yield* line(0)).toEqual({ jsonrpc: "2.0", method: "agent/ready", params: { name: "replayed-agent" } });

      input.write('{"jsonrpc":"2.0","id":9,"method":"agent/shutdown"}\n');
      expect(yield* line(1)).toMatchObject({
        jsonrpc: "2.0",
        id: 9,
        error: {
          code: -32601,
          message: 'Method not found: replay-agent did not expect "agent/shutdown" (the transcript expects line 4 here)',
          data: { line: 4 },
        },
      });

      input.write('{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
      yield* TestClock.adjust("29 seconds");
      expect(yield* served.runtime.status).toMatchObject({ next: { type: "delay", summary: "delay 30000ms" } });
      expect(lines).toHaveLength(2);
      yield* TestClock.adjust("1 second");
      expect(yield* line(2)).toEqual({ jsonrpc: "2.0", id: 1, result: { pong: true } });
      expect(yield* Deferred.await(served.ended)).toEqual({ reason: "exit", code: 3 });
      expect(yield* served.runtime.status).toMatchObject({ remaining: 0, mismatches: [{ expectedLine: 4 }] });
    });
    await Effect.runPromise(program.pipe(Effect.scoped, Effect.provide(TestClock.layer())));
    expect(logged).toEqual([expect.stringContaining("the app sent a message the transcript did not expect: the request does not match")]);
  });
});

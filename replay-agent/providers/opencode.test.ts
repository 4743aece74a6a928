import { createOpencodeClient, type Event, type OpencodeClient } from "@opencode-ai/sdk";
import { describe, expect, it, onTestFinished } from "vitest";
import { fixture } from "../fixtures/fixture.ts";
import { startReplayServer } from "../index.ts";

const serve = async (name: string) => {
  const server = await startReplayServer({ transcript: fixture(`opencode/${name}`) });
  onTestFinished(() => server.close());
  return server;
};

/**
 * An app on the official client: it reads GET /event as the SDK yields it and logs each event's
 * type, and each request it awaits as `← <call>` once the SDK resolved it, so the log is the order
 * the app observed.
 */
const app = async (url: string) => {
  const client: OpencodeClient = createOpencodeClient({ baseUrl: url });
  const log: Array<string> = [];
  const events: Array<Event> = [];
  const sseErrors: Array<unknown> = [];
  const wakers: Array<() => void> = [];
  let ended = false;
  // One attempt: a stream that fails is recorded and ends, instead of the SDK's retry with backoff.
  const { stream } = await client.event.subscribe({ sseMaxRetryAttempts: 1, onSseError: (error) => sseErrors.push(error) });
  const reading = (async () => {
    for await (const event of stream) {
      events.push(event);
      log.push(event.type);
      wakers.splice(0).forEach((wake) => wake());
    }
    ended = true;
    wakers.splice(0).forEach((wake) => wake());
  })();
  return {
    client,
    log,
    events,
    sseErrors,
    /** Whether the SDK's event stream has ended. */
    ended: () => ended,
    /** Resolves once the SDK's event stream has ended. */
    reading,
    /** Resolves with the first event `match` accepts, once the SDK has yielded it. */
    seen: async (match: (event: Event) => boolean): Promise<Event> => {
      for (;;) {
        const found = events.find(match);
        if (found !== undefined) return found;
        if (ended) throw new Error(`the event stream ended without the event; it yielded ${log.join(", ")}`);
        await new Promise<void>((wake) => wakers.push(wake));
      }
    },
    /** Awaits the SDK's call and logs `← name` when it resolved. */
    answered: async <T>(name: string, call: Promise<T>): Promise<T> => {
      const result = await call;
      log.push(`← ${name}`);
      return result;
    },
  };
};

/** Opens a session the way the fixtures expect: subscribed first (waiting for server.connected), then session.create. */
const openSession = async (url: string) => {
  const opened = await app(url);
  await opened.seen((event) => event.type === "server.connected");
  const created = await opened.answered("session.create", opened.client.session.create());
  const id = created.data?.id;
  if (id === undefined) throw new Error(`session.create gave no session: ${JSON.stringify(created.error)}`);
  return { ...opened, id };
};

const textDeltas = (events: ReadonlyArray<Event>) =>
  events.flatMap((event) =>
    event.type === "message.part.updated" && event.properties.delta !== undefined ? [event.properties.delta] : [],
  );

describe("opencode, read by @opencode-ai/sdk", () => {
  it("delivers a prompt's part updates and session.idle on the event stream before the prompt's response, then keeps the stream open (hold) with the transcript fully played until the agent stops", async () => {
    const server = await serve("prompt-race.ndjson");
    const opened = await openSession(server.url);
    const prompt = await opened.answered(
      "session.prompt",
      opened.client.session.prompt({
        path: { id: opened.id },
        body: { parts: [{ type: "text", text: "What does src/math.ts export?" }] },
      }),
    );
    expect(opened.log).toEqual([
      "server.connected",
      "session.created",
      "session.updated",
      "← session.create",
      "message.updated",
      "message.part.updated",
      "session.status",
      "message.updated",
      ...Array<string>(8).fill("message.part.updated"),
      "message.updated",
      "session.status",
      "session.idle",
      "← session.prompt",
    ]);
    expect(opened.id).toBe("ses_5265becf3ffeR7uQ2mWn9KxLpA");
    expect(textDeltas(opened.events).join("")).toBe("It exports `add` and `multiply`.");
    expect(prompt.data?.info).toMatchObject({ role: "assistant", finish: "stop", tokens: { input: 2311, output: 14 } });
    expect(prompt.data?.parts.map((part) => (part.type === "text" ? part.text : part.type))).toEqual([
      "step-start",
      "It exports `add` and `multiply`.",
      "step-finish",
    ]);
    expect(server.status()).toMatchObject({ remaining: 0, mismatches: [], next: null, held: [] });
    expect(opened.ended()).toBe(false);

    await server.close();
    await opened.reading;
    expect({ last: opened.log.at(-1), sseErrors: opened.sseErrors }).toEqual({ last: "← session.prompt", sseErrors: [] });
  });

  it("delivers an aborted session's terminal events on the event stream before the abort's response", async () => {
    const server = await serve("abort-race.ndjson");
    const opened = await openSession(server.url);
    const accepted = await opened.client.session.promptAsync({
      path: { id: opened.id },
      body: { parts: [{ type: "text", text: "Rewrite src/math.ts to use BigInt" }] },
    });
    expect(accepted.response.status).toBe(204);
    await opened.seen((event) => event.type === "message.part.updated" && event.properties.delta === " first.");
    const before = opened.log.length;
    const aborted = await opened.answered("session.abort", opened.client.session.abort({ path: { id: opened.id } }));
    expect(aborted.data).toBe(true);
    expect(opened.log.slice(before)).toEqual(["message.updated", "session.error", "session.status", "session.idle", "← session.abort"]);
    const [message, error] = opened.events.slice(-4);
    expect(message?.type === "message.updated" && message.properties.info.role === "assistant" && message.properties.info.error).toEqual({
      name: "MessageAbortedError",
      data: { message: "The operation was aborted." },
    });
    expect(error).toMatchObject({ type: "session.error", properties: { error: { name: "MessageAbortedError" } } });
    expect(textDeltas(opened.events).join("")).toBe("Let me read `src/math.ts` first.");
    expect(server.status()).toMatchObject({ remaining: 0, mismatches: [], next: null });
  });

  it("answers a prompt the transcript did not expect 400 replay_mismatch with the diff, which the SDK hands back as the error", async () => {
    const server = await serve("prompt-race.ndjson");
    const opened = await openSession(server.url);
    const prompt = await opened.client.session.prompt({
      path: { id: opened.id },
      body: { parts: [{ type: "text", text: "What does src/index.ts export?" }] },
    });
    const diff = 'body.parts[0].text: expected "What does src/math.ts export?", got "What does src/index.ts export?"';
    expect(prompt.response.status).toBe(400);
    expect(prompt.error).toMatchObject({ error: { type: "replay_mismatch", line: 35, diff } });
    expect(server.status()).toMatchObject({ mismatches: [{ expectedLine: 35, diff }], next: { line: 13, type: "wait" } });
  });
});

// What per-message delivery costs on a WebSocket: the replay agent answering one Realtime
// `response.create` with 10,000 server events, one JSON text message each, against a plain `ws`
// server sending the same messages one `send` each, the next once the one before was taken, each
// read on a connection of its own by a reader in a process of its own, runs taken in turns.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { WebSocketServer, type WebSocket } from "ws";
import { startReplayServer } from "../replay-agent/index.ts";
import type { Figure } from "./figure.ts";
import { converse, startReader, type ReadRun } from "./replay-reader.ts";
import { inTurns, medianOf, type Turn } from "./replay-turns.ts";

/** Server events in the answer to the one client message, the greeting not counted. */
const messageCount = 10_000;
/** The text deltas among them: the rest open and close the response, its item and its content part. */
const deltaCount = messageCount - 9;
const path = "/v1/realtime?model=gpt-realtime";
const clientMessage = { type: "response.create", response: { output_modalities: ["text"] } };

const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** The `n`-th id of a kind, in the Realtime API's shape: `<prefix>_C` and 20 letters and digits. */
const realtimeId = (prefix: string, n: number): string => {
  let value = ((BigInt(n) + 1n) * 0x9e3779b97f4a7c15f39cc0605cedc835n) % 62n ** 20n;
  let id = `${prefix}_C`;
  for (let digit = 0; digit < 20; digit++) {
    id += alphabet[Number(value % 62n)];
    value /= 62n;
  }
  return id;
};

/** The connection's greeting and the events answering its `response.create`: the `exchange`-th session and response of the bench, every id its own. */
function exchangeMessages(exchange: number): { readonly greeting: object; readonly answer: ReadonlyArray<object> } {
  let events = exchange * (messageCount + 1);
  const event = (type: string, fields: object) => ({ type, event_id: realtimeId("event", events++), ...fields });
  const responseId = realtimeId("resp", exchange);
  const itemId = realtimeId("item", exchange);
  const text = Array.from({ length: deltaCount }, (_, index) => ` word${index}`).join("");
  const audio = { output: { format: { type: "audio/pcm", rate: 24000 }, voice: "marin" } };
  const response = (status: string, output: ReadonlyArray<object>, usage: object | null) => ({
    object: "realtime.response",
    id: responseId,
    conversation_id: realtimeId("conv", exchange),
    output_modalities: ["text"],
    max_output_tokens: "inf",
    audio,
    metadata: null,
    status,
    status_details: null,
    output,
    usage,
  });
  const item = (status: string, content: ReadonlyArray<object>) => ({ id: itemId, type: "message", status, role: "assistant", content });
  const part = { response_id: responseId, item_id: itemId, output_index: 0, content_index: 0 };
  const done = item("completed", [{ type: "output_text", text }]);
  const greeting = event("session.created", {
    session: {
      type: "realtime",
      object: "realtime.session",
      id: realtimeId("sess", exchange),
      model: "gpt-realtime-2025-08-28",
      output_modalities: ["audio"],
      instructions: "Your knowledge cutoff is 2023-10. You are a helpful, witty, and friendly AI.",
      tools: [],
      tool_choice: "auto",
      max_output_tokens: "inf",
      tracing: null,
      prompt: null,
      expires_at: 1768213800,
      audio: {
        input: { format: { type: "audio/pcm", rate: 24000 }, transcription: null, noise_reduction: null, turn_detection: null },
        ...audio,
      },
      include: null,
    },
  });
  const answer = [
    event("response.created", { response: response("in_progress", [], null) }),
    event("response.output_item.added", { response_id: responseId, output_index: 0, item: item("in_progress", []) }),
    event("conversation.item.added", { previous_item_id: null, item: item("in_progress", []) }),
    event("response.content_part.added", { ...part, part: { type: "text", text: "" } }),
    ...Array.from({ length: deltaCount }, (_, index) => event("response.output_text.delta", { ...part, delta: ` word${index}` })),
    event("response.output_text.done", { ...part, text }),
    event("response.content_part.done", { ...part, part: { type: "text", text } }),
    event("response.output_item.done", { response_id: responseId, output_index: 0, item: done }),
    event("conversation.item.done", { previous_item_id: null, item: done }),
    event("response.done", {
      response: response("completed", [done], { total_tokens: 12 + deltaCount, input_tokens: 12, output_tokens: deltaCount }),
    }),
  ];
  return { greeting, answer };
}

/** `exchanges` connections, each greeted and then answering one `response.create`. */
const transcriptText = (exchanges: ReadonlyArray<ReturnType<typeof exchangeMessages>>): string => {
  const meta = {
    type: "meta",
    format: "replay-transcript",
    version: 1,
    provider: "openai-realtime",
    model: "gpt-realtime",
    source: "handwritten",
  };
  const lines = exchanges.flatMap(({ greeting, answer }) => [
    { type: "expect_outbound", request: { method: "GET", path } },
    { type: "emit_inbound", message: greeting },
    { type: "expect_outbound", message: clientMessage },
    ...answer.map((message) => ({ type: "emit_inbound", message })),
  ]);
  return [meta, ...lines].map((line) => JSON.stringify(line)).join("\n");
};

/** Sends `texts` one message each, each once the socket has taken the one before. */
async function sendEach(socket: WebSocket, texts: ReadonlyArray<string>): Promise<void> {
  for (const text of texts) await new Promise<void>((resolve) => socket.send(text, () => resolve()));
}

/**
 * A plain `ws` server on a node:http server (Nagle off), as the replay agent serves its
 * WebSockets (no compression): its n-th connection is greeted with the n-th exchange's greeting
 * and its first message answered with that exchange's events, one `send` each.
 */
async function plainServer(exchanges: ReadonlyArray<{ readonly greeting: string; readonly answer: ReadonlyArray<string> }>) {
  const server = createServer({ noDelay: true }, (_, response) => response.writeHead(426).end());
  const sockets = new WebSocketServer({ noServer: true, clientTracking: false, perMessageDeflate: false });
  let connections = 0;
  server.on("upgrade", (request, tcp, head) => {
    const exchange = exchanges[connections++];
    if (exchange === undefined) throw new Error(`bench: the plain WebSocket server has no exchange for connection ${connections}`);
    sockets.handleUpgrade(request, tcp, head, (socket) => {
      socket.once("message", () => void sendEach(socket, exchange.answer));
      void sendEach(socket, [exchange.greeting]);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

type Server = "replay" | "perFrame";

/**
 * One replay agent serves every run from one `openai-realtime` transcript loaded up front (a
 * connection per run, greeted with `session.created`, its `response.create` answered by 10,000
 * events, one WebSocket message each), beside a plain `ws` server sending the same JSON texts one
 * `send` each, each awaited; both taken in turns, each run on a connection of its own, timed from
 * sending `response.create` to the last event.
 * replay-websocket-per-frame-ratio: replay agent time ÷ plain server time;
 * replay-websocket-stream-ms, replay-websocket-stream-per-frame-baseline-ms: the times behind it.
 */
export async function websocketFigures(runs: number): Promise<Figure[]> {
  // One exchange to check the messages, one to warm up, one measurement per run: each server serves them in this order.
  const exchanges = Array.from({ length: 2 + runs }, (_, exchange) => exchangeMessages(exchange));
  const texts = exchanges.map(({ greeting, answer }) => ({
    greeting: JSON.stringify(greeting),
    answer: answer.map((message) => JSON.stringify(message)),
  }));
  const bytes = texts.map(({ answer }) => answer.reduce((sum, text) => sum + Buffer.byteLength(text), 0));
  const dir = await mkdtemp(join(tmpdir(), "bench-replay-websocket-"));
  try {
    const transcript = join(dir, "long-response.ndjson");
    await writeFile(transcript, transcriptText(exchanges));
    const replay = await startReplayServer({ transcript });
    const perFrame = await plainServer(texts);
    try {
      const urls: Record<Server, string> = { replay: `${replay.url.replace(/^http/, "ws")}${path}`, perFrame: perFrame.url };
      const expected = texts[0];
      for (const name of ["replay", "perFrame"] as const) {
        const answer: Array<string> = [];
        const { greeting } = await converse(urls[name], JSON.stringify(clientMessage), messageCount, (text) =>
          answer.push(text.toString("utf8")),
        );
        if (
          expected === undefined ||
          greeting.toString("utf8") !== expected.greeting ||
          answer.some((text, index) => text !== expected.answer[index])
        )
          throw new Error(`bench: the ${name} server sent other messages than the events the transcript holds`);
      }
      const served: Record<Server, number> = { replay: 1, perFrame: 1 };
      const reader = startReader();
      try {
        const turns = await inTurns<Server, ReadRun>(["replay", "perFrame"], runs, async (name) => {
          const exchange = served[name]++;
          const message = JSON.stringify(clientMessage);
          const run = await reader.read({ transport: "websocket", url: urls[name], message, count: messageCount });
          if (run.bytes !== bytes[exchange])
            throw new Error(`bench: read ${run.bytes} bytes from the ${name} server, not ${bytes[exchange]}`);
          return run;
        });
        if (replay.status().remaining !== 0)
          throw new Error(`bench: the replay agent did not play its whole transcript: ${JSON.stringify(replay.status())}`);
        const ms = (value: (turn: Turn<Server, ReadRun>) => number) => medianOf(turns, value);
        return [
          { figure: "replay-websocket-per-frame-ratio", value: ms((t) => t.replay.total / t.perFrame.total), unit: "ratio", goal: null },
          { figure: "replay-websocket-stream-ms", value: ms((t) => t.replay.total), unit: "ms", goal: null },
          { figure: "replay-websocket-stream-per-frame-baseline-ms", value: ms((t) => t.perFrame.total), unit: "ms", goal: null },
        ];
      } finally {
        await reader.close();
      }
    } finally {
      await Promise.all([perFrame.close(), replay.close()]);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

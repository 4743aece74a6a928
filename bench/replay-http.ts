// What per-frame delivery costs on each HTTP frame kind (server-sent events, NDJSON lines, AWS
// event-stream messages): the replay agent streaming a long answer, each frame its own write,
// against a plain node:http server writing the same frames the same way (one write each, the next
// once the one before was taken, Nagle off) and against one writing them all from one prebuilt
// Buffer; each read to its last byte with plain fetch by a reader in a process of its own, as an
// app reads, the medians of runs taken in turns on the same machine.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EventStreamCodec } from "@smithy/eventstream-codec";
import { fromUtf8, toUtf8 } from "@smithy/util-utf8";
import { startReplayServer } from "../replay-agent/index.ts";
import type { Figure } from "./figure.ts";
import { startReader, type ReadRun } from "./replay-reader.ts";
import { inTurns, medianOf, type Turn } from "./replay-turns.ts";

/** Chunks in the streamed answer, [DONE] not counted. */
const chunkCount = 10_000;
const question = JSON.stringify({ model: "gpt-4o-mini", stream: true, messages: [{ role: "user", content: "Stream a long answer" }] });

/** The text of the answer's n-th delta. */
const word = (index: number) => ` word${index}`;

const chunk = (index: number) => ({
  id: "chatcmpl-AhQ3n2ZbX8tV1kLmP0rS7yWq4eFd",
  object: "chat.completion.chunk",
  created: 1733000000,
  model: "gpt-4o-mini-2024-07-18",
  service_tier: "default",
  system_fingerprint: "fp_0aa8d3e20b",
  choices:
    index === chunkCount - 1
      ? []
      : [
          {
            index: 0,
            delta: index === 0 ? { role: "assistant", content: "" } : index === chunkCount - 2 ? {} : { content: word(index) },
            logprobs: null,
            finish_reason: index === chunkCount - 2 ? "stop" : null,
          },
        ],
  usage: index === chunkCount - 1 ? { prompt_tokens: 12, completion_tokens: chunkCount - 3, total_tokens: chunkCount + 9 } : null,
});

/** An Ollama `/api/chat` line: one delta, or the last line with `done` and the counts. */
const ollamaLine = (index: number) => ({
  model: "llama3.2",
  created_at: "2026-12-04T12:00:00.000000Z",
  message: { role: "assistant", content: index === chunkCount - 1 ? "" : word(index) },
  done: index === chunkCount - 1,
  ...(index === chunkCount - 1 ? { done_reason: "stop", prompt_eval_count: 12, eval_count: chunkCount - 1 } : {}),
});

/** A Bedrock ConverseStream message: messageStart, text deltas, the block's stop, messageStop and metadata last. */
const bedrockMessage = (index: number) => {
  const event = (type: string, payload: object) => ({
    headers: { ":event-type": type, ":content-type": "application/json", ":message-type": "event" },
    payload: { ...payload, p: "abcdefghijkl" },
  });
  if (index === 0) return event("messageStart", { role: "assistant" });
  if (index === chunkCount - 3) return event("contentBlockStop", { contentBlockIndex: 0 });
  if (index === chunkCount - 2) return event("messageStop", { stopReason: "end_turn" });
  if (index === chunkCount - 1)
    return event("metadata", {
      usage: { inputTokens: 12, outputTokens: chunkCount - 4, totalTokens: chunkCount + 8 },
      metrics: { latencyMs: 812 },
    });
  return event("contentBlockDelta", { contentBlockIndex: 0, delta: { text: word(index) } });
};

const codec = new EventStreamCodec(toUtf8, fromUtf8);

/** One stream of a kind: the transcript's provider, path and frame lines, and each frame's bytes as a provider writes them. */
interface StreamKind {
  readonly name: "sse" | "ndjson" | "eventstream";
  readonly provider: string;
  readonly path: string;
  readonly lines: ReadonlyArray<object>;
  readonly bytes: ReadonlyArray<Buffer>;
}

const sseData: ReadonlyArray<object | "[DONE]"> = [...Array.from({ length: chunkCount }, (_, index) => chunk(index)), "[DONE]"];
const ndjsonLines = Array.from({ length: chunkCount }, (_, index) => ollamaLine(index));
const eventStreamMessages = Array.from({ length: chunkCount }, (_, index) => bedrockMessage(index));

const kinds: ReadonlyArray<StreamKind> = [
  {
    name: "sse",
    provider: "openai-chat",
    path: "/v1/chat/completions",
    lines: sseData.map((data) => ({ sse: { data } })),
    bytes: sseData.map((data) => Buffer.from(`data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`, "utf8")),
  },
  {
    name: "ndjson",
    provider: "ollama",
    path: "/api/chat",
    lines: ndjsonLines.map((ndjson) => ({ ndjson })),
    bytes: ndjsonLines.map((line) => Buffer.from(`${JSON.stringify(line)}\n`, "utf8")),
  },
  {
    name: "eventstream",
    provider: "bedrock",
    path: "/model/anthropic.claude-sonnet-4-6/converse-stream",
    lines: eventStreamMessages.map((eventstream) => ({ eventstream })),
    bytes: eventStreamMessages.map(({ headers, payload }) =>
      Buffer.from(
        codec.encode({
          headers: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, { type: "string" as const, value }])),
          body: fromUtf8(JSON.stringify(payload)),
        }),
      ),
    ),
  },
];

/** `exchanges` requests, each answered by the kind's frames with nothing between them: the default delivery, one write a frame. */
const transcriptText = (kind: StreamKind, exchanges: number): string => {
  const answer = [
    { type: "expect_outbound", request: { method: "POST", path: kind.path } },
    ...kind.lines.map((line) => ({ type: "emit_inbound", ...line })),
  ].map((line) => JSON.stringify(line));
  const meta = { type: "meta", format: "replay-transcript", version: 1, provider: kind.provider, source: "handwritten" };
  return [JSON.stringify(meta), ...Array.from({ length: exchanges }, () => answer).flat()].join("\n");
};

/** Writes `bytes` and resolves once the connection has taken them. */
const taken = (response: ServerResponse, bytes: Buffer) => new Promise<void>((resolve) => response.write(bytes, () => resolve()));

/** A plain node:http server (Nagle off) answering every request with `head` and the body `answer` writes. */
async function plainServer(
  head: Readonly<Record<string, string>>,
  answer: (response: ServerResponse) => Promise<void>,
): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer({ noDelay: true }, (request, response) => {
    request.resume();
    response.writeHead(200, head);
    void answer(response).then(() => response.end());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** One answer's bytes and head as the replay agent at `url` writes them, checked against the frames the baselines write. */
async function replayedHead(url: string, kind: StreamKind): Promise<Record<string, string>> {
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: question });
  const bytes = Buffer.from(await response.arrayBuffer());
  if (!bytes.equals(Buffer.concat(kind.bytes)))
    throw new Error(`bench: the replay agent wrote other ${kind.name} bytes than the frames the baselines write`);
  return Object.fromEntries([...response.headers.entries()].filter(([name]) => !["date", "transfer-encoding"].includes(name)));
}

type Server = "replay" | "perFrame" | "oneBuffer";

/**
 * For each frame kind, one replay agent serves every run from one transcript loaded up front (one
 * 10,000-frame answer per request, one write a frame), beside a node:http server writing the same
 * frames one write each, each awaited, and one writing them all in one write from a prebuilt
 * Buffer, all three taken in turns. Server-sent events keep the figures' first names; the other
 * kinds name themselves (replay-ndjson-per-frame-ratio, …).
 * replay-per-frame-ratio: replay agent time ÷ per-frame server time, to the last byte (1 means
 * the agent costs nothing beyond writing the frames one by one);
 * replay-to-one-buffer-ratio: replay agent time ÷ one-buffer time, what delivering each frame on
 * its own costs against the coalesced writes the agent used to make;
 * replay-first-byte-ms and its baselines: ms from sending the request to the first body byte.
 */
export async function httpFigures(runs: number): Promise<Figure[]> {
  const figures: Array<Figure> = [];
  for (const kind of kinds) figures.push(...(await kindFigures(kind, runs)));
  return figures;
}

async function kindFigures(kind: StreamKind, runs: number): Promise<Figure[]> {
  const named = (figure: string) => (kind.name === "sse" ? figure : figure.replace(/^replay-/, `replay-${kind.name}-`));
  const dir = await mkdtemp(join(tmpdir(), "bench-replay-"));
  try {
    const path = join(dir, "long-stream.ndjson");
    // One exchange to read the bytes, one to warm up, one measurement per run.
    await writeFile(path, transcriptText(kind, 2 + runs));
    const replay = await startReplayServer({ transcript: path });
    try {
      const head = await replayedHead(`${replay.url}${kind.path}`, kind);
      const perFrame = await plainServer(head, async (response) => {
        for (const bytes of kind.bytes) await taken(response, bytes);
      });
      const oneBuffer = await plainServer(head, (response) => taken(response, Buffer.concat(kind.bytes)));
      const reader = startReader();
      try {
        const urls: Record<Server, string> = {
          replay: `${replay.url}${kind.path}`,
          perFrame: `${perFrame.url}${kind.path}`,
          oneBuffer: `${oneBuffer.url}${kind.path}`,
        };
        const expected = Buffer.concat(kind.bytes).length;
        const turns = await inTurns<Server, ReadRun>(["replay", "perFrame", "oneBuffer"], runs, async (name) => {
          const run = await reader.read({ transport: "http", url: urls[name], body: question });
          if (run.bytes !== expected) throw new Error(`bench: read ${run.bytes} bytes from the ${name} server, not ${expected}`);
          return run;
        });
        if (replay.status().remaining !== 0)
          throw new Error(`bench: the replay agent did not play its whole transcript: ${JSON.stringify(replay.status())}`);
        const ms = (value: (turn: Turn<Server, ReadRun>) => number) => medianOf(turns, value);
        return [
          { figure: named("replay-per-frame-ratio"), value: ms((t) => t.replay.total / t.perFrame.total), unit: "ratio", goal: null },
          { figure: named("replay-stream-ms"), value: ms((t) => t.replay.total), unit: "ms", goal: null },
          { figure: named("replay-stream-per-frame-baseline-ms"), value: ms((t) => t.perFrame.total), unit: "ms", goal: null },
          { figure: named("replay-to-one-buffer-ratio"), value: ms((t) => t.replay.total / t.oneBuffer.total), unit: "ratio", goal: null },
          { figure: named("replay-stream-one-buffer-baseline-ms"), value: ms((t) => t.oneBuffer.total), unit: "ms", goal: null },
          { figure: named("replay-first-byte-ms"), value: ms((t) => t.replay.firstByte), unit: "ms", goal: 5 },
          { figure: named("replay-first-byte-per-frame-baseline-ms"), value: ms((t) => t.perFrame.firstByte), unit: "ms", goal: null },
          { figure: named("replay-first-byte-one-buffer-baseline-ms"), value: ms((t) => t.oneBuffer.firstByte), unit: "ms", goal: null },
        ];
      } finally {
        await Promise.all([reader.close(), perFrame.close(), oneBuffer.close()]);
      }
    } finally {
      await replay.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

// The replay agent against a plain node:http server writing the same SSE bytes from one prebuilt
// Buffer, both read by the official `openai` client: throughput ratio and time to first byte,
// each the median of runs taken in turns on the same machine. `tsx bench/replay.ts` prints them.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import OpenAI from "openai";
import { startReplayServer } from "../replay-agent/index.ts";
import { median, rounded, type Figure } from "./figure.ts";

/** Chunks in the streamed answer, [DONE] not counted. */
const chunkCount = 10_000;
const question = { model: "gpt-4o-mini", messages: [{ role: "user" as const, content: "Stream a long answer" }] };

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
            delta: index === 0 ? { role: "assistant", content: "" } : index === chunkCount - 2 ? {} : { content: ` word${index}` },
            logprobs: null,
            finish_reason: index === chunkCount - 2 ? "stop" : null,
          },
        ],
  usage: index === chunkCount - 1 ? { prompt_tokens: 12, completion_tokens: chunkCount - 3, total_tokens: chunkCount + 9 } : null,
});

/** `exchanges` requests, each answered by `chunkCount` openai-chat chunks and [DONE] with nothing between them. */
const transcriptText = (exchanges: number): string => {
  const answer = [
    { type: "expect_outbound", request: { method: "POST", path: "/v1/chat/completions", body: { model: question.model, stream: true } } },
    ...Array.from({ length: chunkCount }, (_, index) => ({ type: "emit_inbound", sse: { data: chunk(index) } })),
    { type: "emit_inbound", sse: { data: "[DONE]" } },
  ].map((line) => JSON.stringify(line));
  const meta = { type: "meta", format: "replay-transcript", version: 1, provider: "openai-chat", model: question.model, source: "handwritten" };
  return [JSON.stringify(meta), ...Array.from({ length: exchanges }, () => answer).flat()].join("\n");
};

/** A plain node:http server answering every request with `head` and `bytes` in one write. */
async function prebuilt(head: Readonly<Record<string, string>>, bytes: Buffer): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((request, response) => {
    request.resume();
    response.writeHead(200, head);
    response.end(bytes);
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

/** Streams one answer from `url` with the official client; ms from the call to the last chunk, and ms from sending the request to the first body byte when `timeFirstByte`. */
async function streamOnce(url: string, timeFirstByte: boolean): Promise<{ total: number; firstByte: number }> {
  let sent = 0;
  let firstByte = Number.NaN;
  // Times the first body chunk the client receives; only on first-byte runs, so throughput runs read the body untouched.
  const timed: typeof fetch = async (input, init) => {
    sent = performance.now();
    const response = await fetch(input, init);
    if (response.body === null) return response;
    const body = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(bytes, controller) {
          if (Number.isNaN(firstByte)) firstByte = performance.now() - sent;
          controller.enqueue(bytes);
        },
      }),
    );
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
  const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: "replay", maxRetries: 0, ...(timeFirstByte ? { fetch: timed } : {}) });
  const begin = performance.now();
  const stream = await client.chat.completions.create({ ...question, stream: true });
  let chunks = 0;
  for await (const _ of stream) chunks++;
  const total = performance.now() - begin;
  if (chunks !== chunkCount) throw new Error(`bench: the openai client read ${chunks} chunks from ${url}, not ${chunkCount}`);
  return { total, firstByte };
}

/** One answer's exact bytes and head as the replay agent at `url` writes them, read with plain fetch. */
async function recordedAnswer(url: string): Promise<{ head: Record<string, string>; bytes: Buffer }> {
  const response = await fetch(`${url}/v1/chat/completions`, { method: "POST", body: JSON.stringify({ ...question, stream: true }) });
  const head = { "content-type": response.headers.get("content-type") ?? "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" };
  return { head, bytes: Buffer.from(await response.arrayBuffer()) };
}

/**
 * replay-throughput-ratio: prebuilt-buffer time ÷ replay agent time for the whole stream, the
 * client's parsing included (so 1 means the agent costs nothing beyond writing the bytes), the
 * median over pairs of runs taken one right after the other, so a change in the machine's load
 * between pairs cancels out;
 * replay-first-byte-ms and its baseline: ms from sending the request to the first body byte.
 * One replay agent serves every run from one transcript loaded up front (one 10,000-chunk answer
 * per request), beside one prebuilt-buffer server; each measurement alternates the two, which
 * goes first alternating too, after a warm-up of each.
 */
export async function replayFigures(runs = 11): Promise<Figure[]> {
  const dir = await mkdtemp(join(tmpdir(), "bench-replay-"));
  try {
    const path = join(dir, "long-stream.ndjson");
    // One exchange to read the bytes, two to warm up, two measurements per run.
    await writeFile(path, transcriptText(3 + 2 * runs));
    const replay = await startReplayServer({ transcript: path });
    try {
      const { head, bytes } = await recordedAnswer(replay.url);
      const baseline = await prebuilt(head, bytes);
      try {
        const urls = { replay: replay.url, baseline: baseline.url };
        const ratios: number[] = [];
        const firstBytes = { replay: [] as number[], baseline: [] as number[] };
        for (const url of [urls.baseline, urls.replay]) await streamOnce(url, false);
        for (const url of [urls.baseline, urls.replay]) await streamOnce(url, true);
        for (let index = 0; index < runs; index++) {
          const order = index % 2 === 0 ? (["baseline", "replay"] as const) : (["replay", "baseline"] as const);
          const times = { replay: 0, baseline: 0 };
          for (const name of order) times[name] = (await streamOnce(urls[name], false)).total;
          ratios.push(times.baseline / times.replay);
          for (const name of order) firstBytes[name].push((await streamOnce(urls[name], true)).firstByte);
        }
        if (replay.status().remaining !== 0) throw new Error(`bench: the replay agent did not play its whole transcript: ${JSON.stringify(replay.status())}`);
        return [
          { figure: "replay-throughput-ratio", value: median(ratios), unit: "ratio", goal: 0.9 },
          { figure: "replay-first-byte-ms", value: median(firstBytes.replay), unit: "ms", goal: 5 },
          { figure: "replay-first-byte-baseline-ms", value: median(firstBytes.baseline), unit: "ms", goal: null },
        ];
      } finally {
        await baseline.close();
      }
    } finally {
      await replay.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const figure of await replayFigures()) console.log(JSON.stringify({ ...figure, value: rounded(figure.value, figure.unit) }));
}

// What per-frame delivery costs: the replay agent streaming a long answer, each frame its own
// write, against a plain node:http server writing the same frames the same way (one write each,
// the next once the one before was taken, Nagle off) and against one writing them all from one
// prebuilt Buffer; each read to its last byte with plain fetch by a reader in a process of its
// own, as an app reads, the medians of runs taken in turns on the same machine.
// `tsx bench/replay.ts` prints them.
import { fork } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { startReplayServer } from "../replay-agent/index.ts";
import { median, rounded, type Figure } from "./figure.ts";

/** Chunks in the streamed answer, [DONE] not counted. */
const chunkCount = 10_000;
const question = JSON.stringify({ model: "gpt-4o-mini", stream: true, messages: [{ role: "user", content: "Stream a long answer" }] });

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

/** The data of every frame of the answer, [DONE] last. */
const frameData: ReadonlyArray<object | "[DONE]"> = [...Array.from({ length: chunkCount }, (_, index) => chunk(index)), "[DONE]"];

/** Each frame as it goes on the wire, one buffer a frame. */
const frameBytes = frameData.map((data) => Buffer.from(`data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`, "utf8"));

/** `exchanges` requests, each answered by the frames with nothing between them: the default delivery, one write a frame. */
const transcriptText = (exchanges: number): string => {
  const answer = [
    { type: "expect_outbound", request: { method: "POST", path: "/v1/chat/completions", body: { model: "gpt-4o-mini", stream: true } } },
    ...frameData.map((data) => ({ type: "emit_inbound", sse: { data } })),
  ].map((line) => JSON.stringify(line));
  const meta = {
    type: "meta",
    format: "replay-transcript",
    version: 1,
    provider: "openai-chat",
    model: "gpt-4o-mini",
    source: "handwritten",
  };
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

interface StreamRun {
  readonly total: number;
  readonly firstByte: number;
  readonly bytes: number;
}

/** Streams one answer from `url` with plain fetch: ms from sending the request to the first body byte and to the last, and the bytes read. */
async function streamOnce(url: string): Promise<StreamRun> {
  const sent = performance.now();
  const response = await fetch(`${url}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: question,
  });
  const reader = response.body?.getReader();
  if (reader === undefined) throw new Error(`bench: ${url} answered ${response.status} without a body`);
  let firstByte = Number.NaN;
  let bytes = 0;
  for (let next = await reader.read(); next.done !== true; next = await reader.read()) {
    if (Number.isNaN(firstByte)) firstByte = performance.now() - sent;
    bytes += next.value.length;
  }
  return { total: performance.now() - sent, firstByte, bytes };
}

/** One answer's bytes and head as the replay agent at `url` writes them, checked against the frames the baselines write. */
async function replayedHead(url: string): Promise<Record<string, string>> {
  const response = await fetch(`${url}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: question,
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  if (!bytes.equals(Buffer.concat(frameBytes)))
    throw new Error("bench: the replay agent wrote other bytes than the frames the baselines write");
  return {
    "content-type": response.headers.get("content-type") ?? "text/event-stream",
    "cache-control": "no-cache",
    connection: "keep-alive",
  };
}

/** The argument that makes this file the reader: it streams each URL its parent sends and answers with the run. */
const readerFlag = "--reader";

/**
 * A reader in a process of its own, as an app is: the servers' writes and its reads do not share
 * one event loop, where a server whose writes complete at once would keep the reader from reading
 * until the stream is all written.
 */
function startReader() {
  const child = fork(fileURLToPath(import.meta.url), [readerFlag], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  return {
    stream: async (url: string): Promise<StreamRun> => {
      const answered = once(child, "message") as Promise<[StreamRun]>;
      child.send(url);
      return (await answered)[0];
    },
    close: async () => {
      const exited = once(child, "exit");
      child.disconnect();
      await exited;
    },
  };
}

type Server = "replay" | "perFrame" | "oneBuffer";

/**
 * One replay agent serves every run from one transcript loaded up front (one 10,000-chunk answer
 * per request, one write a frame), beside a node:http server writing the same frames one write
 * each, each awaited, and one writing them all in one write from a prebuilt Buffer. After a
 * warm-up of each, every run streams from all three, in an order that rotates from run to run;
 * ratios are taken within a run, so a change in the machine's load between runs cancels out.
 * replay-per-frame-ratio: replay agent time ÷ per-frame server time, to the last byte (1 means
 * the agent costs nothing beyond writing the frames one by one);
 * replay-to-one-buffer-ratio: replay agent time ÷ one-buffer time, what delivering each frame on
 * its own costs against the coalesced writes the agent used to make;
 * replay-first-byte-ms and its baselines: ms from sending the request to the first body byte.
 */
export async function replayFigures(runs = 11): Promise<Figure[]> {
  const dir = await mkdtemp(join(tmpdir(), "bench-replay-"));
  try {
    const path = join(dir, "long-stream.ndjson");
    // One exchange to read the bytes, one to warm up, one measurement per run.
    await writeFile(path, transcriptText(2 + runs));
    const replay = await startReplayServer({ transcript: path });
    try {
      const head = await replayedHead(replay.url);
      const perFrame = await plainServer(head, async (response) => {
        for (const bytes of frameBytes) await taken(response, bytes);
      });
      const oneBuffer = await plainServer(head, (response) => taken(response, Buffer.concat(frameBytes)));
      const reader = startReader();
      try {
        const urls: Record<Server, string> = { replay: replay.url, perFrame: perFrame.url, oneBuffer: oneBuffer.url };
        const names: ReadonlyArray<Server> = ["replay", "perFrame", "oneBuffer"];
        const expected = Buffer.concat(frameBytes).length;
        const durations = { replay: [] as number[], perFrame: [] as number[], oneBuffer: [] as number[] };
        const firstBytes = { replay: [] as number[], perFrame: [] as number[], oneBuffer: [] as number[] };
        const ratios = { perFrame: [] as number[], oneBuffer: [] as number[] };
        for (const name of names) await reader.stream(urls[name]);
        for (let index = 0; index < runs; index++) {
          const order = names.map((_, offset) => names[(index + offset) % names.length] ?? "replay");
          const times: Record<Server, number> = { replay: 0, perFrame: 0, oneBuffer: 0 };
          for (const name of order) {
            const run = await reader.stream(urls[name]);
            if (run.bytes !== expected) throw new Error(`bench: read ${run.bytes} bytes from the ${name} server, not ${expected}`);
            times[name] = run.total;
            durations[name].push(run.total);
            firstBytes[name].push(run.firstByte);
          }
          ratios.perFrame.push(times.replay / times.perFrame);
          ratios.oneBuffer.push(times.replay / times.oneBuffer);
        }
        if (replay.status().remaining !== 0)
          throw new Error(`bench: the replay agent did not play its whole transcript: ${JSON.stringify(replay.status())}`);
        return [
          { figure: "replay-per-frame-ratio", value: median(ratios.perFrame), unit: "ratio", goal: null },
          { figure: "replay-stream-ms", value: median(durations.replay), unit: "ms", goal: null },
          { figure: "replay-stream-per-frame-baseline-ms", value: median(durations.perFrame), unit: "ms", goal: null },
          { figure: "replay-to-one-buffer-ratio", value: median(ratios.oneBuffer), unit: "ratio", goal: null },
          { figure: "replay-stream-one-buffer-baseline-ms", value: median(durations.oneBuffer), unit: "ms", goal: null },
          { figure: "replay-first-byte-ms", value: median(firstBytes.replay), unit: "ms", goal: 5 },
          { figure: "replay-first-byte-per-frame-baseline-ms", value: median(firstBytes.perFrame), unit: "ms", goal: null },
          { figure: "replay-first-byte-one-buffer-baseline-ms", value: median(firstBytes.oneBuffer), unit: "ms", goal: null },
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

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (isMain && process.argv[2] === readerFlag) {
  process.on("message", (url: string) => {
    void streamOnce(url).then((run) => process.send?.(run));
  });
} else if (isMain) {
  for (const figure of await replayFigures()) console.log(JSON.stringify({ ...figure, value: rounded(figure.value, figure.unit) }));
}

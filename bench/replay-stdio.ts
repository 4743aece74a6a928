// What per-line delivery costs on stdio: the replay agent as an app starts it, `replay-agent stdio
// --transcript …` in a process of its own, answering one codex app-server `turn/start` with 10,000
// lines (its response and 9,999 notifications), against a plain node process writing the same
// lines to its stdout one write each, the next once the one before was taken; the reader is the
// parent, reading each child's stdout to the last line, runs taken in turns.
import { spawn, type ChildProcessByStdio } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Figure } from "./figure.ts";
import { inTurns, medianOf, type Turn } from "./replay-turns.ts";

/** Lines answering the one request: its response, the turn's and the item's notifications, the deltas. */
const lineCount = 10_000;
const deltaCount = lineCount - 6;
const threadId = "019ad3f2-6c41-7b90-a2e5-3f8c1d07b6e4";

/** The `exchange`-th `turn/start` of the bench's app (ids 0 and 1 went to initialize and thread/start). */
const turnStart = (exchange: number) => ({
  id: exchange + 2,
  method: "turn/start",
  params: { threadId, input: [{ type: "text", text: "Stream a long answer", text_elements: [] }] },
});

/** What codex app-server answers the `exchange`-th `turn/start` with: one agent message streamed in deltas, each turn and item with its own id. */
function answerLines(exchange: number): ReadonlyArray<object> {
  const turnId = `019ad3f2-8e17-7d52-9c3a-${(0xb41f6e2d05a8 + exchange).toString(16)}`;
  const itemId = `msg_0c7e2a9f41d84b3e6a5c1f0d8b7e2c4a9f3d6b1e5a8c${(0x0f27 + exchange).toString(16).padStart(4, "0")}`;
  const startedAt = 1764496401 + exchange * 60;
  const turn = (status: string, ended: boolean, at: number | null) => ({
    id: turnId,
    items: [],
    itemsView: "notLoaded",
    status,
    error: null,
    startedAt: at,
    completedAt: ended ? startedAt + 17 : null,
    durationMs: ended ? 16842 : null,
  });
  const item = (text: string) => ({
    type: "agentMessage",
    id: itemId,
    text,
    phase: "final_answer",
    memoryCitation: null,
    delivery: null,
    questions: null,
  });
  const usage = {
    totalTokens: 12 + deltaCount,
    inputTokens: 12,
    cachedInputTokens: 0,
    cacheWriteInputTokens: 0,
    outputTokens: deltaCount,
    reasoningOutputTokens: 0,
  };
  const words = Array.from({ length: deltaCount }, (_, index) => ` word${index}`);
  return [
    { id: exchange + 2, result: { turn: turn("inProgress", false, null) } },
    { method: "turn/started", params: { threadId, turn: turn("inProgress", false, startedAt) } },
    { method: "item/started", params: { item: item(""), threadId, turnId, startedAtMs: startedAt * 1000 + 871 } },
    ...words.map((delta) => ({ method: "item/agentMessage/delta", params: { threadId, turnId, itemId, delta } })),
    { method: "item/completed", params: { item: item(words.join("")), threadId, turnId, completedAtMs: startedAt * 1000 + 16710 } },
    {
      method: "thread/tokenUsage/updated",
      params: { threadId, turnId, tokenUsage: { total: usage, last: usage, modelContextWindow: 272000 } },
    },
    { method: "turn/completed", params: { threadId, turn: turn("completed", true, startedAt) } },
  ];
}

/** The lines answering the `exchange`-th request, as one NDJSON text each. */
const answerTexts = (exchange: number) => answerLines(exchange).map((line) => `${JSON.stringify(line)}\n`);

const transcriptText = (exchanges: number): string => {
  const meta = {
    type: "meta",
    format: "replay-transcript",
    version: 1,
    provider: "codex-app-server",
    model: "gpt-5.1-codex",
    source: "handwritten",
  };
  const lines = Array.from({ length: exchanges }, (_, exchange) => [
    { type: "expect_outbound", message: turnStart(exchange) },
    ...answerLines(exchange).map((message) => ({ type: "emit_inbound", message })),
  ]).flat();
  return [meta, ...lines].map((line) => JSON.stringify(line)).join("\n");
};

/** The argument that makes this file the plain process: it answers each line on its stdin with the next exchange's lines. */
const plainFlag = "--plain-stdio";

/** The plain process: its n-th line on stdin is answered by the n-th exchange's lines, one write each, the next once stdout has taken the one before. */
function servePlain(exchanges: number): void {
  const texts = Array.from({ length: exchanges }, (_, exchange) => answerTexts(exchange));
  let answered = Promise.resolve();
  let served = 0;
  createInterface({ input: process.stdin }).on("line", () => {
    const answer = texts[served++] ?? [];
    answered = answered.then(async () => {
      for (const text of answer) await new Promise<void>((resolve) => process.stdout.write(text, () => resolve()));
    });
  });
}

type Server = "replay" | "perFrame";

type Child = ChildProcessByStdio<Writable, Readable, Readable | null>;

/** Reads what `child` writes on stdout: `exchange` writes one request line and resolves once `bytes` bytes have come back. `said` is what it wrote on stderr. */
function talkTo(child: Child, name: Server, said: () => string) {
  let waiting: { left: number; readonly chunks: Array<Buffer>; readonly done: (error?: Error) => void } | undefined;
  child.stdout.on("data", (chunk: Buffer) => {
    if (waiting === undefined) throw new Error(`bench: a stdio child wrote ${chunk.length} bytes nobody asked for`);
    waiting.chunks.push(chunk);
    waiting.left -= chunk.length;
    if (waiting.left <= 0)
      waiting.done(waiting.left < 0 ? new Error(`bench: a stdio child wrote ${-waiting.left} bytes more than its answer`) : undefined);
  });
  child.on("exit", (code) =>
    waiting?.done(new Error(`bench: the ${name} side exited ${String(code)} before its answer was read\n${said()}`)),
  );
  return {
    exchange: (request: string, bytes: number): Promise<{ readonly total: number; readonly answer: Buffer }> => {
      const sent = performance.now();
      const answered = new Promise<{ readonly total: number; readonly answer: Buffer }>((resolve, reject) => {
        const chunks: Array<Buffer> = [];
        waiting = {
          left: bytes,
          chunks,
          done: (error) => {
            waiting = undefined;
            if (error !== undefined) reject(error);
            else resolve({ total: performance.now() - sent, answer: Buffer.concat(chunks) });
          },
        };
      });
      child.stdin.write(request);
      return answered;
    },
    /** Closes the child's stdin and resolves with its exit code. */
    end: async (): Promise<number | null> => {
      const exited = once(child, "exit") as Promise<[number | null]>;
      child.stdin.end();
      return (await exited)[0];
    },
  };
}

/**
 * One replay agent, started as an app starts it (`node bin/replay-agent.mjs stdio --transcript
 * …`), serves every run from one `codex-app-server` transcript (each `turn/start` answered by
 * 10,000 lines, one write each), beside a plain node process writing the same lines one write
 * each, each awaited; both taken in turns, timed from writing the request to reading the last
 * line. The agent runs in a process of its own, not `serveStdio` in this one, so that, as for the
 * HTTP kinds, its writes and the reader's reads do not share an event loop, and both sides write
 * to a pipe from a process of their own as a real agent does.
 * replay-stdio-per-frame-ratio: replay agent time ÷ plain process time;
 * replay-stdio-stream-ms, replay-stdio-stream-per-frame-baseline-ms: the times behind it.
 */
export async function stdioFigures(runs: number): Promise<Figure[]> {
  // One exchange to check the lines, one to warm up, one measurement per run: each side serves them in this order.
  const exchanges = 2 + runs;
  const requests = Array.from({ length: exchanges }, (_, exchange) => `${JSON.stringify(turnStart(exchange))}\n`);
  const expected = answerTexts(0).join("");
  const bytes = Array.from({ length: exchanges }, (_, exchange) => Buffer.byteLength(answerTexts(exchange).join("")));
  const dir = await mkdtemp(join(tmpdir(), "bench-replay-stdio-"));
  const agentLog: Array<Buffer> = [];
  try {
    const transcript = join(dir, "long-turn.ndjson");
    await writeFile(transcript, transcriptText(exchanges));
    const bin = fileURLToPath(new URL("../bin/replay-agent.mjs", import.meta.url));
    const agent = spawn(process.execPath, [bin, "stdio", "--transcript", transcript], { stdio: ["pipe", "pipe", "pipe"] });
    agent.stderr.on("data", (chunk: Buffer) => agentLog.push(chunk));
    const plain = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), plainFlag, String(exchanges)], {
      stdio: ["pipe", "pipe", "inherit"],
    });
    const said = () => Buffer.concat(agentLog).toString("utf8");
    const sides: Record<Server, ReturnType<typeof talkTo>> = {
      replay: talkTo(agent, "replay", said),
      perFrame: talkTo(plain, "perFrame", () => ""),
    };
    try {
      for (const name of ["replay", "perFrame"] as const) {
        const { answer } = await sides[name].exchange(requests[0] ?? "", bytes[0] ?? 0);
        if (answer.toString("utf8") !== expected) throw new Error(`bench: the ${name} side wrote other lines than the transcript holds`);
      }
      const served: Record<Server, number> = { replay: 1, perFrame: 1 };
      const turns = await inTurns<Server, number>(["replay", "perFrame"], runs, async (name) => {
        const exchange = served[name]++;
        return (await sides[name].exchange(requests[exchange] ?? "", bytes[exchange] ?? 0)).total;
      });
      const [code] = await Promise.all([sides.replay.end(), sides.perFrame.end()]);
      // The agent exits 0 once its stdin closes only if it played its whole transcript without a mismatch.
      if (code !== 0) throw new Error(`bench: the stdio replay agent exited ${String(code)}:\n${said()}`);
      const ms = (value: (turn: Turn<Server, number>) => number) => medianOf(turns, value);
      return [
        { figure: "replay-stdio-per-frame-ratio", value: ms((t) => t.replay / t.perFrame), unit: "ratio", goal: null },
        { figure: "replay-stdio-stream-ms", value: ms((t) => t.replay), unit: "ms", goal: null },
        { figure: "replay-stdio-stream-per-frame-baseline-ms", value: ms((t) => t.perFrame), unit: "ms", goal: null },
      ];
    } finally {
      // Already gone after a run that went through; stopped here after one that failed.
      agent.kill();
      plain.kill();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href && process.argv[2] === plainFlag) {
  servePlain(Number(process.argv[3]));
}

// What the route costs an app: the same replies streamed to the same Node app (the official
// Anthropic client, in a process of its own) straight from the replay agent, its base URL in
// ANTHROPIC_BASE_URL, and through the route, the client keeping https://api.anthropic.com; runs
// taken in turns, ratios within a run, medians. Beside them: whether frames the transcript spaces
// in time come as far apart through the route as straight, what the route's Node preload costs a
// process, and what loading and starting the route cost. `tsx bench/route.ts` prints them.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { routedTurnLoopEveryMs } from "../harness/agent.ts";
import { startReplayServer, type ReplayServer } from "../replay-agent/index.ts";
import type { Route, RouteOptions } from "../harness/route/start-route.ts";
import { median, rounded, type Figure } from "./figure.ts";
import { startApp, type RawAnswer, type StreamRun } from "./route-app.ts";
import { inTurns, medianOf } from "./replay-turns.ts";

/** Text deltas of the long reply; its frames are these and five more (the message's and the block's start and stop, the message's delta). */
const deltaCount = 2_000;

/** Text deltas of the spaced reply, each after a delay line of `spacing` ms. */
const spacedCount = 10;
const spacing = 10;

/** Runs of `node -e` with and without the route's variables: fewer than the streams' (each takes about 0.15 s), enough for a median. */
const preloadRuns = 7;

/** Later starts of the route, each stopped before the next. */
const laterStarts = 3;

type Path = "direct" | "route";

/** A line of a transcript's reply. */
type Line = { readonly type: string } & Readonly<Record<string, unknown>>;

const sse = (event: string, data: object): Line => ({ type: "emit_inbound", sse: { event, data: { type: event, ...data } } });

/** A streamed Messages reply of `deltas` text deltas, with the lines `between` (a delay, or none) before each. */
function replyLines(deltas: number, between: ReadonlyArray<Line>): ReadonlyArray<Line> {
  const message = {
    id: "msg_01XFDUDYJgAACzvnptvVoYEL",
    type: "message",
    role: "assistant",
    model: "claude-sonnet-4-6",
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: 12, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1, service_tier: "standard" },
  };
  return [
    sse("message_start", { message }),
    sse("content_block_start", { index: 0, content_block: { type: "text", text: "" } }),
    ...Array.from({ length: deltas }, (_, index) => [
      ...between,
      sse("content_block_delta", { index: 0, delta: { type: "text_delta", text: ` word${index}` } }),
    ]).flat(),
    sse("content_block_stop", { index: 0 }),
    sse("message_delta", { delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: deltas } }),
    sse("message_stop", {}),
  ];
}

/** For each part in order, `exchanges` requests, each answered by its `reply`. */
function transcriptText(parts: ReadonlyArray<{ readonly reply: ReadonlyArray<Line>; readonly exchanges: number }>): string {
  const meta = { type: "meta", format: "replay-transcript", version: 1, provider: "anthropic-messages", source: "handwritten" };
  const request = { type: "expect_outbound", request: { method: "POST", path: "/v1/messages" } };
  const answers = parts.flatMap(({ reply, exchanges }) => Array.from({ length: exchanges }, () => [request, ...reply]).flat());
  return [meta, ...answers].map((line) => JSON.stringify(line)).join("\n");
}

/** The head an app's fetch sees, without the date, which differs from one answer to the next. */
const stableHead = (answer: RawAnswer) => answer.headers.filter(([name]) => name !== "date");

/** Checks that the route gave the app the body bytes, status and head the replay agent gives it straight. */
function checkSame(direct: RawAnswer, routed: RawAnswer): void {
  const [straight, through] = [direct, routed].map((answer) => Buffer.from(answer.body, "base64"));
  if (straight === undefined || through === undefined || !through.equals(straight))
    throw new Error(
      `bench: through the route the app read ${through?.length} body bytes other than the ${straight?.length} it reads straight`,
    );
  const [straightHead, throughHead] = [direct, routed].map((answer) => JSON.stringify([answer.status, stableHead(answer)]));
  if (throughHead !== straightHead)
    throw new Error(`bench: through the route the app saw the status and head ${throughHead}, straight ${straightHead}`);
}

/** The gaps in ms between the text deltas of a spaced reply, as the app saw them. */
function gaps(run: StreamRun): number[] {
  // Its events but pings: message_start, content_block_start, the deltas, then the three that end it.
  const deltas = run.arrivals.slice(2, 2 + spacedCount);
  return deltas.slice(1).map((at, index) => at - (deltas[index] ?? Number.NaN));
}

/**
 * The long reply (2,005 frames, none delayed) and the spaced one (10 deltas, each after a 10 ms
 * delay line), each streamed by both apps in turns after a warm-up, once each app has read the
 * long reply raw (checked byte for byte, and by status and head). The replay agents and the route
 * run in this process, as they run in a Playwright worker: the direct app's agent as in a test
 * without a route, the routed app's turning the loop every 1 ms of writing, as in a test with one.
 * route-first-frame-ms and route-first-frame-direct-ms: from the client's call to the spaced
 * reply's first event, which the agent writes at once; route-first-frame-ratio: route ÷ direct;
 * route-frame-us and route-frame-direct-us: the long reply's time from the call to its last event
 * ÷ its events; route-frame-ratio: route ÷ direct;
 * route-long-first-frame-ms and route-long-first-frame-direct-ms: the long reply's first event;
 * route-spaced-gap-max-ms and route-spaced-gap-max-direct-ms: the largest gap the app saw between
 * two deltas the transcript spaces 10 ms apart.
 */
async function streamFigures(
  replay: Readonly<Record<Path, ReplayServer>>,
  route: Route,
  long: ReadonlyArray<Line>,
  spaced: ReadonlyArray<Line>,
  runs: number,
): Promise<Figure[]> {
  const apps = { direct: startApp({ ANTHROPIC_BASE_URL: replay.direct.url }), route: startApp(route.env) };
  try {
    checkSame(await apps.direct.raw(), await apps.route.raw());
    const streamed = (reply: ReadonlyArray<Line>, arrivals: boolean) => {
      const frames = reply.filter((line) => line.type === "emit_inbound").length;
      return inTurns<Path, StreamRun>(["direct", "route"], runs, async (path) => {
        const run = await apps[path].stream(arrivals);
        if (run.frames !== frames) throw new Error(`bench: the app read ${run.frames} events (${path}), not ${frames}`);
        return run;
      });
    };
    const longTurns = await streamed(long, false);
    const spacedTurns = await streamed(spaced, true);
    if (replay.direct.status().remaining !== 0 || replay.route.status().remaining !== 0 || route.strays().length > 0)
      throw new Error(
        `bench: a replay agent did not play its whole transcript, or the route refused a call: ${JSON.stringify({ direct: replay.direct.status(), route: replay.route.status(), strays: route.strays() })}`,
      );
    const perFrame = (run: StreamRun) => (run.total / run.frames) * 1000;
    const largestGap = (run: StreamRun) => Math.max(...gaps(run));
    return [
      { figure: "route-first-frame-ratio", value: medianOf(spacedTurns, (t) => t.route.first / t.direct.first), unit: "ratio", goal: null },
      { figure: "route-first-frame-ms", value: medianOf(spacedTurns, (t) => t.route.first), unit: "ms", goal: null },
      { figure: "route-first-frame-direct-ms", value: medianOf(spacedTurns, (t) => t.direct.first), unit: "ms", goal: null },
      { figure: "route-frame-ratio", value: medianOf(longTurns, (t) => t.route.total / t.direct.total), unit: "ratio", goal: null },
      { figure: "route-frame-us", value: medianOf(longTurns, (t) => perFrame(t.route)), unit: "µs", goal: null },
      { figure: "route-frame-direct-us", value: medianOf(longTurns, (t) => perFrame(t.direct)), unit: "µs", goal: null },
      { figure: "route-long-first-frame-ms", value: medianOf(longTurns, (t) => t.route.first), unit: "ms", goal: null },
      { figure: "route-long-first-frame-direct-ms", value: medianOf(longTurns, (t) => t.direct.first), unit: "ms", goal: null },
      { figure: "route-spaced-gap-max-ms", value: medianOf(spacedTurns, (t) => largestGap(t.route)), unit: "ms", goal: null },
      { figure: "route-spaced-gap-max-direct-ms", value: medianOf(spacedTurns, (t) => largestGap(t.direct)), unit: "ms", goal: null },
    ];
  } finally {
    await Promise.all([apps.direct.close(), apps.route.close()]);
  }
}

/** CPU ms of one `node -e` started with exactly `env`, which prints its own CPU use (process.cpuUsage) as its script ends. */
async function nodeCpu(env: Readonly<Record<string, string>>): Promise<number> {
  const script = "const { user, system } = process.cpuUsage(); process.stdout.write(String((user + system) / 1000));";
  const child = spawn(process.execPath, ["-e", script], { env: { ...env }, stdio: ["ignore", "pipe", "inherit"] });
  let printed = "";
  child.stdout.setEncoding("utf8").on("data", (text: string) => (printed += text));
  const [code] = (await once(child, "exit")) as [number | null];
  if (code !== 0 || printed === "" || !Number.isFinite(Number(printed)))
    throw new Error(`bench: node -e exited ${String(code)} printing ${JSON.stringify(printed)}`);
  return Number(printed);
}

/**
 * `node -e` with the route's variables, with them but its NODE_OPTIONS (the preload), and with
 * none of them (an empty environment), in turns.
 * route-preload-cpu-ms: what the preload adds, the median of the runs' differences;
 * route-env-cpu-ms: what the route's variables add together (the preload, and NODE_EXTRA_CA_CERTS,
 * which makes Node load its certificates as it starts);
 * route-node-cpu-ms, route-node-baseline-cpu-ms and route-node-bare-cpu-ms: the CPU of each.
 */
async function preloadFigures(route: Route, runs: number): Promise<Figure[]> {
  const { NODE_OPTIONS: _, ...withoutPreload } = route.env;
  const envs = { preload: route.env, baseline: withoutPreload, bare: {} };
  const turns = await inTurns<keyof typeof envs, number>(["preload", "baseline", "bare"], runs, (name) => nodeCpu(envs[name]));
  return [
    { figure: "route-preload-cpu-ms", value: medianOf(turns, (t) => t.preload - t.baseline), unit: "ms", goal: null },
    { figure: "route-env-cpu-ms", value: medianOf(turns, (t) => t.preload - t.bare), unit: "ms", goal: null },
    { figure: "route-node-cpu-ms", value: medianOf(turns, (t) => t.preload), unit: "ms", goal: null },
    { figure: "route-node-baseline-cpu-ms", value: medianOf(turns, (t) => t.baseline), unit: "ms", goal: null },
    { figure: "route-node-bare-cpu-ms", value: medianOf(turns, (t) => t.bare), unit: "ms", goal: null },
  ];
}

/** ms that `action` took, and what it gave. */
async function timed<Value>(action: () => Promise<Value>): Promise<[number, Value]> {
  const start = performance.now();
  const value = await action();
  return [performance.now() - start, value];
}

/**
 * The route's figures. This process loads the route (mockttp with it) and starts it to the replay
 * agent, which it does first in a process; the streams and the preload's figures go through that
 * route; then it starts and stops a route three times more, and bundles the route's preload once.
 * route-load-ms and route-load-cpu-ms: importing start-route.ts, mockttp with it, by wall time and
 * by this process's CPU (nothing else runs in it meanwhile);
 * route-start-first-ms: startRoute until it answers, the first in the process, which makes the
 * route's certificate authority; route-start-ms: a later one (the median of three);
 * route-start-preload-bundle-ms: the part of a start in a clone that an installed package does not
 * have, the esbuild bundle of the preload (an installed package ships it).
 */
export async function routeFigures(runs = 11): Promise<Figure[]> {
  const long = replyLines(deltaCount, []);
  const spaced = replyLines(spacedCount, [{ type: "delay", ms: spacing }]);
  const dir = await mkdtemp(join(tmpdir(), "bench-route-"));
  try {
    const transcript = join(dir, "replies.ndjson");
    // One app's warm-up and runs of both replies, and its raw read of the long one.
    const exchanges = 1 + runs;
    await writeFile(
      transcript,
      transcriptText([
        { reply: long, exchanges: 1 + exchanges },
        { reply: spaced, exchanges },
      ]),
    );
    // An agent a path, each as the harness starts it: the routed one turns the loop every 1 ms of writing (TurnLoopBetweenWrites).
    const replay = {
      direct: await startReplayServer({ transcript }),
      route: await startReplayServer({ transcript, turnLoopEveryMs: routedTurnLoopEveryMs }),
    };
    try {
      const cpu = process.cpuUsage();
      const [load, { startRoute }] = await timed(() => import("../harness/route/start-route.ts"));
      const loadCpu = process.cpuUsage(cpu);
      const { preloadFile } = await import("../harness/route/preload-file.ts");
      const options = (target: string): RouteOptions => ({ routes: [{ hosts: ["api.anthropic.com"], target }], dir });
      const [first, route] = await timed(() => startRoute(options(replay.route.url)));
      const figures: Figure[] = [];
      try {
        figures.push(...(await streamFigures(replay, route, long, spaced, runs)), ...(await preloadFigures(route, preloadRuns)));
      } finally {
        await route.stop();
      }
      const later: number[] = [];
      for (let index = 0; index < laterStarts; index++) {
        const [start, another] = await timed(() => startRoute(options(replay.route.url)));
        later.push(start);
        await another.stop();
      }
      const [bundle] = await timed(() => preloadFile(dir));
      return [
        ...figures,
        { figure: "route-load-ms", value: load, unit: "ms", goal: null },
        { figure: "route-load-cpu-ms", value: (loadCpu.user + loadCpu.system) / 1000, unit: "ms", goal: null },
        { figure: "route-start-first-ms", value: first, unit: "ms", goal: null },
        { figure: "route-start-ms", value: median(later), unit: "ms", goal: null },
        { figure: "route-start-preload-bundle-ms", value: bundle, unit: "ms", goal: null },
      ];
    } finally {
      await Promise.all([replay.direct.close(), replay.route.close()]);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const figure of await routeFigures()) console.log(JSON.stringify({ ...figure, value: rounded(figure.value, figure.unit) }));
}

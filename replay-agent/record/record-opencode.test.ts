import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { startRecorder } from "../fixtures/cli-process.ts";
import { fixture } from "../fixtures/fixture.ts";
import { openSession, textDeltas } from "../fixtures/opencode-app.ts";
import { fixtureLines, writeVariant } from "../fixtures/variant.ts";
import { loadTranscript, startReplayServer } from "../index.ts";

const scratch = async () => {
  const dir = await mkdtemp(join(tmpdir(), "replay-agent-record-opencode-"));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return dir;
};

type Line = Readonly<Record<string, unknown>> & { readonly type: string };

const linesOf = async (path: string) =>
  (await readFile(path, "utf8"))
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Line);

/** A line as the order below names it: a request by method and path, an event by its type, a response by its status. */
const nameOf = (line: Line | undefined): string => {
  const request = line?.["request"] as { method: string; path: string } | undefined;
  if (request !== undefined) return `${request.method} ${request.path}`;
  const sse = line?.["sse"] as { data: { type: string } } | undefined;
  if (sse !== undefined) return sse.data.type;
  const response = line?.["response"] as { status: number } | undefined;
  if (response !== undefined) return `response ${response.status}`;
  return line?.type ?? "the end";
};

/** The order a transcript's waits hold across lanes: for each wait, "<the line it holds> after <the line its mark follows>". */
const raceOf = (lines: ReadonlyArray<Line>): Array<string> =>
  lines.flatMap((line, index) => {
    if (line.type !== "wait") return [];
    const held = lines.slice(index).find((next) => next.type !== "wait");
    const mark = lines.findIndex((other) => other.type === "mark" && other["name"] === line["for"]);
    return [`${nameOf(held)} after ${nameOf(lines[mark - 1])}`];
  });

const session = "ses_5265becf3ffeR7uQ2mWn9KxLpA";
const aborted = "ses_52624fe77ffeHc4Wd8Zq1NtUyE";

/** A session the app runs with the official client: what it parsed, and the order it saw events and answers in. */
interface SessionRow {
  readonly name: string;
  readonly fixture: string;
  readonly run: (url: string) => Promise<{ readonly log: ReadonlyArray<string>; readonly parsed: unknown }>;
  readonly requests: number;
  /** How the app's log ends: the events it read before the last call resolved (`← <call>`). */
  readonly ending: ReadonlyArray<string>;
  /** The waits the recording holds, as `raceOf` names them. */
  readonly race: ReadonlyArray<string>;
  /** A line whose order against the events the fixture leaves open: its waits are not compared. */
  readonly racing?: string;
}

const rows: ReadonlyArray<SessionRow> = [
  {
    name: "a prompt whose parts and session.idle come before its response",
    fixture: "opencode/prompt-race.ndjson",
    run: async (url) => {
      const opened = await openSession(url);
      const prompt = await opened.answered(
        "session.prompt",
        opened.client.session.prompt({
          path: { id: opened.id },
          body: { parts: [{ type: "text", text: "What does src/math.ts export?" }] },
        }),
      );
      return { log: opened.log, parsed: { id: opened.id, deltas: textDeltas(opened.events).join(""), prompt: prompt.data } };
    },
    requests: 3,
    ending: ["message.updated", "session.status", "session.idle", "← session.prompt"],
    race: [
      "session.created after POST /session",
      `message.updated after POST /session/${session}/message`,
      "response 200 after session.updated",
      "response 200 after session.idle",
    ],
  },
  {
    name: "a session aborted mid-answer, whose terminal events come before the abort's response",
    fixture: "opencode/abort-race.ndjson",
    run: async (url) => {
      const opened = await openSession(url);
      const accepted = await opened.client.session.promptAsync({
        path: { id: opened.id },
        body: { parts: [{ type: "text", text: "Rewrite src/math.ts to use BigInt" }] },
      });
      await opened.seen((event) => event.type === "message.part.updated" && event.properties.delta === " first.");
      const abort = await opened.answered("session.abort", opened.client.session.abort({ path: { id: opened.id } }));
      const parsed = { id: opened.id, accepted: accepted.response.status, deltas: textDeltas(opened.events).join(""), abort: abort.data };
      return { log: opened.log, parsed: { ...parsed, last: opened.events.slice(-4) } };
    },
    requests: 4,
    ending: ["message.updated", "session.error", "session.status", "session.idle", "← session.abort"],
    // The 204 races the answer's events in the fixture itself (the server accepts the prompt and starts at once): either order is one the app saw.
    racing: "response 204",
    race: [
      "session.created after POST /session",
      `message.updated after POST /session/${aborted}/prompt_async`,
      `message.updated after POST /session/${aborted}/abort`,
      "response 200 after session.updated",
      "response 200 after session.idle",
    ],
  },
];

describe("replay-agent record --provider opencode", () => {
  it.each(rows)(
    "records $name with the event stream open beside the requests, and the recording replays it to the SDK in the same order",
    async (row) => {
      const upstream = await startReplayServer({ transcript: fixture(row.fixture) });
      onTestFinished(() => upstream.close());
      const out = join(await scratch(), "session.ndjson");
      const recorder = await startRecorder({ provider: "opencode", upstream: upstream.url, out, env: {} });

      const recorded = await row.run(recorder.url);
      expect(recorded.log.slice(-row.ending.length)).toEqual(row.ending);
      expect(upstream.status()).toMatchObject({ remaining: 0, mismatches: [] });
      // Stopped with the app's event stream still open.
      const stopped = await recorder.stop("SIGINT");
      const frames = (await loadTranscript(fixture(row.fixture))).entries.filter(
        (entry) => entry.type === "emit_inbound" && entry.head === undefined,
      ).length;
      expect({ exitCode: stopped.exitCode, stderr: stopped.stderr }).toEqual({ exitCode: 0, stderr: "" });
      expect(stopped.stdout).toContain(`replay-agent stopped: recorded ${row.requests} requests and ${frames} frames to ${out}`);

      const lines = await linesOf(out);
      expect(raceOf(lines).filter((wait) => row.racing === undefined || !wait.includes(row.racing))).toEqual(row.race);
      const events = lines.findIndex((line) => line["lane"] === "events");
      const held = lines.findIndex((line) => line.type === "hold");
      expect({ events: nameOf(lines[events]), held: nameOf(lines.slice(events, held).findLast((line) => "sse" in line)) }).toEqual({
        events: "GET /event",
        held: "session.idle",
      });

      const replay = await startReplayServer({ transcript: out });
      onTestFinished(() => replay.close());
      const replayed = await row.run(replay.url);
      expect(replayed).toEqual(recorded);
      expect(replay.status()).toMatchObject({ remaining: 0, mismatches: [], next: null });
    },
  );

  it("records a prompt still waiting for its answer when the recorder stops as held open, beside the held event stream, and the replay holds it the same", async () => {
    const lines = await fixtureLines("opencode/prompt-race.ndjson");
    // The server holds the prompt's response, which comes last, until the test has stopped the recorder.
    const upstream = await startReplayServer({
      transcript: await writeVariant([...lines.slice(0, -1), { type: "pause", name: "answering" }, ...lines.slice(-1)]),
    });
    onTestFinished(() => upstream.close());
    const out = join(await scratch(), "unanswered.ndjson");
    const recorder = await startRecorder({ provider: "opencode", upstream: upstream.url, out, env: {} });
    const ask = (opened: Awaited<ReturnType<typeof openSession>>) =>
      opened.client.session
        .prompt({ path: { id: opened.id }, body: { parts: [{ type: "text", text: "What does src/math.ts export?" }] } })
        .then(
          (result) => result.error,
          (error: unknown) => error,
        );

    const recording = await openSession(recorder.url);
    const unanswered = ask(recording);
    await recording.seen((event) => event.type === "session.idle");
    await upstream.paused("answering");
    const stopped = await recorder.stop("SIGINT");
    expect(stopped.stdout).toContain(`replay-agent stopped: recorded 3 requests and 19 frames to ${out}`);
    // The recorder dropped the app's connection as it stopped.
    expect(await unanswered).toEqual(new TypeError("fetch failed"));
    const recorded = await linesOf(out);
    expect(recorded.slice(-3).map(nameOf)).toEqual([`POST /session/${session}/message`, "mark", "hold"]);
    expect(recorded.filter((line) => line.type === "hold")).toHaveLength(2);
    // A session's event stream stays open between requests, so its timing is not kept.
    expect(recorded.filter((line) => line.type === "delay")).toEqual([]);

    const replay = await startReplayServer({ transcript: out });
    onTestFinished(() => replay.close());
    const replayed = await openSession(replay.url);
    const held = ask(replayed);
    await replayed.seen((event) => event.type === "session.idle");
    expect(replayed.log).toEqual(recording.log);
    expect(replay.status()).toMatchObject({ remaining: 0, mismatches: [], next: null });
    await replay.close();
    // Held until the replay agent stopped, which answers what it still holds so.
    expect(await held).toMatchObject({ error: { type: "replay_closed" } });
  });
});

import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  describeMessage,
  loadTranscript,
  providerTransport,
  requestExcerpt,
  startReplayServer,
  startStdioPeer,
  type Provider,
  type ReplayStatus,
  type StdioPeerStatus,
} from "../replay-agent/index.ts";
import { HarnessError } from "./errors.ts";

/** One message the app sent the replay agent: an HTTP request, or a message on stdio. */
export interface AgentRequest {
  /** "POST /v1/chat/completions", the JSON-RPC method (or "the answer to id N"), a typed message's type (and subtype), or "the agent's arguments". */
  readonly what: string;
  readonly body: unknown;
  readonly matched: boolean;
  /** The expect_outbound line it matched; null for a mismatch. */
  readonly line: number | null;
  /** When it came, in epoch ms. */
  readonly at: number;
}

export interface AgentMismatch {
  readonly what: string;
  /** What the request said, e.g. `last user message: "Hello there"` (see requestExcerpt). */
  readonly excerpt: string;
  /** When the agent turned it down, in epoch ms. */
  readonly at: number;
  readonly expectedLine: number | null;
  readonly diff: string;
}

/** Progress through the transcript, the same for an HTTP agent and a stdio peer. */
export type AgentStatus = Omit<ReplayStatus, "mismatches"> & { readonly mismatches: ReadonlyArray<AgentMismatch> };

/** The replay agent as a scenario sees it. */
export interface ScenarioAgent {
  /** The HTTP agent's base URL (`{replay}` in the config); undefined for a stdio peer. */
  readonly url: string | undefined;
  /** The shell command that starts the stdio peer (`{replayCommand}` in the config); undefined over HTTP. */
  readonly command: string | undefined;
  /**
   * The stdio peer's launcher (`{replayExecutable}` in the config): an executable named as the agent's command
   * (`claude`, `codex`), alone in its folder, that starts the peer with the arguments it is given. Give it as the
   * agent binary's path (the Agent SDK's `pathToClaudeCodeExecutable`) or put its folder first on PATH; undefined over HTTP.
   */
  readonly executable: string | undefined;
  /** Resolves when the transcript is held at the pause called `name`. */
  paused(name: string): Promise<void>;
  /** Releases a held pause (the one called `name` when several are held); resolves once the agent has it (a stdio peer takes a moment). */
  resume(name?: string): Promise<void>;
  /** Every request the app sent, in order. */
  requests(): ReadonlyArray<AgentRequest>;
  status(): AgentStatus;
  /** The provider of this agent's transcript (`openai-chat`, …). */
  readonly provider: Provider;
  /**
   * The replay agent of the test's transcript called `name`, for a test given several (`test.use({ transcript: { chat:
   * "chat.ndjson", title: "title.ndjson" } })`); the fixture itself is the first's. Throws naming the test's transcripts
   * when none is called `name`.
   */
  of(name: string): ScenarioAgent;
  /** The names of the test's transcripts, in the order given; empty for a test given one transcript or none. */
  readonly names: ReadonlyArray<string>;
}

function fromHttpStatus(status: ReplayStatus): AgentStatus {
  return {
    ...status,
    mismatches: status.mismatches.map((m) => ({
      what: `${m.request.method} ${m.request.path}`,
      excerpt: requestExcerpt(m.request),
      at: m.at,
      expectedLine: m.expectedLine,
      diff: m.diff,
    })),
  };
}

function fromStdioStatus(status: StdioPeerStatus): AgentStatus {
  return {
    ...status,
    mismatches: status.mismatches.map((m) => ({
      what: describeMessage(m.message),
      excerpt: requestExcerpt(m.message),
      at: m.at,
      expectedLine: m.expectedLine,
      diff: m.diff,
    })),
  };
}

function transcriptError(file: string, error: unknown): HarnessError {
  return new HarnessError(
    "transcript",
    `Could not load the transcript ${file}: ${error instanceof Error ? error.message : String(error)}\n` +
      "Fix the line it names, or check the path given to test.use({ transcript }) (relative to the scenario file).",
  );
}

/**
 * How often a routed test's agent lets the event loop turn while it writes (startReplayServer's
 * turnLoopEveryMs): the app's calls reach it through the route's proxy in this process, which
 * forwards only what was written before a turn.
 */
export const routedTurnLoopEveryMs = 1;

/** One replay agent before it is joined with the test's others (see startAgents). */
type SingleAgent = Omit<ScenarioAgent, "of" | "names">;

/**
 * Starts a replay agent on `transcript`: an HTTP server, or a stdio peer for `jsonrpc-stdio`.
 * With no transcript it serves an empty one, so any request the app sends fails the test.
 */
async function startAgent(transcript: string | undefined, routed: boolean): Promise<{ agent: SingleAgent; dispose: () => Promise<void> }> {
  const scratch = transcript === undefined ? await mkdtemp(join(tmpdir(), "scenario-transcript-")) : undefined;
  const removeScratch = async () => {
    if (scratch !== undefined) await rm(scratch, { recursive: true, force: true });
  };
  try {
    const file = transcript ?? (await emptyTranscript(scratch ?? tmpdir()));
    const loaded = await loadTranscript(file).catch((error: unknown) => {
      throw transcriptError(file, error);
    });
    if (providerTransport[loaded.meta.provider] === "stdio") {
      const peer = await startStdioPeer({ transcript: file }).catch((error: unknown) => {
        throw transcriptError(file, error);
      });
      const agent: SingleAgent = {
        provider: loaded.meta.provider,
        url: undefined,
        command: peer.commandLine,
        executable: peer.executable,
        paused: (name) => peer.paused(name),
        resume: (name) => peer.resume(name),
        requests: () =>
          peer.requests().map((r) => ({ what: describeMessage(r.message), body: r.message, matched: r.matched, line: r.line, at: r.at })),
        status: () => fromStdioStatus(peer.status()),
      };
      return { agent, dispose: async () => (await peer.close(), await removeScratch()) };
    }
    const server = await startReplayServer({ transcript: file, turnLoopEveryMs: routed ? routedTurnLoopEveryMs : undefined }).catch(
      (error: unknown) => {
        throw transcriptError(file, error);
      },
    );
    const agent: SingleAgent = {
      provider: loaded.meta.provider,
      url: server.url,
      command: undefined,
      executable: undefined,
      paused: (name) => server.paused(name),
      resume: async (name) => server.resume(name),
      requests: () =>
        server.requests().map((r) => ({ what: `${r.method} ${r.path}`, body: r.body, matched: r.matched, line: r.line, at: r.at })),
      status: () => fromHttpStatus(server.status()),
    };
    return { agent, dispose: async () => (await server.close(), await removeScratch()) };
  } catch (error) {
    await removeScratch();
    throw error;
  }
}

/** A test's transcript as `test.use({ transcript })` gives it: one file, one file for each name, or none. */
export type TranscriptOption = string | Readonly<Record<string, string>> | undefined;

/** A test's replay agents: the fixture is the first's, and `of(name)` reaches each. */
export interface StartedAgents {
  readonly agent: ScenarioAgent;
  /** Each agent with its transcript's name ("" for a test given one transcript or none), in the order given. */
  readonly each: ReadonlyArray<{ readonly name: string; readonly agent: ScenarioAgent }>;
  dispose(): Promise<void>;
}

/**
 * Starts a replay agent for each of the test's transcripts (`resolve` turns a path given in the scenario into a file), at
 * once; one with no transcript serves an empty one. When one cannot start, those started are stopped before it throws.
 */
export async function startAgents(transcript: TranscriptOption, resolve: (path: string) => string, routed = false): Promise<StartedAgents> {
  const given: ReadonlyArray<readonly [string, string | undefined]> =
    transcript === undefined || typeof transcript === "string" ? [["", transcript]] : Object.entries(transcript);
  if (given.length === 0) {
    throw new HarnessError("config", "test.use({ transcript }) names no transcript: give it a file, or one file for each name.");
  }
  const settled = await Promise.allSettled(
    given.map(async ([name, path]) => ({ name, ...(await startAgent(path === undefined ? undefined : resolve(path), routed)) })),
  );
  const started = settled.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
  const dispose = async () => void (await Promise.all(started.map((one) => one.dispose())));
  const failed = settled.find((result) => result.status === "rejected");
  if (failed !== undefined) {
    await dispose();
    throw failed.reason;
  }
  const names = given.flatMap(([name]) => (name === "" ? [] : [name]));
  const joined = new Map<string, ScenarioAgent>();
  const of = (name: string): ScenarioAgent => {
    const found = name === "" ? undefined : joined.get(name);
    if (found !== undefined) return found;
    const known =
      names.length === 0
        ? "it was given one transcript, not several by name"
        : `its transcripts are ${names.map((n) => `"${n}"`).join(", ")}`;
    throw new HarnessError("config", `agent.of("${name}") names no transcript of this test: ${known} (test.use({ transcript })).`);
  };
  const each = started.map(({ name, agent: single }) => {
    const agent: ScenarioAgent = { ...single, of, names };
    joined.set(name, agent);
    return { name, agent };
  });
  const [first] = each;
  if (first === undefined) throw new HarnessError("config", "test.use({ transcript }) names no transcript.");
  return { agent: first.agent, each, dispose };
}

async function emptyTranscript(dir: string): Promise<string> {
  const file = join(dir, "empty.ndjson");
  const meta = { type: "meta", format: "replay-transcript", version: 1, provider: "openai-chat", source: "handwritten" };
  await writeFile(file, `${JSON.stringify(meta)}\n`);
  return file;
}

/** Where the test's own steps ended, as the fixtures saw it then. */
export interface TestEnd {
  /** Epoch ms. */
  readonly at: number;
  /** Whether the test had failed (or timed out) by then. */
  readonly failed: boolean;
  /** How many mismatches the agent had reported by then. */
  readonly mismatches: number;
}

/**
 * Whether the mismatch at `index` came after the test had already failed: not yet reported when
 * its steps ended, and later by the agent's clock (a stdio peer reports a moment late).
 */
export function afterFailure(mismatch: AgentMismatch, index: number, end: TestEnd): boolean {
  return end.failed && index >= end.mismatches && mismatch.at >= end.at;
}

/** What one agent's teardown found wrong, before it is joined with the others' into the test's error. */
interface AgentProblem {
  readonly kind: "replay-mismatch" | "transcript-unplayed";
  readonly text: string;
}

/** One agent's teardown verdict; `name` is its transcript's name when the test has several. */
function agentProblem(status: AgentStatus, testPassed: boolean, end: TestEnd, name: string): AgentProblem | undefined {
  const transcript = name === "" ? "the transcript" : `the transcript "${name}"`;
  if (status.mismatches.length > 0) {
    const details = status.mismatches
      .map((mismatch, i) => {
        const where = mismatch.expectedLine === null ? "with nothing left to expect" : `against transcript line ${mismatch.expectedLine}`;
        const when = afterFailure(mismatch, i, end) ? ", sent after the test had already failed," : "";
        return `${i + 1}. ${mismatch.what} (${mismatch.excerpt})${when} did not match ${where}:\n${mismatch.diff}`;
      })
      .join("\n");
    const first = status.mismatches[0];
    const late =
      first !== undefined && afterFailure(first, 0, end)
        ? " The test had already failed before the first of them: its own error came first."
        : "";
    return {
      kind: "replay-mismatch",
      text:
        `The app sent ${status.mismatches.length} request(s) ${transcript} did not expect (answered as a replay mismatch).${late}\n` +
        `Expected against actual:\n${details}`,
    };
  }
  if (testPassed && status.remaining > 0) {
    const next = status.next === null ? "" : ` The first unplayed entry is line ${status.next.line}: ${status.next.summary}.`;
    const count = `${status.remaining} ${name === "" ? "transcript " : ""}entr${status.remaining === 1 ? "y" : "ies"}`;
    const entries = name === "" ? count : `${count} of ${transcript}`;
    return {
      kind: "transcript-unplayed",
      text:
        `The test ended with ${entries} unplayed.${next} ` +
        "The app never sent the request it expects, or the scenario ended before the reply was used: wait in the scenario for what the rest of the transcript produces, or remove the unused entries.",
    };
  }
  return undefined;
}

/**
 * For a test that failed, the agents that received no request although their transcripts expect one, as a note naming
 * them and how an app reaches the replay agent; undefined when the test passed or every agent was reached. A test
 * that passed says so itself, as an unplayed transcript.
 */
export function unreachedAgents(
  agents: ReadonlyArray<{ readonly name: string; readonly status: AgentStatus }>,
  testPassed: boolean,
): string | undefined {
  if (testPassed) return undefined;
  const unreached = agents.filter(({ status }) => status.played === 0 && status.remaining > 0 && status.mismatches.length === 0);
  if (unreached.length === 0) return undefined;
  const which = unreached.map(({ name }) => (name === "" ? "The replay agent" : `The replay agent of the transcript "${name}"`));
  return (
    `${which.join(" and ")} received no request before the test failed. If the app should have called its model provider ` +
    "by then, check that it reaches the replay agent: the variables its SDK reads (the config's provider block), or " +
    "app.route for a URL fixed in its code (node_modules/scenario-prover/docs/routing.md). A request still on its way " +
    "looks the same: a route the dev server compiles on its first request (app.ready.warm)."
  );
}

/**
 * The teardown verdict of a test's agents: any mismatch fails the test; an unplayed transcript fails a test that
 * otherwise passed. Each agent is named by its transcript's name ("" for a test given one); mismatches come first.
 */
export function agentProblems(
  agents: ReadonlyArray<{ readonly name: string; readonly status: AgentStatus; readonly end: TestEnd }>,
  testPassed: boolean,
): HarnessError | undefined {
  const found = agents.flatMap(({ name, status, end }) => agentProblem(status, testPassed, end, name) ?? []);
  const kind = found.some((problem) => problem.kind === "replay-mismatch") ? "replay-mismatch" : found[0]?.kind;
  if (kind === undefined) return undefined;
  return new HarnessError(
    kind,
    found
      .filter((problem) => problem.kind === kind)
      .map((problem) => problem.text)
      .join("\n"),
  );
}

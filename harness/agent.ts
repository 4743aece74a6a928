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
 * Starts a replay agent on `transcript`: an HTTP server, or a stdio peer for `jsonrpc-stdio`.
 * With no transcript it serves an empty one, so any request the app sends fails the test.
 */
export async function startAgent(transcript: string | undefined): Promise<{ agent: ScenarioAgent; dispose: () => Promise<void> }> {
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
      const agent: ScenarioAgent = {
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
    const server = await startReplayServer({ transcript: file }).catch((error: unknown) => {
      throw transcriptError(file, error);
    });
    const agent: ScenarioAgent = {
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

/** The teardown verdict: any mismatch fails the test; an unplayed transcript fails a test that otherwise passed. */
export function agentProblems(status: AgentStatus, testPassed: boolean, end: TestEnd): HarnessError | undefined {
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
    return new HarnessError(
      "replay-mismatch",
      `The app sent ${status.mismatches.length} request(s) the transcript did not expect (answered as a replay mismatch).${late}\n` +
        `Expected against actual:\n${details}`,
    );
  }
  if (testPassed && status.remaining > 0) {
    const next = status.next === null ? "" : ` The first unplayed entry is line ${status.next.line}: ${status.next.summary}.`;
    return new HarnessError(
      "transcript-unplayed",
      `The test ended with ${status.remaining} transcript entr${status.remaining === 1 ? "y" : "ies"} unplayed.${next} ` +
        "The app never sent the request it expects, or the scenario ended before the reply was used: wait in the scenario for what the rest of the transcript produces, or remove the unused entries.",
    );
  }
  return undefined;
}

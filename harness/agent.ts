import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startReplayServer, type ReplayRequest, type ReplayServer, type ReplayStatus } from "../replay-agent/index.ts";
import { HarnessError } from "./errors.ts";

/** The replay agent as a scenario sees it. */
export interface ScenarioAgent {
  readonly url: string;
  /** Resolves when the transcript is held at the pause called `name`. */
  paused(name: string): Promise<void>;
  /** Lets a held transcript go on. */
  resume(): void;
  /** Every request the app sent, in order. */
  requests(): ReadonlyArray<ReplayRequest>;
  status(): ReplayStatus;
}

/**
 * Starts a replay agent on `transcript`, or, when a test names none, on an empty
 * transcript: any request the app then sends is a mismatch that fails the test.
 */
export async function startAgent(
  transcript: string | undefined,
): Promise<{ agent: ScenarioAgent; dispose: () => Promise<void> }> {
  const scratch = transcript === undefined ? await mkdtemp(join(tmpdir(), "scenario-transcript-")) : undefined;
  const file = transcript ?? (await emptyTranscript(scratch ?? tmpdir()));
  const removeScratch = async () => {
    if (scratch !== undefined) await rm(scratch, { recursive: true, force: true });
  };
  let server: ReplayServer;
  try {
    server = await startReplayServer({ transcript: file });
  } catch (error) {
    await removeScratch();
    throw new HarnessError(
      "transcript",
      `Could not load the transcript ${file}: ${error instanceof Error ? error.message : String(error)}\n` +
        "Fix the line it names, or check the path given to test.use({ transcript }) (relative to the scenario file).",
    );
  }
  const agent: ScenarioAgent = {
    url: server.url,
    paused: (name) => server.paused(name),
    resume: () => server.resume(),
    requests: () => server.requests(),
    status: () => server.status(),
  };
  const dispose = async () => {
    await server.close();
    await removeScratch();
  };
  return { agent, dispose };
}

async function emptyTranscript(dir: string): Promise<string> {
  const file = join(dir, "empty.ndjson");
  const meta = { type: "meta", format: "replay-transcript", version: 1, provider: "openai-chat", source: "handwritten" };
  await writeFile(file, `${JSON.stringify(meta)}\n`);
  return file;
}

/** The teardown verdict: mismatches always fail; an unplayed transcript fails a test that otherwise passed. */
export function agentProblems(status: ReplayStatus, testPassed: boolean): HarnessError | undefined {
  if (status.mismatches.length > 0) {
    const details = status.mismatches
      .map((mismatch, i) => {
        const where = mismatch.expectedLine === null ? "with nothing left to expect" : `against transcript line ${mismatch.expectedLine}`;
        return `${i + 1}. ${mismatch.request.method} ${mismatch.request.path} did not match ${where}:\n${mismatch.diff}`;
      })
      .join("\n");
    return new HarnessError(
      "replay-mismatch",
      `The app sent ${status.mismatches.length} request(s) the transcript did not expect (answered 400 replay_mismatch).\n` +
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

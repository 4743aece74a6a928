import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import * as Cause from "effect/Cause";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import * as Random from "effect/Random";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { replayAgent } from "../fixtures/cli-process.ts";
import { validateTranscript } from "../read-transcript.ts";
import { serveTranscript } from "../serve-transcript.ts";

/** This repository: every transcript in it is a fixture to fuzz. */
const root = join(import.meta.dirname, "..", "..");
const seed = "scenario-prover transcript fuzz 1";
const casesPerFixture = 100;

async function transcripts(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const found = await Promise.all(
    entries.map(async (entry) => {
      if (entry.isDirectory())
        return ["node_modules", ".git", "reports", "test-results", "dist"].includes(entry.name) ? [] : transcripts(join(dir, entry.name));
      return entry.name.endsWith(".ndjson") ? [join(dir, entry.name)] : [];
    }),
  );
  return found.flat().sort();
}

interface Mutant {
  /** How the text was changed, to reproduce it. */
  readonly change: string;
  readonly text: string;
}

/** One random change of a transcript's text: a byte set to a random value, a cut, or lines swapped, doubled or dropped. */
const mutate = Effect.fn("fuzz.mutate")(function* (text: string) {
  const bytes = Buffer.from(text, "utf8");
  const lines = text.split("\n");
  const line = Random.nextIntBetween(0, lines.length - 1);
  const kind = yield* Random.choice(["byte", "cut", "swap", "double", "drop"] as const);
  if (kind === "byte") {
    const at = yield* Random.nextIntBetween(0, bytes.length - 1);
    const value = yield* Random.nextIntBetween(0, 255);
    const changed = Buffer.from(bytes);
    changed[at] = value;
    return { change: `byte ${at} set to ${value}`, text: changed.toString("utf8") } satisfies Mutant;
  }
  if (kind === "cut") {
    const at = yield* Random.nextIntBetween(0, bytes.length - 1);
    return { change: `cut after byte ${at}`, text: bytes.subarray(0, at).toString("utf8") } satisfies Mutant;
  }
  const [a, b] = [yield* line, yield* line];
  const changed = [...lines];
  if (kind === "swap") [changed[a], changed[b]] = [lines[b] ?? "", lines[a] ?? ""];
  else if (kind === "double") changed.splice(a, 0, lines[a] ?? "");
  else changed.splice(a, 1);
  return {
    change: `line ${a + 1} ${kind === "swap" ? `swapped with line ${b + 1}` : kind === "double" ? "doubled" : "dropped"}`,
    text: changed.join("\n"),
  } satisfies Mutant;
});

/** The `casesPerFixture` changes of `file`'s text, the same every run: the seed is the fuzz's and the file's. */
const mutants = (file: string, text: string) =>
  Effect.runPromise(Effect.forEach(Array.from({ length: casesPerFixture }), () => mutate(text)).pipe(Random.withSeed(`${seed} ${file}`)));

type Outcome =
  | { readonly kind: "valid" }
  | { readonly kind: "rejected"; readonly message: string }
  | { readonly kind: "crashed"; readonly detail: string };

/** What `check` and then `serve` make of a text: valid (and served, then closed), rejected with a typed error, or a crash (a defect). */
async function judge(file: string, text: string): Promise<Outcome> {
  const exit = await Effect.runPromiseExit(
    validateTranscript(file, text).pipe(
      Effect.tap((transcript) =>
        transcript.meta.provider === "jsonrpc-stdio" ? Effect.void : Effect.scoped(serveTranscript(transcript, { port: 0 })),
      ),
    ),
  );
  if (Exit.isSuccess(exit)) return { kind: "valid" };
  if (Cause.hasDies(exit.cause) || !Cause.hasFails(exit.cause)) return { kind: "crashed", detail: Cause.pretty(exit.cause) };
  const error = Cause.squash(exit.cause);
  return { kind: "rejected", message: error instanceof Error ? error.message : String(error) };
}

let work: string;
let fixtures: string[];

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "replay-agent-fuzz-"));
  fixtures = await transcripts(root);
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe("fuzzing the transcript reader", () => {
  it(`turns ${casesPerFixture} random changes of every transcript in the repository into a valid transcript or a file:line: message, never a crash (seed "${seed}")`, async () => {
    expect(fixtures.length).toBeGreaterThan(20);
    const problems: string[] = [];
    const counts = { valid: 0, rejected: 0 };
    for (const path of fixtures) {
      const file = relative(root, path);
      const text = await readFile(path, "utf8");
      const changed = await mutants(file, text);
      for (const mutant of changed) {
        const outcome = await judge(file, mutant.text);
        if (outcome.kind === "valid") counts.valid++;
        else if (outcome.kind === "crashed") problems.push(`${file}, ${mutant.change}: crashed: ${outcome.detail}`);
        else if (!new RegExp(`^${file.replaceAll(".", "\\.")}:\\d+: \\S`).test(outcome.message))
          problems.push(`${file}, ${mutant.change}: no file:line: in "${outcome.message}"`);
        else counts.rejected++;
      }
    }
    expect(problems).toEqual([]);
    // Both ways out are taken: the changes are not all harmless, nor all fatal.
    expect(counts.valid).toBeGreaterThan(fixtures.length);
    expect(counts.rejected).toBeGreaterThan(fixtures.length * (casesPerFixture / 2));
  });

  it("agrees with the replay-agent CLI: check exits 2 with the message for a rejected change and 0 for a harmless one, and serve exits 2 before listening", async () => {
    const file = "replay-agent/fixtures/openai-chat/short-tour.ndjson";
    const text = await readFile(join(root, file), "utf8");
    const changed = await mutants(file, text);
    const judged = await Promise.all(changed.map(async (mutant) => ({ mutant, outcome: await judge(file, mutant.text) })));
    const rejected = judged.find(({ outcome }) => outcome.kind === "rejected");
    const valid = judged.find(({ outcome }) => outcome.kind === "valid");
    if (rejected?.outcome.kind !== "rejected" || valid === undefined)
      throw new Error(`seed "${seed}" gave no rejected or no valid change of ${file}`);
    const [bad, good] = [join(work, "rejected.ndjson"), join(work, "valid.ndjson")];
    await writeFile(bad, rejected.mutant.text);
    await writeFile(good, valid.mutant.text);
    const message = rejected.outcome.message.replace(`${file}:`, `${bad}:`);

    const [checkBad, checkGood, serveBad] = await Promise.all([
      replayAgent(["check", bad]),
      replayAgent(["check", good]),
      replayAgent(["serve", "--transcript", bad]),
    ]);
    expect([checkBad.exitCode, checkGood.exitCode, serveBad.exitCode]).toEqual([2, 0, 2]);
    expect(checkBad.stderr).toContain(message);
    expect(serveBad.stderr).toContain(message);
    expect(serveBad.stdout).not.toContain("listening");
  });

  it("agrees with `replay-agent stdio`: a damaged jsonrpc-stdio transcript exits 2 with the message and writes nothing on stdout, the protocol's channel", async () => {
    const file = "replay-agent/fixtures/jsonrpc-stdio/acp-prompt.ndjson";
    const text = await readFile(join(root, file), "utf8");
    const judged = await Promise.all(
      (await mutants(file, text)).map(async (mutant) => ({ mutant, outcome: await judge(file, mutant.text) })),
    );
    const rejected = judged.filter(({ outcome }) => outcome.kind === "rejected");
    // Each kind of change that was rejected, once: a byte, a cut, a swap, a doubled or dropped line.
    const kinds = [...new Map(rejected.map((entry) => [entry.mutant.change.split(" ")[0], entry] as const)).values()];
    expect(kinds.length).toBeGreaterThan(1);
    for (const [index, { mutant, outcome }] of kinds.entries()) {
      const bad = join(work, `stdio-${index}.ndjson`);
      await writeFile(bad, mutant.text);
      const run = await replayAgent(["stdio", "--transcript", bad]);
      expect([run.exitCode, run.stdout]).toEqual([2, ""]);
      expect(run.stderr).toContain(outcome.kind === "rejected" ? outcome.message.replace(`${file}:`, `${bad}:`) : "?");
    }
  });
});

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as Effect from "effect/Effect";
import { parseCommand, type DemoOptions, type OutputOptions } from "../options/index.ts";
import {
  BrokenBug,
  createDemoSandbox,
  defaultBugId,
  findBug,
  listBugs,
  NoZoo,
  proofArguments,
  SandboxFailed,
  UnknownBug,
  type DemoSandbox,
  type ZooBug,
} from "../demo/index.ts";
import type { Interrupted } from "../errors.ts";
import { Progress } from "../progress/progress.ts";
import { afterReport, printRan, runWithServices, withSignals } from "../engine/terminal.ts";
import { secrets, writeErr, writeOut } from "../progress/output.ts";
import { packageRoot } from "../package-root.ts";
import { demoTable, type DemoRow } from "./demo-table.ts";
import { proofPresenter } from "./prove.ts";
import { ownedPrefix } from "../workspace/run-dir.ts";
import type { Replacement } from "../report/redact.ts";
import type { Ran } from "../engine/run.ts";
import type { ProofReport } from "../report/schema.ts";
import { proveScenario } from "./prove.ts";

export interface DemoInput {
  /** The checkout holding the zoo, the scenarios and their config (this package's root). */
  readonly zooRoot: string;
  /** The invoking checkout: the report goes under its reports/ unless `out` says otherwise. */
  readonly cwd: string;
  /** The proof's output options, as for any proof; `out` is this bug's report folder. */
  readonly output: OutputOptions;
  readonly secrets: ReadonlyArray<Replacement>;
  readonly interrupt: Effect.Effect<never, Interrupted>;
}

type DemoError = UnknownBug | BrokenBug | SandboxFailed;

const isDemoError = (error: unknown): error is DemoError =>
  error instanceof UnknownBug || error instanceof BrokenBug || error instanceof SandboxFailed;

/**
 * The bug's sandbox repository, removed when the scope closes. It is made inside a folder named
 * like a proof's run folder (`scenario-prover-<pid>.<start>-demo-…`), so if this process is killed the
 * next proof removes it with the other leftovers.
 */
const sandbox = (bug: ZooBug, zooRoot: string) =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: async () => {
        const holder = await mkdtemp(join(tmpdir(), ownedPrefix("demo-")));
        try {
          return { holder, sandbox: await createDemoSandbox({ bugId: bug.id, repoRoot: zooRoot, tempDir: holder }) };
        } catch (error) {
          await rm(holder, { recursive: true, force: true });
          throw error;
        }
      },
      catch: (error) => error,
    }).pipe(Effect.catch((error) => (isDemoError(error) ? Effect.fail(error) : Effect.die(error)))),
    (made) =>
      Effect.promise(async () => {
        await made.sandbox.dispose();
        await rm(made.holder, { recursive: true, force: true });
      }),
  );

/** The proof's options: the sandbox's command line read exactly as `prove-scenario` reads a user's, with the demo's output options. */
function proofOptions(made: DemoSandbox, output: OutputOptions) {
  const command = parseCommand(proofArguments(made));
  return command.kind === "prove"
    ? Effect.succeed({ ...command.options, ...output })
    : Effect.die(new Error(`the demo's arguments read as ${command.kind}`));
}

/** The demo's command line for the report, with `--repeat` when above 1, as a proof's command has it. */
const reproduceCommand = (bug: ZooBug, output: OutputOptions): string =>
  `pnpm prove-scenario demo ${bug.id}${output.repeat > 1 ? ` --repeat ${output.repeat}` : ""}`;

/**
 * `prove-scenario demo <id>`: builds the bug's sandbox (base: the fix reversed, head: the app as
 * shipped) and proves the fix in it with the pipeline of any proof. The sandbox is removed on
 * every way out; the report's reproduce command is the demo's, since the sandbox is gone.
 */
export const proveDemo = Effect.fn("Demo.prove")(
  function* (bug: ZooBug, input: DemoInput) {
    const progress = yield* Progress;
    const made = yield* progress.step({ step: "sandbox", detail: bug.id }, Effect.raceFirst(sandbox(bug, input.zooRoot), input.interrupt));
    const options = yield* proofOptions(made.sandbox, input.output);
    return yield* proveScenario(options, input.cwd, input.secrets, input.interrupt, reproduceCommand(bug, input.output));
  },
  Effect.scoped,
  Effect.catch((error: DemoError | Interrupted) =>
    Effect.succeed<Ran<ProofReport>>({ exitCode: 2, report: undefined, reportFile: undefined, message: error.message }),
  ),
);

/** This package's root: the zoo, its scenarios and their config, wherever prove-scenario is run from. */
const zooRoot = packageRoot;

/** The bugs `demo` proves: every one for "all", else the one named (the default when none is). */
async function demoBugs(bugId: string | undefined): Promise<ReadonlyArray<ZooBug> | undefined> {
  try {
    return bugId === "all" ? await listBugs(zooRoot) : [await findBug(zooRoot, bugId ?? defaultBugId)];
  } catch (error) {
    if (!(error instanceof UnknownBug || error instanceof BrokenBug || error instanceof NoZoo)) throw error;
    writeErr(error.message);
    return undefined;
  }
}

/**
 * `demo [<bug-id>|all]`: proves each bug's fix in its own sandbox, one after the other, with the
 * output options of any proof; for "all" prints a table of the verdicts (on stderr with --json,
 * which prints the report, or for "all" the array of reports). Exits 0 only when every fix was
 * proved, else with the worst code.
 */
export async function demo(options: DemoOptions, cwd: string): Promise<number> {
  const bugs = await demoBugs(options.bugId);
  if (bugs === undefined) return 2;
  const all = options.bugId === "all";
  const rows: DemoRow[] = [];
  const ran = await withSignals(async (signals) => {
    for (const bug of bugs) {
      if (all) writeErr(`demo ${bug.id}: ${bug.title}`);
      const out = options.out === undefined ? undefined : all ? join(options.out, bug.id) : options.out;
      const started = performance.now();
      const output = { ...options, out };
      const result = await runWithServices(proveDemo(bug, { zooRoot, cwd, output, secrets, interrupt: signals.interrupt }));
      printRan(result, proofPresenter);
      const exitCode =
        options.publish === undefined
          ? result.exitCode
          : await afterReport(result, proofPresenter, options.publish, cwd, signals.interrupt);
      rows.push({
        bug: bug.id,
        result: { ...result, exitCode: exitCode === 0 ? 0 : exitCode === 1 ? 1 : 2 },
        durationMs: performance.now() - started,
      });
      if (signals.interrupted()) break;
    }
    return 0;
  });
  if (ran !== 0) return ran;
  if (all && options.json) writeErr(demoTable(rows));
  else if (all) await writeOut(`${demoTable(rows)}\n`);
  if (options.json) {
    const reports = rows.flatMap((row) => (row.result.report === undefined ? [] : [row.result.report]));
    await writeOut(`${JSON.stringify(all ? reports : (reports[0] ?? null), null, 2)}\n`);
  }
  return rows.length < bugs.length ? 2 : Math.max(0, ...rows.map((row) => row.result.exitCode));
}

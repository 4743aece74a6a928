import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as Effect from "effect/Effect";
import { parseCommand, type OutputOptions } from "../cli/args.ts";
import { BrokenBug, createDemoSandbox, proofArguments, SandboxFailed, UnknownBug, type DemoSandbox, type ZooBug } from "../demo/index.ts";
import type { Interrupted } from "../errors.ts";
import { Progress } from "../progress/progress.ts";
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

import { Cause, Deferred, Effect, Exit } from "effect";
import { formatServeSummary, formatTranscriptSummary } from "./cli/format.ts";
import { parseCommand, usage } from "./cli/parse-args.ts";
import { UsageError } from "./errors.ts";
import { readTranscript } from "./read-transcript.ts";
import { serveTranscript } from "./serve-transcript.ts";
import { summarizeTranscript } from "./transcript/summary.ts";

const print = (text: string) => Effect.sync(() => process.stdout.write(`${text}\n`));

/** Listens for SIGINT and SIGTERM for the rest of the scope; the deferred completes on the first one. */
const stopSignal = Effect.gen(function* () {
  const stopped = yield* Deferred.make<void>();
  const stop = () => Deferred.doneUnsafe(stopped, Exit.void);
  yield* Effect.acquireRelease(
    Effect.sync(() => {
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
    }),
    () =>
      Effect.sync(() => {
        process.off("SIGINT", stop);
        process.off("SIGTERM", stop);
      }),
  );
  return stopped;
});

const check = (file: string) =>
  readTranscript(file).pipe(
    Effect.flatMap((transcript) => print(formatTranscriptSummary(file, summarizeTranscript(transcript)))),
    Effect.as(0),
  );

const serve = (file: string, port: number) =>
  Effect.scoped(
    Effect.gen(function* () {
      const transcript = yield* readTranscript(file);
      const served = yield* serveTranscript(transcript, { port });
      const stopped = yield* stopSignal;
      yield* print(`replay-agent listening on ${served.url}`);
      yield* Deferred.await(stopped);
      const status = yield* served.runtime.status;
      yield* print(formatServeSummary(status));
      return status.remaining === 0 && status.mismatches.length === 0 ? 0 : 1;
    }),
  );

/** Runs the replay-agent CLI on `argv` (without node and script) and resolves with its exit code. */
export const main = async (argv: ReadonlyArray<string>): Promise<number> => {
  const command = parseCommand(argv);
  if (command instanceof UsageError) {
    process.stderr.write(`replay-agent: ${command.message}\n\n${usage}\n`);
    return 2;
  }
  if (command.command === "help") {
    process.stdout.write(`${usage}\n`);
    return 0;
  }
  const program = command.command === "check" ? check(command.transcript) : serve(command.transcript, command.port);
  const exit = await Effect.runPromiseExit(program);
  if (Exit.isSuccess(exit)) return exit.value;
  const error = Cause.squash(exit.cause);
  process.stderr.write(`replay-agent: ${error instanceof Error ? error.message : String(error)}\n`);
  return 2;
};

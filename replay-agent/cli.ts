import * as Cause from "effect/Cause";
import * as Deferred from "effect/Deferred";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import {
  describeHttpRequest,
  describeMessage,
  formatRecordSummary,
  formatServeSummary,
  formatTranscriptSummary,
  fullyPlayed,
} from "./cli/format.ts";
import { parseCommand, usage, type Command } from "./cli/parse-args.ts";
import { UsageError } from "./errors.ts";
import { newTranscript, writeNewTranscript } from "./new/new-transcript.ts";
import { quoteArgs } from "./new/quote-args.ts";
import { readTranscript } from "./read-transcript.ts";
import { recordProxy } from "./record/record-proxy.ts";
import { checkProblem, formatStdioRecordSummary, recordStdio as recordStdioAgent } from "./record/record-stdio.ts";
import { formatWebSocketRecordSummary, recordWebSocket } from "./record/record-websocket.ts";
import { serveTranscript } from "./serve-transcript.ts";
import { reportStatus } from "./stdio/report-status.ts";
import { serveStdio } from "./stdio/serve-stdio.ts";
import { summarizeTranscript } from "./transcript/summary.ts";

const print = (text: string) => Effect.sync(() => process.stdout.write(`${text}\n`));
const log = (text: string) => {
  process.stderr.write(`${text}\n`);
};

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
      yield* print(formatServeSummary(status, describeHttpRequest));
      return fullyPlayed(status) ? 0 : 1;
    }),
  );

/** stdout is the protocol, so everything a person reads goes to stderr. */
const stdio = ({ transcript: file, controlPort, notify, args }: Extract<Command, { command: "stdio" }>) =>
  Effect.scoped(
    Effect.gen(function* () {
      const transcript = yield* readTranscript(file);
      const stopped = yield* stopSignal;
      const served = yield* serveStdio(transcript, { input: process.stdin, output: process.stdout, controlPort, args, log });
      log(`replay-agent control on ${served.controlUrl}`);
      if (notify !== undefined) yield* reportStatus(notify, served.controlUrl, served.runtime, log);
      const end = yield* Effect.raceFirst(
        Deferred.await(served.ended),
        Deferred.await(stopped).pipe(Effect.as({ reason: "stopped" } as const)),
      );
      const status = yield* served.runtime.status;
      log(formatServeSummary(status, describeMessage));
      if (end.reason === "exit") return end.code;
      return fullyPlayed(status) ? 0 : 1;
    }),
  ).pipe(Effect.ensuring(Effect.sync(() => process.stdin.destroy())));

const record = (command: Extract<Command, { command: "record"; transport: "http" }>) =>
  Effect.gen(function* () {
    const recorder = yield* Effect.scoped(
      Effect.gen(function* () {
        const stopped = yield* stopSignal;
        const proxy = yield* recordProxy({ ...command, env: process.env, log });
        yield* print(`replay-agent recording on ${proxy.url}`);
        yield* Deferred.await(stopped);
        return proxy;
      }),
    );
    yield* print(formatRecordSummary(command.out, recorder.counts()));
    return 0;
  });

/** Records a WebSocket provider's sessions until stopped; says so when the recording does not pass `check` yet. */
const recordSessions = (command: Extract<Command, { command: "record"; transport: "websocket" }>) =>
  Effect.gen(function* () {
    const recorder = yield* Effect.scoped(
      Effect.gen(function* () {
        const stopped = yield* stopSignal;
        const sessions = yield* recordWebSocket({ ...command, env: process.env, log });
        yield* print(`replay-agent recording on ${sessions.url}`);
        yield* Deferred.await(stopped);
        return sessions;
      }),
    );
    const counts = recorder.counts();
    yield* print(formatWebSocketRecordSummary(command.out, counts));
    const problem = counts.connections === 0 ? undefined : checkProblem(command.out);
    if (problem !== undefined) log(`replay-agent: ${command.out} does not pass replay-agent check yet. Edit it so it does:\n${problem}`);
    return 0;
  });

/** The signals that stop a stdio recording, each passed on to the agent. */
const stopSignals = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/**
 * Records a stdio agent on stdin and stdout (the protocol), so everything a person reads goes to
 * stderr. Ends as the agent does: with its exit code, or killed by the signal that killed it.
 */
const recordStdio = (command: Extract<Command, { command: "record"; transport: "stdio" }>) =>
  Effect.gen(function* () {
    const { recording, exit } = yield* Effect.scoped(
      Effect.gen(function* () {
        const recording = yield* recordStdioAgent({ ...command, input: process.stdin, output: process.stdout, env: process.env, log });
        yield* Effect.acquireRelease(
          Effect.sync(() => stopSignals.forEach((signal) => process.on(signal, recording.stop))),
          () => Effect.sync(() => stopSignals.forEach((signal) => process.off(signal, recording.stop))),
        );
        return { recording, exit: yield* Deferred.await(recording.ended) };
      }),
    );
    log(formatStdioRecordSummary(command.out, recording.counts(), exit));
    if (exit.signal !== null) process.kill(process.pid, exit.signal);
    return exit.code;
  }).pipe(Effect.ensuring(Effect.sync(() => process.stdin.destroy())));

/** Prints the new transcript, or writes it to a new --out file and prints what `check` would. */
const writeNew = (command: Extract<Command, { command: "new" }>) =>
  Effect.gen(function* () {
    const made = yield* newTranscript(command.source, `replay-agent new ${quoteArgs(command.args)}`, command.out ?? "the new transcript");
    if (command.out === undefined) {
      yield* Effect.sync(() => process.stdout.write(made.text));
      return 0;
    }
    yield* writeNewTranscript(command.out, made.text);
    yield* print(formatTranscriptSummary(command.out, summarizeTranscript(made.transcript)));
    return 0;
  });

const run = (command: Exclude<Command, { command: "help" }>): Effect.Effect<number, unknown> => {
  switch (command.command) {
    case "check":
      return check(command.transcript);
    case "serve":
      return serve(command.transcript, command.port);
    case "stdio":
      return stdio(command);
    case "record":
      if (command.transport === "http") return record(command);
      return command.transport === "websocket" ? recordSessions(command) : recordStdio(command);
    case "new":
      return writeNew(command);
  }
};

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
  const exit = await Effect.runPromiseExit(run(command));
  if (Exit.isSuccess(exit)) return exit.value;
  const error = Cause.squash(exit.cause);
  process.stderr.write(`replay-agent: ${error instanceof Error ? error.message : String(error)}\n`);
  return 2;
};

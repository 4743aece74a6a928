import type { IncomingMessage, ServerResponse } from "node:http";
import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import * as Deferred from "effect/Deferred";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import * as FiberSet from "effect/FiberSet";
import { identity } from "effect/Function";
import type * as Scope from "effect/Scope";
import type { ListenError, WrongTransportError } from "../errors.ts";
import { controlPrefix, handleControl } from "../http/control.ts";
import { listenHttp } from "../http/listen.ts";
import { nodeResponseWriter } from "../http/node-response.ts";
import type { StdioProviderFormat } from "../providers/provider-format.ts";
import { stdioFormatFor } from "../providers/registry.ts";
import { makeReplayRuntime } from "../runtime/make-replay-runtime.ts";
import type { ReplayRuntime } from "../runtime/replay-runtime.ts";
import type { AnswerRun, ResponseSink } from "../runtime/response-sink.ts";
import type { AnswerEntry, Transcript } from "../transcript/transcript.ts";
import { writeJsonResponse } from "../wire/json.ts";
import { writeNdjsonLine } from "../wire/ndjson.ts";

/** Why a stdio agent stopped: the transcript played an exit line, the app closed stdin, or it started the agent with arguments the transcript does not expect. */
export type StdioEnd =
  { readonly reason: "exit"; readonly code: number } | { readonly reason: "input-closed" } | { readonly reason: "spawn-mismatch" };

/** A transcript served as a stdio agent until its scope closes. */
export interface ServedStdio {
  /** The control routes (status, paused, resume), "http://127.0.0.1:<port>". */
  readonly controlUrl: string;
  readonly runtime: ReplayRuntime<unknown>;
  /** Completes when the agent stops talking. */
  readonly ended: Deferred.Deferred<StdioEnd>;
}

/**
 * Writes the agent's messages as NDJSON lines, each as `written` makes it. An exit line ends the agent when its answer
 * ends, once the runtime has counted it played, so the last status shows the whole transcript.
 */
const stdioSink = (output: Writable, ended: Deferred.Deferred<StdioEnd>, written: (frame: unknown) => unknown = identity): ResponseSink => {
  let exitCode: number | undefined;
  const sendLine = (entry: AnswerEntry): Effect.Effect<void> => {
    switch (entry.type) {
      case "emit_inbound":
        return writeNdjsonLine(output, written(entry.message));
      case "exit":
        return Effect.sync(() => {
          exitCode = entry.code;
        });
      default:
        return Effect.void;
    }
  };
  return {
    send: (run) => Effect.forEach(run, (piece) => sendLine(piece.entry), { discard: true }),
    end: Effect.suspend(() =>
      exitCode === undefined ? Effect.void : Deferred.succeed(ended, { reason: "exit", code: exitCode }).pipe(Effect.asVoid),
    ),
  };
};

/** Parses one line the app sent: its JSON, or the raw text when it is not JSON. */
export const parseMessage = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

/** Serves one message: the next exchange of the transcript, or the protocol's answer to a message it did not expect. */
const serveMessage =
  (
    runtime: ReplayRuntime<unknown, AnswerRun>,
    format: StdioProviderFormat,
    ended: Deferred.Deferred<StdioEnd>,
    output: Writable,
    log: (line: string) => void,
  ) =>
  (message: unknown): Effect.Effect<void> => {
    const { echo } = format;
    const sink = stdioSink(output, ended, echo === undefined ? identity : (frame) => echo(message, frame));
    return runtime.serve(message, sink).pipe(
      Effect.catchTag("ReplayMismatchError", (error) => {
        log(`replay-agent: the app sent a message the transcript did not expect: ${error.message}`);
        const answer = format.answerMismatch(message, error);
        return answer === undefined ? Effect.void : writeNdjsonLine(output, answer);
      }),
    );
  };

/** Serves each line the app writes as a message, until the agent has stopped; the agent ends when the app closes its stdin. */
const readLines = (input: Readable, serve: (message: unknown) => void, ended: Deferred.Deferred<StdioEnd>) => {
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  lines.on("line", (line) => {
    if (line.trim() !== "" && !Deferred.isDoneUnsafe(ended)) serve(parseMessage(line));
  });
  lines.on("close", () => Deferred.doneUnsafe(ended, Exit.succeed({ reason: "input-closed" })));
  return () => lines.close();
};

/** Serves all the app writes, once it closes stdin, as one text message; the agent ends when its answer has played. */
const readPrompt = (
  input: Readable,
  serve: (message: unknown) => Effect.Effect<void>,
  run: (effect: Effect.Effect<void>) => void,
  ended: Deferred.Deferred<StdioEnd>,
) => {
  const chunks: Array<Buffer> = [];
  const onData = (chunk: Buffer) => chunks.push(chunk);
  const onEnd = () =>
    run(
      serve(Buffer.concat(chunks).toString("utf8")).pipe(
        Effect.andThen(Deferred.succeed(ended, { reason: "input-closed" })),
        Effect.asVoid,
      ),
    );
  input.on("data", onData);
  input.once("end", onEnd);
  return () => {
    input.off("data", onData);
    input.off("end", onEnd);
  };
};

const controlOnly =
  (runtime: ReplayRuntime<unknown>) =>
  (request: IncomingMessage, response: ServerResponse): Effect.Effect<void> => {
    const path = request.url ?? "/";
    const writer = nodeResponseWriter(response);
    if (path.startsWith(controlPrefix)) return handleControl(runtime, request.method ?? "GET", path, writer);
    return Effect.sync(() =>
      writeJsonResponse(writer, 404, {
        error: {
          type: "replay_unknown_control_route",
          message: `a stdio agent speaks on stdin/stdout; this port only serves ${controlPrefix} routes`,
        },
      }),
    );
  };

/**
 * Matches the arguments the app started the agent with against the transcript's `spawn` line, if
 * it has one, and plays what follows it; on a mismatch the agent says why and stops.
 */
const serveSpawn = (
  runtime: ReplayRuntime<unknown, AnswerRun>,
  args: ReadonlyArray<string>,
  sink: ResponseSink,
  ended: Deferred.Deferred<StdioEnd>,
  log: (line: string) => void,
): Effect.Effect<void> =>
  runtime.serveSpawn({ spawn: { args } }, sink).pipe(
    Effect.catchTag("ReplayMismatchError", (error) =>
      Effect.sync(() => {
        const line = error.expectedLine === null ? "" : `:${error.expectedLine}`;
        log(
          `replay-agent: the app started the agent with arguments ${error.file}${line} does not expect, so it exits. ` +
            `Change the app or the transcript's spawn line so they agree:\n${error.diff}\n  the arguments: ${JSON.stringify(args)}`,
        );
        Deferred.doneUnsafe(ended, Exit.succeed({ reason: "spawn-mismatch" }));
      }),
    ),
  );

/**
 * Serves `transcript` as a stdio agent speaking newline-delimited JSON on `input` and `output`,
 * with its control routes on 127.0.0.1:`controlPort` (0 or absent picks a free port). `args` (the
 * arguments the app started it with, none by default) are matched first against the transcript's
 * `spawn` line, if it has one. Each line the app writes (or, for a provider that reads a prompt,
 * all it writes) is matched against the next expect_outbound; the lines before the first one are
 * written at once; once the agent has stopped, lines are ignored. `log` receives what a person
 * should read (stderr for the CLI).
 */
export const serveStdio = Effect.fn("serveStdio")(function* (
  transcript: Transcript,
  options: {
    readonly input: Readable;
    readonly output: Writable;
    readonly controlPort?: number | undefined;
    readonly args?: ReadonlyArray<string> | undefined;
    readonly log: (line: string) => void;
  },
): Effect.fn.Return<ServedStdio, ListenError | WrongTransportError, Scope.Scope> {
  const format = yield* stdioFormatFor(transcript);
  const runtime = yield* makeReplayRuntime<unknown, AnswerRun>(transcript, identity);
  const ended = yield* Deferred.make<StdioEnd>();
  const { port } = yield* listenHttp(options.controlPort ?? 0, controlOnly(runtime));
  const { input, output, log } = options;
  const sink = stdioSink(output, ended);
  const fibers = yield* FiberSet.make<void, never>();
  const run = yield* FiberSet.runtime(fibers)<never>();
  const serve = serveMessage(runtime, format, ended, output, log);
  const reportWriteError = (error: Error) => log(`replay-agent: cannot write to the app: ${error.message}`);
  // Claimed at once, before any line can arrive: messages never match before the arguments did.
  run(serveSpawn(runtime, options.args ?? [], sink, ended, log));
  yield* Effect.acquireRelease(
    Effect.sync(() => {
      output.on("error", reportWriteError);
      return format.stdin === "prompt" ? readPrompt(input, serve, run, ended) : readLines(input, (message) => run(serve(message)), ended);
    }),
    (stopReading) =>
      Effect.sync(() => {
        stopReading();
        output.off("error", reportWriteError);
      }),
  );
  run(runtime.serveOpening(sink));
  return { controlUrl: `http://127.0.0.1:${port}`, runtime, ended };
});

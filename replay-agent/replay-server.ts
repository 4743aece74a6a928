import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import * as Scope from "effect/Scope";
import { readTranscript } from "./read-transcript.ts";
import { serveTranscript } from "./serve-transcript.ts";
import type { Transcript } from "./transcript/transcript.ts";
import { noTurns, TurnLoopBetweenWrites, turnsEvery } from "./wire/turn-loop.ts";

/** A request the transcript did not expect, with the expectation it was held against. */
export interface ReplayMismatch {
  readonly request: { method: string; path: string; body: unknown };
  readonly expectedLine: number | null;
  readonly expected: unknown;
  readonly diff: string;
  /** When it came, in epoch milliseconds. */
  readonly at: number;
}

/**
 * Progress through the transcript: `played` counts the lines after meta played at least once,
 * `remaining` the lines that must still play; `held` lists every pause held now, `paused` the first.
 */
export interface ReplayStatus {
  readonly played: number;
  readonly remaining: number;
  readonly paused: string | null;
  readonly held: ReadonlyArray<{ readonly name: string; readonly line: number }>;
  readonly mismatches: ReadonlyArray<ReplayMismatch>;
  /** The next unplayed entry, e.g. summary "expect_outbound POST /v1/chat/completions". */
  readonly next: { readonly line: number; readonly type: string; readonly summary: string } | null;
}

/** A request the app sent, whether it matched, the expect_outbound line it matched (null if none), and when it came (epoch ms). */
export interface ReplayRequest {
  readonly method: string;
  readonly path: string;
  readonly body: unknown;
  readonly matched: boolean;
  readonly line: number | null;
  readonly at: number;
}

/** A replay agent serving one transcript over HTTP on 127.0.0.1. */
export interface ReplayServer {
  /** "http://127.0.0.1:<port>" */
  readonly url: string;
  status(): ReplayStatus;
  /** Every request the app sent, in order. */
  requests(): ReadonlyArray<ReplayRequest>;
  /** Resolves when the transcript is held at pause `name` (at once if held there now); rejects if it never will be. */
  paused(name: string): Promise<void>;
  /** Resumes the pause held (the one called `name` when several are); throws if none is held. */
  resume(name?: string): void;
  /** Stops serving and ends open streams. */
  close(): Promise<void>;
}

/** Loads and validates a transcript file; rejects with an error naming the line. */
export const loadTranscript = (path: string): Promise<Transcript> => Effect.runPromise(readTranscript(path));

/** Loads `transcript` (a file path) and serves it until `close()`; rejects with the loader's line-numbered error. */
export const startReplayServer = async (options: {
  readonly transcript: string;
  readonly port?: number;
  /**
   * Let the event loop turn after a write once this many ms have passed since the last turn (0: after
   * every write), so that a proxy in this process, such as the harness's route, forwards frames
   * written back to back as they come (TurnLoopBetweenWrites). Unset: no turns.
   */
  readonly turnLoopEveryMs?: number;
}): Promise<ReplayServer> => {
  const scope = Effect.runSync(Scope.make());
  const close = () => Effect.runPromise(Scope.close(scope, Exit.void));
  const served = await Effect.runPromise(
    readTranscript(options.transcript).pipe(
      Effect.flatMap((transcript) => serveTranscript(transcript, { port: options.port })),
      Effect.provideService(TurnLoopBetweenWrites, options.turnLoopEveryMs === undefined ? noTurns : turnsEvery(options.turnLoopEveryMs)),
      Scope.provide(scope),
    ),
  ).catch(async (error: unknown) => {
    await close();
    throw error;
  });
  const { runtime } = served;
  return {
    url: served.url,
    status: () => Effect.runSync(runtime.status),
    requests: () => Effect.runSync(runtime.requests).map(({ request, matched, line, at }) => ({ ...request, matched, line, at })),
    paused: (name) => Effect.runPromise(Effect.asVoid(runtime.awaitPause(name))),
    resume: (name) => {
      Effect.runSync(runtime.resume(name));
    },
    close,
  };
};

import type { IncomingMessage, ServerResponse } from "node:http";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import * as Deferred from "effect/Deferred";
import * as Duration from "effect/Duration";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import { identity } from "effect/Function";
import * as Predicate from "effect/Predicate";
import * as Scope from "effect/Scope";
import { NotPausedError, PauseNotReachedError, PeerNotRunningError } from "./errors.ts";
import { listenHttp } from "./http/listen.ts";
import { stdioFormatFor } from "./providers/registry.ts";
import { readTranscript } from "./read-transcript.ts";
import { makeReplayRuntime } from "./runtime/make-replay-runtime.ts";
import type { RuntimeStatus } from "./runtime/replay-runtime.ts";
import type { AnswerRun } from "./runtime/response-sink.ts";
import { shellQuote, writeLauncher } from "./stdio/launcher.ts";
import type { StatusReport } from "./stdio/report-status.ts";
import { isStdioProvider, type StdioProvider } from "./transcript/providers.ts";

/** Progress of a stdio peer's transcript; a mismatch holds the message the app sent. */
export interface StdioPeerStatus {
  readonly played: number;
  readonly remaining: number;
  readonly paused: string | null;
  readonly held: ReadonlyArray<{ readonly name: string; readonly line: number }>;
  readonly mismatches: ReadonlyArray<{
    readonly message: unknown;
    readonly expectedLine: number | null;
    readonly expected: unknown;
    readonly diff: string;
    readonly at: number;
  }>;
  readonly next: { readonly line: number; readonly type: string; readonly summary: string } | null;
}

/** A message the app sent the peer, whether it matched, the expect_outbound line it matched (null if none), and when (epoch ms). */
export interface StdioPeerMessage {
  readonly message: unknown;
  readonly matched: boolean;
  readonly line: number | null;
  readonly at: number;
}

/** A replay agent the app spawns as a child process, and the handle the scenario drives it with. */
export interface StdioPeer {
  /**
   * The argv that starts the peer (node, the replay-agent bin, `stdio --transcript <abs> --notify <url> --`): hand it
   * to the app. It ends with `--`, so arguments the app appends are the agent's, matched against a `spawn` line.
   */
  readonly command: ReadonlyArray<string>;
  /** `command` quoted for a POSIX shell, for apps that take their agent command as one string. */
  readonly commandLine: string;
  /**
   * A launcher script that runs `command` with the arguments it is given, for apps that take their agent's
   * binary as a path (the Agent SDK's `pathToClaudeCodeExecutable`). It is named as the agent's own command
   * (`claude`, `codex`, or `agent` for jsonrpc-stdio, unless `executableName` says otherwise) and alone in a
   * temporary folder, so that folder can go first on PATH. Removed by `close()`. A POSIX shell script.
   */
  readonly executable: string;
  /** The last status the peer reported; the unplayed transcript until the app starts it. */
  status(): StdioPeerStatus;
  /** Every message the app sent, in order, as last reported. */
  requests(): ReadonlyArray<StdioPeerMessage>;
  /** Resolves when the peer holds at pause `name` (and `status()` shows it), waiting for the app to start it; rejects if it never will hold there. */
  paused(name: string): Promise<void>;
  /** Resumes the pause the peer holds at (the one called `name` when several are held), once `status()` shows it released; rejects if none is held or the peer is not running. */
  resume(name?: string): Promise<void>;
  /** Waits briefly for a started peer's last report (it exits when the app closes its stdin or is killed), then stops listening. */
  close(): Promise<void>;
}

/** The command an app runs each stdio agent by: the launcher's default name. */
const agentCommandNames: { readonly [P in StdioProvider]: string } = {
  "jsonrpc-stdio": "agent",
  "codex-app-server": "codex",
  "codex-exec": "codex",
  "claude-code": "claude",
};

// The package's bin: one folder up from the source (replay-agent/), two from a bundle (dist/bin/, dist/lib/).
const bin = fileURLToPath(
  new URL(import.meta.url.endsWith(".ts") ? "../bin/replay-agent.mjs" : "../../bin/replay-agent.mjs", import.meta.url),
);

/** How long close() waits for a running peer to report its end. */
const lastReportGrace = Duration.seconds(5);

const toPeerStatus = (status: RuntimeStatus<unknown>): StdioPeerStatus => ({
  ...status,
  mismatches: status.mismatches.map(({ request, ...mismatch }) => ({ message: request, ...mismatch })),
});

/** The body of a control route's JSON answer, whatever it holds. */
const controlCall = (url: string, method: "GET" | "POST") =>
  Effect.tryPromise({
    try: async (signal) => {
      const response = await fetch(url, { method, signal });
      const body: unknown = await response.json();
      return { status: response.status, body };
    },
    catch: (error) => (error instanceof Error ? error.message : String(error)),
  });

const errorField = (body: unknown, field: string): string | undefined => {
  const error = Predicate.isObject(body) ? body["error"] : undefined;
  const value = Predicate.isObject(error) ? error[field] : undefined;
  return typeof value === "string" ? value : undefined;
};

/**
 * Prepares a stdio replay agent for an app that spawns its agent CLI: validates `transcript`
 * (a stdio provider's transcript; rejects naming the line), listens on 127.0.0.1 for the
 * peer's reports and writes its launcher (`executableName`: the launcher's file name). The app
 * starts the peer with `command` or `executable`; the peer reports its control URL and every
 * status change, so `status()` stays current even after it exits, and `paused` and `resume`
 * reach it through its control routes.
 */
export const startStdioPeer = async (options: { readonly transcript: string; readonly executableName?: string }): Promise<StdioPeer> => {
  const scope = Effect.runSync(Scope.make());
  const close = () => Effect.runPromise(Scope.close(scope, Exit.void));
  const file = resolve(options.transcript);
  const started = await Effect.runPromise(
    Effect.gen(function* () {
      const transcript = yield* readTranscript(file);
      yield* stdioFormatFor(transcript);
      const unplayed = yield* makeReplayRuntime<unknown, AnswerRun>(transcript, identity);
      let status = toPeerStatus(yield* unplayed.status);
      let requests: ReadonlyArray<StdioPeerMessage> = [];
      const control = yield* Deferred.make<string>();
      let reporting: Deferred.Deferred<void> | undefined;
      let changed = Deferred.makeUnsafe<void>();
      /** Wakes whoever waits for the mirrored status to move. */
      const moved = () => {
        const previous = changed;
        changed = Deferred.makeUnsafe<void>();
        Deferred.doneUnsafe(previous, Exit.void);
      };
      const apply = (line: string) => {
        if (line.trim() === "") return;
        const report = JSON.parse(line) as StatusReport;
        if ("control" in report) Deferred.doneUnsafe(control, Exit.succeed(report.control));
        else {
          status = toPeerStatus(report.status);
          requests = report.requests.map(({ request, matched, line: matchedLine, at }) => ({
            message: request,
            matched,
            line: matchedLine,
            at,
          }));
        }
        moved();
      };
      /** Waits until the mirrored status satisfies `reached`, or the peer stops reporting. */
      const mirrored = (reached: (status: StdioPeerStatus) => boolean): Effect.Effect<void> =>
        Effect.suspend(() => {
          const stopped = reporting !== undefined && Deferred.isDoneUnsafe(reporting);
          return reached(status) || stopped ? Effect.void : Deferred.await(changed).pipe(Effect.andThen(mirrored(reached)));
        });
      const receive = (request: IncomingMessage, response: ServerResponse) =>
        Effect.callback<void>((resume) => {
          const done = Deferred.makeUnsafe<void>();
          reporting = done;
          let buffer = "";
          request.setEncoding("utf8");
          request.on("data", (chunk: string) => {
            buffer += chunk;
            const lines = buffer.split("\n");
            buffer = lines.pop() ?? "";
            lines.forEach(apply);
          });
          let finished = false;
          const finish = () => {
            if (finished) return;
            finished = true;
            apply(buffer);
            response.writeHead(200).end();
            Deferred.doneUnsafe(done, Exit.void);
            moved();
            resume(Effect.void);
          };
          request.once("end", finish);
          request.once("error", finish);
        });
      const { port } = yield* listenHttp(0, receive);
      const command = [process.execPath, bin, "stdio", "--transcript", file, "--notify", `http://127.0.0.1:${port}/`, "--"];
      const provider = transcript.meta.provider;
      const name = options.executableName ?? (isStdioProvider(provider) ? agentCommandNames[provider] : "agent");
      const executable = yield* writeLauncher(name, command);
      return {
        transcript,
        unplayed,
        control,
        command,
        executable,
        status: () => status,
        requests: () => requests,
        reporting: () => reporting,
        mirrored,
      };
    }).pipe(Scope.provide(scope)),
  ).catch(async (error: unknown) => {
    await close();
    throw error;
  });

  const { command } = started;
  const describeNext = () => {
    const next = started.status().next;
    return next === null ? "the end of the transcript" : `line ${next.line} (${next.summary})`;
  };

  const heldCount = (status: StdioPeerStatus, name: string) => status.held.filter((pause) => pause.name === name).length;
  /** The mirrored status shows pause `name` held, once the peer's report of it arrives. */
  const holding = (name: string) => (status: StdioPeerStatus) => heldCount(status, name) > 0;

  const nameOf = (body: unknown): string => (Predicate.isObject(body) && typeof body["resumed"] === "string" ? body["resumed"] : "");

  const awaitRemotePause = (name: string) =>
    Deferred.await(started.control).pipe(
      Effect.flatMap((url) => controlCall(`${url}/__replay/paused?name=${encodeURIComponent(name)}`, "GET")),
      Effect.mapError(
        () => new PauseNotReachedError({ name, reason: `the stdio peer exited while the transcript was at ${describeNext()}` }),
      ),
      Effect.flatMap(({ status, body }) =>
        status === 200
          ? started.mirrored(holding(name))
          : Effect.fail(
              new PauseNotReachedError({ name, reason: errorField(body, "reason") ?? errorField(body, "message") ?? `status ${status}` }),
            ),
      ),
    );

  const resume = Effect.fn("StdioPeer.resume")(function* (name?: string) {
    const url = Deferred.isDoneUnsafe(started.control) ? yield* Deferred.await(started.control) : undefined;
    if (url === undefined)
      return yield* new PeerNotRunningError({ operation: "resume()", detail: "the app has not started the stdio peer yet" });
    const before = started.status();
    const query = name === undefined ? "" : `?name=${encodeURIComponent(name)}`;
    const answer = yield* controlCall(`${url}/__replay/resume${query}`, "POST").pipe(
      Effect.mapError((detail) => new PeerNotRunningError({ operation: "resume()", detail: `the stdio peer is gone (${detail})` })),
    );
    if (answer.status !== 200) {
      const held = before.held.map((pause) => `"${pause.name}" (line ${pause.line})`);
      return yield* new NotPausedError({
        next: errorField(answer.body, "next") ?? describeNext(),
        ...(name === undefined ? {} : { pause: name }),
        held,
      });
    }
    // Released once the mirrored status holds that pause fewer times than before.
    const released = nameOf(answer.body);
    const count = heldCount(before, released);
    yield* started.mirrored((status) => heldCount(status, released) < count || count === 0);
  });

  return {
    command,
    commandLine: shellQuote(command),
    executable: started.executable,
    status: started.status,
    requests: started.requests,
    // A pause the transcript does not have fails at once on the unplayed runtime, before the app even starts the peer.
    paused: (name) => Effect.runPromise(Effect.raceFirst(Effect.asVoid(started.unplayed.awaitPause(name)), awaitRemotePause(name))),
    resume: (name) => Effect.runPromise(resume(name)),
    close: async () => {
      const reporting = started.reporting();
      if (reporting !== undefined) await Effect.runPromise(Deferred.await(reporting).pipe(Effect.timeoutOption(lastReportGrace)));
      await close();
    },
  };
};

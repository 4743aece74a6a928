import { spawn, type ChildProcessByStdio } from "node:child_process";
import { readFileSync } from "node:fs";
import { constants } from "node:os";
import type { Readable, Writable } from "node:stream";
import * as Cause from "effect/Cause";
import * as Deferred from "effect/Deferred";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import type * as Scope from "effect/Scope";
import { AgentStartError, type RecordOutputError } from "../errors.ts";
import { stdioFormats } from "../providers/registry.ts";
import { validateTranscript } from "../read-transcript.ts";
import { shellQuote } from "../stdio/launcher.ts";
import { parseMessage } from "../stdio/serve-stdio.ts";
import type { StdioProvider } from "../transcript/providers.ts";
import { answerOrder } from "./answer-order.ts";
import { recordedMeta } from "./meta-line.ts";
import { makeRedactor, secretValues } from "./redact.ts";
import { splitLines } from "./split-lines.ts";
import { stdioRecordingRules } from "./stdio-rules.ts";
import { delayLines, makeTimeline, now, type Timeline } from "./timeline.ts";
import { openTranscriptFile, type RecordedLine } from "./transcript-file.ts";

export interface StdioRecordOptions {
  readonly provider: StdioProvider;
  readonly out: string;
  /** The real agent's command and its own arguments. */
  readonly agent: ReadonlyArray<string>;
  /** The arguments the app started the recorder with: passed on after the agent's own, and recorded as the spawn line. */
  readonly args: ReadonlyArray<string>;
  /** What the app writes to its agent, and where the app reads the agent's output. */
  readonly input: Readable;
  readonly output: Writable;
  /** The environment the agent runs in; the values of its secret-looking variables are cut out of the recording. */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly log: (line: string) => void;
  /** Keep the time the agent took before each line as delay lines (false: --no-timing); default true. */
  readonly timing?: boolean;
}

/** How the agent ended, and how the recording did. */
export interface AgentExit {
  /** The agent's exit code; 128 + the signal's number when a signal ended it, as a shell reports it. */
  readonly code: number;
  readonly signal: NodeJS.Signals | null;
  /** Whether the recording ends with an exit line. */
  readonly exitLine: boolean;
}

/** A recording in progress, until the agent exits. */
export interface StdioRecording {
  /** Passes a signal the recorder received on to the agent; the recording ends when the agent has exited. */
  readonly stop: (signal: NodeJS.Signals) => void;
  readonly ended: Deferred.Deferred<AgentExit>;
  readonly counts: () => { readonly app: number; readonly agent: number };
}

type Agent = ChildProcessByStdio<Writable, Readable, null>;

/** The model the app asks for by `--model <m>`, `--model=<m>` or `-m <m>`, if it does. */
const modelArgument = (args: ReadonlyArray<string>): string | undefined => {
  for (const [index, arg] of args.entries()) {
    if (arg.startsWith("--model=")) return arg.slice("--model=".length);
    if (arg === "--model" || arg === "-m") return args[index + 1];
  }
  return undefined;
};

/** Starts the agent with its stdin and stdout piped (its stderr is the recorder's), once it has started. */
const startAgent = (command: ReadonlyArray<string>, env: Readonly<Record<string, string | undefined>>) =>
  Effect.acquireRelease(
    Effect.callback<Agent, AgentStartError>((resume) => {
      const [file = "", ...args] = command;
      const agent = spawn(file, args, { stdio: ["pipe", "pipe", "inherit"], env });
      const failed = (error: Error) => resume(Effect.fail(new AgentStartError({ command: shellQuote(command), detail: error.message })));
      agent.once("error", failed);
      agent.once("spawn", () => {
        agent.off("error", failed);
        resume(Effect.succeed(agent));
      });
    }),
    (agent) =>
      Effect.sync(() => {
        if (agent.exitCode === null && agent.signalCode === null) agent.kill("SIGTERM");
      }),
  );

/** The first problem `replay-agent check` finds in the file, if any. */
export const checkProblem = (file: string): string | undefined => {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  const exit = Effect.runSyncExit(validateTranscript(file, text));
  if (Exit.isSuccess(exit)) return undefined;
  const error = Cause.squash(exit.cause);
  return error instanceof Error ? error.message : String(error);
};

/**
 * Records a stdio agent: stands between the app (`input`, `output`) and the real agent, which it
 * starts with the app's arguments after its own. Every byte is passed on both ways as it comes,
 * and each line appended to `out` at once: the meta line and the app's arguments as the spawn
 * line first, then each message the app writes as an expect_outbound (all of stdin as one text
 * message for a provider that reads a prompt), each line the agent writes as an emit_inbound (in
 * the order they came, but for answers the protocol's rules keep with the message they answer),
 * and the agent's exit as an exit line, but for an exit 0 after the app closed the agent's stdin
 * (the replay agent exits so by itself). Unless `timing` is false, each line of the agent comes after
 * a delay line of the time since the app's last message or the agent's line before, whichever came
 * later (since the agent started, before either): the time the agent took, what the replay agent
 * waits after it played the line before. When the recorder is stopped (`stop`), the agent gets the
 * signal, and the file gets an exit line only if it needs one to pass `replay-agent check`.
 */
export const recordStdio = Effect.fn("recordStdio")(function* (
  options: StdioRecordOptions,
): Effect.fn.Return<StdioRecording, RecordOutputError | AgentStartError, Scope.Scope> {
  const { provider, out, log } = options;
  const redactor = makeRedactor(secretValues(options.env));
  const file = yield* openTranscriptFile(out);
  const agent = yield* startAgent([...options.agent, ...options.args], options.env);
  yield* file.append(yield* recordedMeta(provider, { model: modelArgument(options.args), client: undefined }, redactor));
  const rules = stdioRecordingRules[provider];
  const args = redactor.pattern(options.args);
  yield* file.append({ type: "expect_outbound", spawn: { args: Array.isArray(args) ? rules.args(args) : args } });

  const counts = { app: 0, agent: 0 };
  const append = (line: RecordedLine) =>
    Effect.runSync(file.append(line).pipe(Effect.catch((error) => Effect.sync(() => log(`replay-agent: ${error.message}`)))));
  const order = answerOrder(rules, append);
  /** The time kept since the app's last message or the agent's last line: what the agent's next line took. */
  let timeline: Timeline | undefined;
  const answerStarts = () => {
    if (options.timing !== false) timeline = makeTimeline(Effect.runSync(now));
  };
  answerStarts();
  let appClosed = false;
  let stoppedBy: NodeJS.Signals | undefined;

  const fromApp = (message: unknown) => {
    // What the app writes once the agent has exited reaches no one, as it would reach no replay agent.
    if (agent.exitCode !== null || agent.signalCode !== null) return;
    counts.app++;
    order.fromApp(message, { type: "expect_outbound", message: rules.pattern(redactor.pattern(message)) });
    answerStarts();
  };
  const fromAgent = (line: string) => {
    if (line.trim() === "") return;
    const came = Effect.runSync(now);
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      log(
        `replay-agent: the agent wrote a line that is not JSON, not recorded (the replay agent writes JSON lines only): ${line.slice(0, 120)}`,
      );
      return;
    }
    counts.agent++;
    const ms = timeline?.until(came) ?? 0;
    const emit: RecordedLine = { type: "emit_inbound", message: redactor.value(message) };
    order.fromAgent(message, [...delayLines(ms), emit]);
  };

  const { input, output } = options;
  let outputFailed = false;
  output.on("error", (error) => {
    if (!outputFailed) log(`replay-agent: cannot write to the app: ${error.message}`);
    outputFailed = true;
  });
  // The agent may exit before it reads all the app wrote.
  agent.stdin.on("error", () => {});
  agent.on("error", (error) => log(`replay-agent: ${error.message}`));
  input.pipe(agent.stdin);
  if (stdioFormats[provider].stdin === "prompt") {
    const chunks: Array<Buffer> = [];
    input.on("data", (chunk: Buffer) => chunks.push(chunk));
    input.once("end", () => fromApp(Buffer.concat(chunks).toString("utf8")));
  } else {
    const lines = splitLines((line) => {
      if (line.trim() !== "") fromApp(parseMessage(line));
    });
    input.on("data", lines.push);
    input.once("end", lines.end);
  }
  input.once("end", () => {
    appClosed = true;
  });
  const agentLines = splitLines(fromAgent);
  agent.stdout.on("data", agentLines.push);
  agent.stdout.once("end", agentLines.end);
  agent.stdout.pipe(output, { end: false });

  const ended = yield* Deferred.make<AgentExit>();
  agent.once("close", (exitCode: number | null, signal: NodeJS.Signals | null) => {
    input.unpipe(agent.stdin);
    order.flush();
    const code = exitCode ?? (signal === null ? 1 : 128 + constants.signals[signal]);
    const exitLine = { type: "exit", code };
    const needed = stoppedBy === undefined ? !(appClosed && code === 0) : checkProblem(out) !== undefined;
    if (needed) append(exitLine);
    const problem = checkProblem(out);
    if (problem !== undefined) log(`replay-agent: ${out} does not pass replay-agent check yet. Edit it so it does:\n${problem}`);
    Deferred.doneUnsafe(ended, Exit.succeed({ code, signal, exitLine: needed }));
  });

  return {
    stop: (signal) => {
      if (agent.exitCode !== null || agent.signalCode !== null) return;
      stoppedBy = signal;
      agent.kill(signal);
    },
    ended,
    counts: () => ({ ...counts }),
  };
});

/** What `record` prints on stderr when the agent has exited. */
export const formatStdioRecordSummary = (
  out: string,
  counts: { readonly app: number; readonly agent: number },
  exit: AgentExit,
): string => {
  const how = exit.signal === null ? `exited with code ${exit.code}` : `was ended by ${exit.signal} (code ${exit.code})`;
  const ending = exit.exitLine ? `, recorded as {"type":"exit","code":${exit.code}}` : "";
  return `replay-agent stopped: recorded the agent's arguments, ${counts.app} message${counts.app === 1 ? "" : "s"} from the app and ${counts.agent} from the agent to ${out}; the agent ${how}${ending}`;
};

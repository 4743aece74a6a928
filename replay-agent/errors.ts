import * as Schema from "effect/Schema";

/** Why a transcript line was rejected; stable codes a caller can branch on. */
export const TranscriptErrorCode = Schema.Literals([
  "empty",
  "bad_json",
  "not_an_object",
  "unknown_type",
  "meta_not_first",
  "invalid_field",
  "bad_pattern",
  "order",
  "framing",
]);
export type TranscriptErrorCode = typeof TranscriptErrorCode.Type;

/** A transcript line that cannot be replayed: names the file, the 1-based line, what is wrong and what to write instead. */
export class TranscriptError extends Schema.TaggedError<TranscriptError>()("TranscriptError", {
  file: Schema.String,
  line: Schema.Number,
  code: TranscriptErrorCode,
  problem: Schema.String,
  fix: Schema.String,
}) {
  override get message(): string {
    return `${this.file}:${this.line}: ${this.problem}. ${this.fix}`;
  }
}

/** The transcript file could not be read at all. */
export class TranscriptReadError extends Schema.TaggedError<TranscriptReadError>()("TranscriptReadError", {
  file: Schema.String,
  detail: Schema.String,
}) {
  override get message(): string {
    return `cannot read transcript ${this.file}: ${this.detail}. Check the path; a relative path is resolved from ${process.cwd()}`;
  }
}

/** The transcript's provider speaks another transport than the command serving it: HTTP providers are served by `serve`, stdio ones by `stdio`. */
export class WrongTransportError extends Schema.TaggedError<WrongTransportError>()("WrongTransportError", {
  file: Schema.String,
  provider: Schema.String,
  command: Schema.String,
  use: Schema.String,
}) {
  override get message(): string {
    return `${this.file}:1: "${this.provider}" transcripts are not served by replay-agent ${this.command}. Use ${this.use}`;
  }
}

/** A request that matches no expectation; it is answered 400 and never consumes the expectation. */
export class ReplayMismatchError extends Schema.TaggedError<ReplayMismatchError>()("ReplayMismatchError", {
  file: Schema.String,
  request: Schema.Unknown,
  expectedLine: Schema.NullOr(Schema.Number),
  expectedSummary: Schema.NullOr(Schema.String),
  expected: Schema.Unknown,
  diff: Schema.String,
}) {
  override get message(): string {
    const where =
      this.expectedLine === null
        ? `the request came after the last expectation: ${this.file} expects no more requests`
        : `the request does not match ${this.file}:${this.expectedLine} (${this.expectedSummary ?? "expect_outbound"})`;
    return `${where}. Change the app or the transcript so they agree:\n${this.diff}`;
  }
}

/** `resume` was called while the transcript is not held at a pause, not at the one named, or at several and none was named. */
export class NotPausedError extends Schema.TaggedError<NotPausedError>()("NotPausedError", {
  next: Schema.String,
  pause: Schema.optional(Schema.String),
  held: Schema.optional(Schema.Array(Schema.String)),
}) {
  override get message(): string {
    const held = this.held ?? [];
    if (held.length > 1 && this.pause === undefined) {
      return `resume() was called while ${held.length} pauses are held (${held.join(", ")}). Name the one to release: resume("<name>")`;
    }
    if (this.pause !== undefined && held.length > 0) {
      return `resume("${this.pause}") was called but the pause held is ${held.join(", ")}. Await paused("${this.pause}") before resuming it`;
    }
    const call = this.pause === undefined ? "resume()" : `resume("${this.pause}")`;
    return `${call} was called but the transcript is not held at a pause (next: ${this.next}). Await paused(name) before calling resume()`;
  }
}

/** `paused(name)` can never resolve: no such pause ahead, or the server closed first. */
export class PauseNotReachedError extends Schema.TaggedError<PauseNotReachedError>()("PauseNotReachedError", {
  name: Schema.String,
  reason: Schema.String,
}) {
  override get message(): string {
    return `the transcript will not reach pause "${this.name}": ${this.reason}`;
  }
}

/** The HTTP transport could not listen on the requested port. */
export class ListenError extends Schema.TaggedError<ListenError>()("ListenError", {
  port: Schema.Number,
  detail: Schema.String,
}) {
  override get message(): string {
    return `replay-agent cannot listen on 127.0.0.1:${this.port}: ${this.detail}. Pass a free --port, or omit it to pick one`;
  }
}

/** The command line does not name a known command with its required arguments. */
export class UsageError extends Schema.TaggedError<UsageError>()("UsageError", {
  detail: Schema.String,
}) {
  override get message(): string {
    return this.detail;
  }
}

/** The recorder forwards with the real provider's key from the environment, and it is not set. */
export class MissingKeyError extends Schema.TaggedError<MissingKeyError>()("MissingKeyError", {
  provider: Schema.String,
  env: Schema.String,
}) {
  override get message(): string {
    return `replay-agent record --provider ${this.provider} forwards each request with the key in ${this.env}, which is not set. Export ${this.env}; the app's own key is never forwarded`;
  }
}

/** The recorder lacks what it signs AWS requests with (Bedrock): credentials or a region, from its environment. */
export class MissingAwsSigningError extends Schema.TaggedError<MissingAwsSigningError>()("MissingAwsSigningError", {
  provider: Schema.String,
  problem: Schema.String,
  fix: Schema.String,
}) {
  override get message(): string {
    return `replay-agent record --provider ${this.provider} ${this.problem}. ${this.fix}`;
  }
}

/** The recorder cannot write its transcript. */
export class RecordOutputError extends Schema.TaggedError<RecordOutputError>()("RecordOutputError", {
  file: Schema.String,
  detail: Schema.String,
}) {
  override get message(): string {
    return `replay-agent record cannot write ${this.file}: ${this.detail}. Pass an --out path in an existing, writable directory that does not hold a file of that name yet`;
  }
}

/** The recorder could not reach the real provider for one request; the app is answered 502 and nothing is recorded for it. */
export class UpstreamError extends Schema.TaggedError<UpstreamError>()("UpstreamError", {
  url: Schema.String,
  detail: Schema.String,
}) {
  override get message(): string {
    return `replay-agent record could not reach ${this.url}: ${this.detail}. Check --upstream and the network`;
  }
}

/** The stdio recorder could not start the real agent it stands in front of; nothing is recorded. */
export class AgentStartError extends Schema.TaggedError<AgentStartError>()("AgentStartError", {
  command: Schema.String,
  detail: Schema.String,
}) {
  override get message(): string {
    return `replay-agent record cannot start the agent ${this.command}: ${this.detail}. Pass --agent the real agent's command line (its executable on PATH or by path, and its own arguments)`;
  }
}

/** A stdio peer started by `startStdioPeer` cannot be controlled: it has not started yet, or it has exited. */
export class PeerNotRunningError extends Schema.TaggedError<PeerNotRunningError>()("PeerNotRunningError", {
  operation: Schema.String,
  detail: Schema.String,
}) {
  override get message(): string {
    return `${this.operation}: ${this.detail}. Start the app so it spawns the command of startStdioPeer(), and keep it running while the scenario drives pauses`;
  }
}

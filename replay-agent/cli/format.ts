import * as Predicate from "effect/Predicate";
import type { HttpRequest } from "../http/read-request.ts";
import type { RecordingCounts } from "../record/transcript-file.ts";
import type { RuntimeStatus } from "../runtime/replay-runtime.ts";
import { requestExcerpt } from "../runtime/request-excerpt.ts";
import type { Pace } from "../transcript/schema.ts";
import type { TranscriptSummary } from "../transcript/summary.ts";

/** A pace in words: `40 tokens/s, first token after 600 ms`. */
export const describePace = (pace: Pace): string =>
  [
    ...(pace.tokensPerSecond === undefined ? [] : [`${pace.tokensPerSecond} tokens/s`]),
    ...(pace.firstTokenMs === undefined ? [] : [`first token after ${pace.firstTokenMs} ms`]),
  ].join(", ");

/** What `check` prints about a valid transcript. */
export const formatTranscriptSummary = (file: string, summary: TranscriptSummary): string => {
  const pauses = summary.pauses.length === 0 ? "none" : summary.pauses.map(({ name, line }) => `${name} (line ${line})`).join(", ");
  return [
    `${file}: valid replay-transcript v1`,
    `  provider: ${summary.provider}`,
    `  model:    ${summary.model ?? "(not recorded)"}`,
    `  requests: ${summary.requests}`,
    `  frames:   ${summary.frames}`,
    ...(summary.pace === null ? [] : [`  pace:     ${describePace(summary.pace)}`]),
    `  pauses:   ${pauses}`,
    ...(summary.lanes.length === 0
      ? []
      : [
          `  lanes:    ${summary.lanes.map(({ name, requests, optional }) => `${name} (${requests} request${requests === 1 ? "" : "s"}${optional > 0 ? `, ${optional} optional` : ""})`).join(", ")}`,
        ]),
    ...(summary.marks.length === 0
      ? []
      : [
          `  marks:    ${summary.marks.map(({ name, line, waits }) => `${name} (line ${line}${waits.length === 0 ? "" : `, awaited at line ${waits.join(", ")}`})`).join(", ")}`,
        ]),
    ...(summary.holds.length === 0 ? [] : [`  holds:    ${summary.holds.map((line) => `line ${line}`).join(", ")}`]),
  ].join("\n");
};

/** An HTTP request in a summary: `POST /v1/chat/completions`. */
export const describeHttpRequest = (request: HttpRequest): string => `${request.method} ${request.path}`;

/** A stdio message in a summary: the agent's arguments (a spawn), a JSON-RPC method or the id it answers, or a typed message's type and subtype. */
export const describeMessage = (message: unknown): string => {
  if (!Predicate.isObject(message)) return `the line ${JSON.stringify(message).slice(0, 60)}`;
  if (Predicate.isObject(message["spawn"])) return "the agent's arguments";
  if (typeof message["method"] === "string") return message["method"];
  if (typeof message["type"] === "string") {
    const subtype = Predicate.isObject(message["request"]) ? message["request"]["subtype"] : undefined;
    return typeof subtype === "string" ? `${message["type"]} ${subtype}` : message["type"];
  }
  return `the answer to id ${JSON.stringify(message["id"]) ?? "?"}`;
};

/** Whether a stopped replay played its whole transcript with no mismatch. */
export const fullyPlayed = (status: RuntimeStatus<unknown>): boolean => status.remaining === 0 && status.mismatches.length === 0;

/** What `serve` and `stdio` print when they stop: how far the transcript got and every mismatch with its diff. */
export const formatServeSummary = <Req>(status: RuntimeStatus<Req>, describeRequest: (request: Req) => string): string => {
  const progress =
    status.remaining === 0
      ? `played all ${status.played} entries`
      : `played ${status.played} entries; ${status.remaining} remaining, next: ${
          status.next === null ? "none" : `line ${status.next.line} (${status.next.summary})`
        }`;
  const mismatches = status.mismatches.map(({ request, expectedLine, diff }, index) => {
    const against = expectedLine === null ? "with nothing left to expect" : `against line ${expectedLine}`;
    const indented = diff
      .split("\n")
      .map((line) => `     ${line}`)
      .join("\n");
    return `  ${index + 1}. ${describeRequest(request)} (${requestExcerpt(request)}) ${against}:\n${indented}`;
  });
  const verdict = fullyPlayed(status) ? "transcript fully played" : "transcript NOT fully played";
  const count = `${status.mismatches.length} mismatch${status.mismatches.length === 1 ? "" : "es"}`;
  return [`replay-agent stopped: ${progress}; ${count}; ${verdict}`, ...mismatches].join("\n");
};

/** What `record` prints when it stops. */
export const formatRecordSummary = (file: string, counts: RecordingCounts): string =>
  counts.requests === 0
    ? `replay-agent stopped: no request came, so nothing was recorded (${file} was not written)`
    : `replay-agent stopped: recorded ${counts.requests} request${counts.requests === 1 ? "" : "s"} and ${counts.frames} frame${counts.frames === 1 ? "" : "s"} to ${file}`;

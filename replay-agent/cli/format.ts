import type { HttpRequest } from "../http/read-request.ts";
import type { RuntimeStatus } from "../runtime/replay-runtime.ts";
import type { TranscriptSummary } from "../transcript/summary.ts";

/** What `check` prints about a valid transcript. */
export const formatTranscriptSummary = (file: string, summary: TranscriptSummary): string => {
  const pauses =
    summary.pauses.length === 0 ? "none" : summary.pauses.map(({ name, line }) => `${name} (line ${line})`).join(", ");
  return [
    `${file}: valid replay-transcript v1`,
    `  provider: ${summary.provider}`,
    `  model:    ${summary.model ?? "(not recorded)"}`,
    `  requests: ${summary.requests}`,
    `  frames:   ${summary.frames}`,
    `  pauses:   ${pauses}`,
  ].join("\n");
};

/** What `serve` prints when it stops: how far the transcript got and every mismatch with its diff. */
export const formatServeSummary = (status: RuntimeStatus<HttpRequest>): string => {
  const total = status.played + status.remaining;
  const progress =
    status.remaining === 0
      ? `played all ${total} entries`
      : `played ${status.played} of ${total} entries; ${status.remaining} remaining, next: ${
          status.next === null ? "none" : `line ${status.next.line} (${status.next.summary})`
        }`;
  const mismatches = status.mismatches.map(({ request, expectedLine, diff }, index) => {
    const against = expectedLine === null ? "with nothing left to expect" : `against line ${expectedLine}`;
    const indented = diff.split("\n").map((line) => `     ${line}`).join("\n");
    return `  ${index + 1}. ${request.method} ${request.path} ${against}:\n${indented}`;
  });
  const verdict =
    status.remaining === 0 && status.mismatches.length === 0 ? "transcript fully played" : "transcript NOT fully played";
  const count = `${status.mismatches.length} mismatch${status.mismatches.length === 1 ? "" : "es"}`;
  return [`replay-agent stopped: ${progress}; ${count}; ${verdict}`, ...mismatches].join("\n");
};

import * as Predicate from "effect/Predicate";
import type { StdioProvider } from "../transcript/providers.ts";

/** What the recorder knows of a stdio protocol beyond its lines. */
export interface StdioRecordingRules {
  /** The app's arguments as the pattern of the spawn line: whole, but for a value its client picks afresh on every run. */
  readonly args: (args: ReadonlyArray<unknown>) => ReadonlyArray<unknown>;
  /**
   * A message the app wrote, as the pattern its expect_outbound records: the message whole, but
   * for what the app's client picks afresh on every run, which would never match again.
   */
  readonly pattern: (message: unknown) => unknown;
  /** The id of the answer an app's message awaits, when the replay agent must play that answer in this message's answer. */
  readonly awaits: (message: unknown) => string | undefined;
  /** The id of the app's message an agent's message answers, for a protocol with `awaits`. */
  readonly answers: (message: unknown) => string | undefined;
}

const field = (value: unknown, key: string): unknown => (Predicate.isObject(value) ? value[key] : undefined);
const isControl = (message: unknown, type: "control_request" | "control_response") => field(message, "type") === type;
const asId = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

/** JSON-RPC: ids count up from the same start on every run, and an agent's response may come in any later answer. */
const asWritten: StdioRecordingRules = {
  args: (args) => args,
  pattern: (message) => message,
  awaits: () => undefined,
  answers: () => undefined,
};

/** `@openai/codex-sdk` writes a turn's `outputSchema` to a new temporary folder, whose path follows `--output-schema`. */
const codexExec: StdioRecordingRules = {
  ...asWritten,
  args: (args) => args.map((arg, index) => (args[index - 1] === "--output-schema" ? { $any: true } : arg)),
};

/**
 * The Agent SDK picks the `request_id` of each control_request it writes at random, so it is
 * recorded as `{"$any":true}`; the replay agent writes the control_response in that request's
 * answer with the id the SDK sent (the claude-code profile's `echo`), so the recorder puts each
 * control_response in the answer of the control_request it answers, even when the SDK wrote more
 * (its prompt, say) before the CLI answered. The CLI's own control_requests carry ids the replay
 * agent writes as recorded, so the SDK's answers to them are kept whole.
 */
const claudeCode: StdioRecordingRules = {
  args: (args) => args,
  pattern: (message) =>
    isControl(message, "control_request") && Predicate.isObject(message) ? { ...message, request_id: { $any: true } } : message,
  awaits: (message) => (isControl(message, "control_request") ? asId(field(message, "request_id")) : undefined),
  answers: (message) => (isControl(message, "control_response") ? asId(field(field(message, "response"), "request_id")) : undefined),
};

export const stdioRecordingRules: { readonly [P in StdioProvider]: StdioRecordingRules } = {
  "jsonrpc-stdio": asWritten,
  "codex-app-server": asWritten,
  "codex-exec": codexExec,
  "claude-code": claudeCode,
};

import * as Result from "effect/Result";
import * as Schema from "effect/Schema";
import { issueDescriber } from "../transcript/issues.ts";
import { Pace } from "../transcript/schema.ts";
import { newProviders } from "../transcript/providers.ts";
import { DescriptionError } from "./errors.ts";
import { isSessionProvider, sessionTemplates, templateOf, thinkingProviders } from "./templates.ts";
import { sessionProblem } from "./session-problem.ts";

/**
 * What `replay-agent new` writes a transcript from, as `--from <file>` holds it (the command
 * line's flags build the same thing). Each turn is one request and its answer.
 */

const ErrorStatus = Schema.Int.check(Schema.isBetween({ minimum: 400, maximum: 599 })).annotate({
  expected: "an HTTP error status from 400 to 599, like 429",
});

/** `name@N`: hold the stream after its Nth delta; `name@0` holds before the first frame. */
export const PauseAt = Schema.String.check(Schema.isPattern(/^[^@\s][^@]*@\d+$/)).annotate({
  expected: 'a pause as "name@N", its name and after how many deltas it holds, like "mid-stream@3" ("@0": before the first frame)',
});

/** A tool call the model makes; `result` is text the tool result the app sends back must contain. */
export const ToolCall = Schema.Struct({
  name: Schema.NonEmptyString,
  arguments: Schema.optionalKey(Schema.Record(Schema.String, Schema.Unknown)),
  result: Schema.optionalKey(Schema.String),
  id: Schema.optionalKey(Schema.NonEmptyString),
});
export type ToolCall = typeof ToolCall.Type;

/** An error status answering the request, in the provider's own error body. */
export const FailWith = Schema.Union([
  ErrorStatus,
  Schema.Struct({
    status: ErrorStatus,
    message: Schema.optionalKey(Schema.String),
    retryAfter: Schema.optionalKey(Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))),
  }),
]);
export type FailWith = typeof FailWith.Type;

const Usage = Schema.Struct({
  input: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)),
  output: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)),
});

/**
 * One request and its answer. `user` is the last user message the request carries (a turn right
 * after a tool call has none: its request carries the tool results). The answer is the model's
 * `thinking`, `reply` text and `tools` calls, streamed unless `stream` is false, or an error
 * status (`fail`).
 */
export const Turn = Schema.Struct({
  user: Schema.optionalKey(Schema.String),
  thinking: Schema.optionalKey(Schema.String),
  reply: Schema.optionalKey(Schema.String),
  tools: Schema.optionalKey(Schema.Array(ToolCall)),
  pause: Schema.optionalKey(Schema.Union([PauseAt, Schema.Array(PauseAt)])),
  cut: Schema.optionalKey(Schema.Union([PauseAt, Schema.Array(PauseAt)])),
  fail: Schema.optionalKey(FailWith),
  stream: Schema.optionalKey(Schema.Boolean),
  usage: Schema.optionalKey(Usage),
});
export type Turn = typeof Turn.Type;

/** A request the app sends beside the turns (a chat title, say), answered whole, in a lane of its own. */
export const Background = Schema.Struct({
  lane: Schema.NonEmptyString,
  reply: Schema.String,
  user: Schema.optionalKey(Schema.String),
  model: Schema.optionalKey(Schema.NonEmptyString),
  times: Schema.optionalKey(
    Schema.Union([Schema.Int.check(Schema.isGreaterThanOrEqualTo(1)), Schema.Literal("any")]).annotate({
      expected: 'a whole number of requests from 1 up, or "any"',
    }),
  ),
  optional: Schema.optionalKey(Schema.Boolean),
});
export type Background = typeof Background.Type;

export const Description = Schema.Struct({
  provider: Schema.Literals(newProviders).annotate({ expected: `one of ${newProviders.join(", ")}` }),
  model: Schema.optionalKey(Schema.NonEmptyString),
  usage: Schema.optionalKey(Schema.Boolean),
  pace: Schema.optionalKey(Pace),
  turns: Schema.Array(Turn).check(Schema.isMinLength(1)),
  background: Schema.optionalKey(Schema.Array(Background)),
});
export type Description = typeof Description.Type;

const decode = Schema.decodeUnknownResult(Description, { onExcessProperty: "error", errors: "all" });

/** A schema issue as one phrase per problem, each with its path: `"turns[0].pause": expected …`. */
const describeIssue = issueDescriber("a description");

/** The first thing in a decoded description that cannot be written, as an error naming the turn. */
const checkTurns = (source: string, description: Description): DescriptionError | undefined => {
  const problem = (where: string, text: string, fix: string) => new DescriptionError({ source, where, problem: text, fix });
  if (description.usage !== undefined && description.provider !== "openai-chat") {
    return problem(
      "usage",
      `only openai-chat makes the usage chunk a choice (stream_options.include_usage); ${description.provider} always sends usage`,
      'Remove "usage"',
    );
  }
  if (description.pace !== undefined && description.pace.tokensPerSecond === undefined && description.pace.firstTokenMs === undefined) {
    return problem(
      "pace",
      "it sets no pace",
      'Write it like "pace":{"tokensPerSecond":40,"firstTokenMs":600}, either or both, or remove it',
    );
  }
  const mainLane = (description.background ?? []).findIndex((background) => background.lane === "main");
  if (mainLane !== -1) {
    return problem(
      `background[${mainLane}].lane`,
      'the turns are lane "main"; a background request needs a lane of its own',
      'Name it after what the app asks, like "title"',
    );
  }
  if (isSessionProvider(description.provider)) {
    const session = sessionProblem(source, description, sessionTemplates[description.provider]);
    if (session !== undefined) return session;
  }
  const template = templateOf(description.provider);
  let afterTools = false;
  for (const [index, turn] of description.turns.entries()) {
    const where = `turns[${index}]`;
    if (turn.thinking !== undefined && !template.thinking) {
      return problem(
        `${where}.thinking`,
        `replay-agent new writes no thinking for ${description.provider}, only for ${thinkingProviders}`,
        'Remove "thinking"',
      );
    }
    const withId = (turn.tools ?? []).findIndex((tool) => tool.id !== undefined);
    if (withId !== -1 && !template.takesToolIds) {
      return problem(
        `${where}.tools[${withId}].id`,
        `${description.provider} names no tool calls: its tool calls and tool results carry no id`,
        'Remove "id"',
      );
    }
    if (afterTools && turn.user !== undefined) {
      return problem(
        where,
        "this turn follows a tool call, so its request carries the tool results, not a user message",
        'Remove "user", or end the turn before with no "tools"',
      );
    }
    if (!afterTools && turn.user === undefined) {
      return problem(
        where,
        'a turn needs "user": the last user message its request carries',
        'Add it; only a turn right after one with "tools" leaves it out',
      );
    }
    if (
      turn.fail !== undefined &&
      (turn.reply !== undefined ||
        turn.thinking !== undefined ||
        turn.tools !== undefined ||
        turn.pause !== undefined ||
        turn.cut !== undefined ||
        turn.usage !== undefined)
    ) {
      return problem(
        where,
        '"fail" answers the request with an error status alone',
        'Remove "reply", "thinking", "tools", "pause", "cut" and "usage", or put the answer in a turn of its own (the retry)',
      );
    }
    if (turn.fail === undefined && turn.reply === undefined && (turn.tools ?? []).length === 0) {
      return problem(where, "this turn has no answer", 'Give it "reply" text, "tools" or "fail"');
    }
    if (turn.stream === false && (turn.cut !== undefined || pausesOf(turn).some((pause) => pause.after !== 0))) {
      return problem(
        where,
        "a turn that is not streamed has no deltas to pause after or cut: it can hold only before its answer",
        'Make each pause "name@0" and remove "cut", or remove "stream": false',
      );
    }
    afterTools = turn.fail === undefined && (turn.tools ?? []).length > 0;
  }
  return undefined;
};

/** `input` as a description `replay-agent new` can write; `source` names it in errors (a file, or "the command line"). */
export const decodeDescription = (source: string, input: unknown): Result.Result<Description, DescriptionError> => {
  const decoded = decode(input);
  if (Result.isFailure(decoded)) {
    const problem = describeIssue(decoded.failure.issue);
    return Result.fail(
      new DescriptionError({
        source,
        where: "",
        problem,
        fix: problem.includes('"pace')
          ? 'Write it like "pace":{"tokensPerSecond":40,"firstTokenMs":600}: tokens per second above 0, the milliseconds before the first frame from 0 up, either or both'
          : 'Write it like {"provider":"openai-chat","turns":[{"user":"Give me a short tour","reply":"This project has two files."}]}',
      }),
    );
  }
  const problem = checkTurns(source, decoded.success);
  return problem === undefined ? Result.succeed(decoded.success) : Result.fail(problem);
};

/** The meta line's `pace` field a description sets, if any. */
export const paceField = (description: Description): { readonly pace?: Pace } =>
  description.pace === undefined ? {} : { pace: description.pace };

/** The pause names of a turn (`pause`, or `cut`) with the delta each holds after (or inside), in the order they play. */
export const pausesOf = (
  turn: Turn,
  field: "pause" | "cut" = "pause",
): ReadonlyArray<{ readonly name: string; readonly after: number; readonly spec: string }> =>
  ((value) => (value === undefined ? [] : typeof value === "string" ? [value] : value))(turn[field])
    .map((spec) => {
      const at = spec.lastIndexOf("@");
      return { name: spec.slice(0, at), after: Number(spec.slice(at + 1)), spec };
    })
    .sort((a, b) => a.after - b.after);

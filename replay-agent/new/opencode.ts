import * as Result from "effect/Result";
import { paceField, type Description, type Turn } from "./description.ts";
import { DescriptionError } from "./errors.ts";
import { draw, hex } from "./ids.ts";
import { opencodeClock } from "./opencode-clock.ts";
import { opencodeSse, opencodeStep, type OpencodeModel, type OpencodeSession, type OpencodeStep } from "./opencode-step.ts";
import type { Frame } from "./template.ts";
import { tokenize } from "./tokenize.ts";

/**
 * `replay-agent new --provider opencode`: one OpenCode session as `@opencode-ai/sdk` sees it from
 * the server. Lane `events` is the event stream (`GET /event`): `server.connected`, then each
 * thing the server publishes, and `hold`, since the server never ends it. Lane `main` is the
 * REST calls: `session.create()` (`POST /session`), then for each prompt `session.prompt()`
 * (`POST /session/{id}/message`). The server publishes before it answers, so `mark` and `wait`
 * order the lanes: `session.created` before the session's response, and each prompt's whole
 * answer down to `session.idle` before the prompt's response.
 */

type Line = Readonly<Record<string, unknown>>;

/** What a description is checked against: OpenCode streams the model's thinking (reasoning parts) and names its tool calls. */
export const opencodeTraits = { thinking: true, takesToolIds: true } as const;

/** The model OpenCode's answers name when the description names none. */
export const opencodeDefaultModel = "anthropic/claude-sonnet-4-5";

/** The server version the session reports, that of the SDK the transcript is written for. */
const serverVersion = "1.19.6";

/** The project directory the session runs in. */
const directory = "/home/dev/app";

/** The headers OpenCode's server starts its event stream with. */
const eventStreamHeaders = {
  "content-type": "text/event-stream",
  "cache-control": "no-cache",
  "x-accel-buffering": "no",
  "x-content-type-options": "nosniff",
};

/** A step of a prompt: a description turn, and where it is in the description. */
interface Step {
  readonly turn: Turn;
  readonly where: string;
}

/** One `session.prompt()`: the turn with the person's message and the turns after its tool calls, each a step of OpenCode's loop. */
interface Prompt {
  readonly user: string;
  readonly steps: ReadonlyArray<Step>;
}

/** `anthropic/claude-sonnet-4-5` as OpenCode splits it: the provider before the first slash, the model after it. */
const modelOf = (model: string): OpencodeModel | undefined => {
  const match = /^([^/\s]+)\/(\S+)$/.exec(model);
  return match?.[1] === undefined || match[2] === undefined ? undefined : { providerID: match[1], modelID: match[2] };
};

/** The prompts of a description: a turn with `user` starts one; the turns after a tool call go on with it. */
const promptsOf = (turns: ReadonlyArray<Turn>): ReadonlyArray<Prompt> =>
  turns.reduce<Array<Prompt>>((prompts, turn, index) => {
    const step = { turn, where: `turns[${index}]` };
    const last = prompts.at(-1);
    if (turn.user !== undefined || last === undefined) return [...prompts, { user: turn.user ?? "", steps: [step] }];
    return [...prompts.slice(0, -1), { ...last, steps: [...last.steps, step] }];
  }, []);

/** The first thing in a description that an OpenCode session cannot be written from. */
const refusal = (source: string, description: Description): DescriptionError | undefined => {
  const problem = (where: string, text: string, fix: string) => new DescriptionError({ source, where, problem: text, fix });
  if (description.model !== undefined && modelOf(description.model) === undefined) {
    return problem(
      "model",
      `OpenCode names a model <provider>/<model>, like ${opencodeDefaultModel}; got "${description.model}"`,
      'Write it as OpenCode names it, like --model openai/gpt-5 ("model" in a file)',
    );
  }
  if (description.background !== undefined) {
    return problem(
      "background",
      "OpenCode's server makes its side requests to the model (a session's title) itself; the app sends none for a transcript to answer",
      'Remove "background" (--background)',
    );
  }
  for (const [index, turn] of description.turns.entries()) {
    const where = `turns[${index}]`;
    if (turn.fail !== undefined) {
      return problem(
        `${where}.fail`,
        "OpenCode's server does not answer a prompt with the model's error status: it publishes the error as session.error on the event stream, then session.idle",
        'Remove "fail" (--fail), and write the failure by hand: the assistant message with its "error", session.error, session.status idle and session.idle, as replay-agent/fixtures/opencode/abort-race.ndjson ends its session',
      );
    }
    if (turn.stream === false) {
      return problem(
        `${where}.stream`,
        "OpenCode always streams its answer on the event stream, and session.prompt() answers with the whole message after it",
        'Remove "stream" (--no-stream)',
      );
    }
    const next = description.turns[index + 1];
    if ((turn.tools ?? []).length > 0 && (next === undefined || next.user !== undefined)) {
      return problem(
        where,
        "OpenCode runs the tools itself and asks the model again before session.prompt() answers, so a turn with tools needs the turn after it",
        'Add a turn after it with the "reply" the model gives once it has the tools\' results (--reply)',
      );
    }
  }
  return undefined;
};

/** A turn's answer: its thinking, text and tool calls, and its token counts (made up: one output token per delta). */
const answerOf = (turn: Turn, input: number) => {
  const calls = (turn.tools ?? []).map((tool) => ({
    callID: tool.id,
    tool: tool.name,
    input: tool.arguments ?? {},
    output: tool.result ?? "",
  }));
  const output = tokenize(turn.reply ?? "").length + calls.reduce((sum, call) => sum + 4 + tokenize(JSON.stringify(call.input)).length, 0);
  return { thinking: turn.thinking, text: turn.reply, calls, usage: turn.usage ?? { input, output } };
};

/** An event's emit_inbound line. */
const emit = (type: string, properties: Readonly<Record<string, unknown>>): Line => ({
  type: "emit_inbound",
  sse: opencodeSse(type, properties),
});

/** Whether a line writes an event. */
const isEvent = (line: Line | undefined): boolean => line?.["type"] === "emit_inbound" && line["sse"] !== undefined;

/**
 * The events with each one that another follows directly (no pause, wait or mark between them)
 * joined to it, so they go out in one write. The app's SDK reads the event stream a read at a
 * time and the prompt's response on another connection: events written one by one can still sit
 * unread when the response arrives, while one write is read whole before it.
 */
const joined = (events: ReadonlyArray<Line>): ReadonlyArray<Line> =>
  events.map((line, index) => (isEvent(line) && isEvent(events[index + 1]) ? { ...line, join: true } : line));

/** The transcript's lines for an OpenCode session; `withPauses` places a step's pause and cut lines among its frames. */
export const opencodeLines = (
  source: string,
  description: Description,
  withPauses: (turn: Turn, where: string, frames: ReadonlyArray<Frame>) => Result.Result<ReadonlyArray<Line>, DescriptionError>,
): Result.Result<ReadonlyArray<Line>, DescriptionError> => {
  const refused = refusal(source, description);
  if (refused !== undefined) return Result.fail(refused);
  const named = description.model ?? opencodeDefaultModel;
  const model = modelOf(named) ?? { providerID: "anthropic", modelID: "claude-sonnet-4-5" };
  const seed = `opencode|${named}|${JSON.stringify(description.turns)}`;
  const clock = opencodeClock(seed);
  clock.tick(12);
  const session: OpencodeSession = {
    id: clock.id("ses", "descending"),
    directory,
    model,
    snapshot: draw(`snapshot|${seed}`, 40, hex),
    clock,
    seed,
  };
  const created = clock.now();
  const info = {
    id: session.id,
    projectID: draw(`project|${seed}`, 40, hex),
    directory,
    title: `New session - ${new Date(created).toISOString()}`,
    version: serverVersion,
    time: { created, updated: created },
  };
  const prompts = promptsOf(description.turns);
  const markOf = (name: string, index: number) => (prompts.length === 1 ? `${name}-sent` : `${name}-${index + 1}-sent`);
  const events: Array<Line> = [
    { type: "expect_outbound", lane: "events", request: { method: "GET", path: "/event" } },
    { type: "emit_inbound", head: { status: 200, headers: eventStreamHeaders } },
    emit("server.connected", {}),
    { type: "wait", for: "session-requested" },
    emit("session.created", { info }),
    emit("session.updated", { info }),
    { type: "mark", name: "session-announced" },
  ];
  const requests: Array<Line> = [
    { type: "expect_outbound", request: { method: "POST", path: "/session" } },
    { type: "mark", name: "session-requested" },
    { type: "wait", for: "session-announced" },
    { type: "emit_inbound", response: { status: 200, body: info } },
  ];
  // The input tokens: OpenCode's system prompt and tool definitions come to about 2,300 before the conversation.
  let input = 2290;
  for (const [index, prompt] of prompts.entries()) {
    clock.tick(28);
    const userID = clock.id("msg");
    const user = { id: userID, sessionID: session.id, role: "user", time: { created: clock.now() }, agent: "build", model };
    const text = { id: clock.id("prt"), sessionID: session.id, messageID: userID, type: "text", text: prompt.user };
    events.push(
      { type: "wait", for: markOf("prompt", index) },
      emit("message.updated", { info: user }),
      emit("message.part.updated", { part: text }),
    );
    input += 12 + tokenize(prompt.user).length;
    let last: OpencodeStep | undefined;
    for (const { turn, where } of prompt.steps) {
      const answer = answerOf(turn, input);
      const step = opencodeStep(session, userID, where, answer);
      const lines = withPauses(turn, where, step.frames);
      if (Result.isFailure(lines)) return lines;
      events.push(...lines.success);
      input += answer.usage.output + answer.calls.reduce((sum, call) => sum + 8 + tokenize(call.output).length, 0);
      last = step;
    }
    clock.tick(6);
    events.push(
      emit("session.status", { sessionID: session.id, status: { type: "idle" } }),
      emit("session.idle", { sessionID: session.id }),
      { type: "mark", name: markOf("idle", index) },
    );
    const body = {
      ...(description.model === undefined ? {} : { model }),
      parts: { $some: { type: "text", text: prompt.user } },
    };
    requests.push(
      { type: "expect_outbound", request: { method: "POST", path: `/session/${session.id}/message`, body } },
      { type: "mark", name: markOf("prompt", index) },
      { type: "wait", for: markOf("idle", index) },
      { type: "emit_inbound", response: { status: 200, body: { info: last?.info, parts: last?.parts } } },
    );
  }
  return Result.succeed([
    {
      type: "meta",
      format: "replay-transcript",
      version: 1,
      provider: "opencode",
      model: named,
      source: "handwritten",
      ...paceField(description),
    },
    ...joined(events),
    { type: "hold" },
    ...requests,
  ]);
};

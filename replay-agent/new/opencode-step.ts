import type { SseFrame } from "../transcript/schema.ts";
import { ids } from "./ids.ts";
import type { OpencodeClock } from "./opencode-clock.ts";
import { sseFrame, type Frame } from "./template.ts";
import { tokenize } from "./tokenize.ts";

/**
 * One step of OpenCode's prompt loop as its server publishes it on the event stream, in the
 * shapes of `@opencode-ai/sdk`'s `Event`, `AssistantMessage` and `Part` types: the session
 * busy, a new assistant message, its `step-start` part, the thinking as a `reasoning` part and
 * the text as a `text` part (each created empty, then one `message.part.updated` per token
 * carrying the text so far and the token as `delta`, then with its end time), each tool call as
 * a `tool` part (pending, running with its input, completed with its output), the `step-finish`
 * part, and the message completed.
 */

/** OpenCode's model: the provider and the model, as `--model anthropic/claude-sonnet-4-5` names them. */
export interface OpencodeModel {
  readonly providerID: string;
  readonly modelID: string;
}

/** What every event of a session shares. */
export interface OpencodeSession {
  readonly id: string;
  readonly directory: string;
  readonly model: OpencodeModel;
  /** The git tree hash OpenCode's snapshot records at each step. */
  readonly snapshot: string;
  readonly clock: OpencodeClock;
  readonly seed: string;
}

/** A tool call the step makes; OpenCode's server runs the tool itself and publishes its output. */
export interface OpencodeCall {
  readonly callID: string | undefined;
  readonly tool: string;
  readonly input: Readonly<Record<string, unknown>>;
  readonly output: string;
}

/** What one step answers. */
export interface OpencodeStepAnswer {
  readonly thinking: string | undefined;
  readonly text: string | undefined;
  readonly calls: ReadonlyArray<OpencodeCall>;
  readonly usage: { readonly input: number; readonly output: number };
}

/** A step's events, and the assistant message and parts it ends with (what `session.prompt()` answers with). */
export interface OpencodeStep {
  readonly frames: ReadonlyArray<Frame>;
  readonly info: Readonly<Record<string, unknown>>;
  readonly parts: ReadonlyArray<Readonly<Record<string, unknown>>>;
}

/** An event as the server writes it: data-only, its type inside. */
export const opencodeSse = (type: string, properties: Readonly<Record<string, unknown>>): SseFrame => ({ data: { type, properties } });

interface Tokens {
  readonly input: number;
  readonly output: number;
  readonly reasoning: number;
  readonly cache: { readonly read: number; readonly write: number };
}

/** A made-up cost, in dollars, at Claude Sonnet's prices ($3 and $15 per million input and output tokens). */
const costOf = (tokens: Tokens): number => Math.round(tokens.input * 3 + (tokens.output + tokens.reasoning) * 15) / 1_000_000;

/** A tool call's id as the model's provider makes them: Anthropic's `toolu_01…`, OpenAI's `call_…` for the others. */
const callIdOf = (session: OpencodeSession, seed: string): string =>
  session.model.providerID === "anthropic" ? ids.toolUse(`${session.seed}|${seed}`) : ids.openaiCall(`${session.seed}|${seed}`);

/**
 * The title OpenCode shows for a tool call: its own tools title it by what they act on (a path, a
 * pattern, a command's description), here the first string argument, else the tool's name.
 */
const titleOf = (call: OpencodeCall): string => {
  const first = Object.values(call.input).find((value) => typeof value === "string");
  return typeof first === "string" ? first : call.tool;
};

/** Step `where` of the prompt whose user message is `parentID`. */
export const opencodeStep = (session: OpencodeSession, parentID: string, where: string, answer: OpencodeStepAnswer): OpencodeStep => {
  const { clock } = session;
  const frames: Array<Frame> = [];
  const parts: Array<Readonly<Record<string, unknown>>> = [];
  const publish = (type: string, properties: Readonly<Record<string, unknown>>, delta = false) =>
    frames.push(sseFrame(opencodeSse(type, properties), delta));
  const sessionID = session.id;

  publish("session.status", { sessionID, status: { type: "busy" } });
  clock.tick(12);
  const messageID = clock.id("msg");
  const created = clock.now();
  const info = (end?: { readonly completed: number; readonly cost: number; readonly tokens: Tokens; readonly finish: string }) => ({
    id: messageID,
    sessionID,
    role: "assistant",
    time: end === undefined ? { created } : { created, completed: end.completed },
    parentID,
    modelID: session.model.modelID,
    providerID: session.model.providerID,
    mode: "build",
    path: { cwd: session.directory, root: session.directory },
    cost: end?.cost ?? 0,
    tokens: end?.tokens ?? { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } },
    ...(end === undefined ? {} : { finish: end.finish }),
  });
  publish("message.updated", { info: info() });
  const part = (type: string, fields: Readonly<Record<string, unknown>>) => ({
    id: clock.id("prt"),
    sessionID,
    messageID,
    type,
    ...fields,
  });

  clock.tick(8);
  const stepStart = part("step-start", { snapshot: session.snapshot });
  publish("message.part.updated", { part: stepStart });
  parts.push(stepStart);

  const streamed = (type: "reasoning" | "text", text: string) => {
    clock.tick(9);
    const id = clock.id("prt");
    const start = clock.now();
    const shaped = (sofar: string, end?: number) => ({
      id,
      sessionID,
      messageID,
      type,
      text: sofar,
      time: end === undefined ? { start } : { start, end },
    });
    publish("message.part.updated", { part: shaped("") });
    let sofar = "";
    for (const token of tokenize(text)) {
      clock.tick(31);
      sofar += token;
      publish("message.part.updated", { part: shaped(sofar), delta: token }, true);
    }
    const done = shaped(text, clock.tick(12));
    publish("message.part.updated", { part: done });
    parts.push(done);
  };
  if (answer.thinking !== undefined) streamed("reasoning", answer.thinking);
  if (answer.text !== undefined) streamed("text", answer.text);

  const running = answer.calls.map((call, index) => {
    clock.tick(15);
    const id = clock.id("prt");
    const callID = call.callID ?? callIdOf(session, `${where}.tools[${index}]`);
    const shaped = (state: Readonly<Record<string, unknown>>) => ({
      id,
      sessionID,
      messageID,
      type: "tool",
      callID,
      tool: call.tool,
      state,
    });
    publish("message.part.updated", { part: shaped({ status: "pending", input: {}, raw: "" }) });
    const start = clock.tick(23);
    publish("message.part.updated", { part: shaped({ status: "running", input: call.input, time: { start } }) }, true);
    return { call, shaped, start };
  });
  for (const { call, shaped, start } of running) {
    const end = clock.tick(41);
    const completed = shaped({
      status: "completed",
      input: call.input,
      output: call.output,
      title: titleOf(call),
      metadata: {},
      time: { start, end },
    });
    publish("message.part.updated", { part: completed });
    parts.push(completed);
  }

  const reasoning = tokenize(answer.thinking ?? "").length;
  const tokens = { input: answer.usage.input, output: answer.usage.output, reasoning, cache: { read: 0, write: 0 } };
  const cost = costOf(tokens);
  const finish = answer.calls.length > 0 ? "tool-calls" : "stop";
  clock.tick(14);
  const stepFinish = part("step-finish", { reason: finish, snapshot: session.snapshot, cost, tokens });
  publish("message.part.updated", { part: stepFinish });
  parts.push(stepFinish);
  const completed = info({ completed: clock.tick(12), cost, tokens, finish });
  publish("message.updated", { info: completed });
  return { frames, info: completed, parts };
};

import { base62, draw } from "./ids.ts";
import {
  emitMessage,
  expectMessage,
  type Line,
  type SessionLine,
  type SessionPlan,
  type SessionTemplate,
  type SessionTurn,
} from "./session-template.ts";
import { tokenize } from "./tokenize.ts";

/**
 * The OpenAI Realtime API over a WebSocket, as `OpenAIRealtimeWS` speaks it: the connection to
 * `/v1/realtime?model=…`, `session.created`, the app's `session.update` switching the session to
 * text, then per turn the app's `conversation.item.create` and `response.create`, answered by the
 * items added and a response streamed as `response.*` events: text deltas, or a function call's
 * argument deltas, ending with `response.done` and its usage. After a function call the app sends
 * each call's `function_call_output` and asks for the next response.
 */

/** An id in OpenAI's realtime shape, like `event_CbqyYnuKbPFa2VUJZvBTK`: its prefix and 21 characters. */
const id = (prefix: string, seed: string) => `${prefix}_${draw(`${prefix}|${seed}`, 21, base62)}`;

const audio = { output: { format: { type: "audio/pcm", rate: 24000 }, voice: "marin" } };

/** The session as the server describes it, in `outputModalities`. */
const sessionOf = (session: SessionPlan, outputModalities: ReadonlyArray<string>) => ({
  type: "realtime",
  object: "realtime.session",
  id: id("sess", session.seed),
  model: session.model === "gpt-realtime" ? "gpt-realtime-2025-08-28" : session.model,
  output_modalities: outputModalities,
  instructions:
    "Your knowledge cutoff is 2023-10. You are a helpful, witty, and friendly AI. Act like a human, but remember that you aren't a human and that you can't do human things in the real world.",
  tools: [],
  tool_choice: "auto",
  max_output_tokens: "inf",
  tracing: null,
  prompt: null,
  expires_at: 1768213800,
  audio: {
    input: {
      format: { type: "audio/pcm", rate: 24000 },
      transcription: null,
      noise_reduction: null,
      turn_detection: {
        type: "server_vad",
        threshold: 0.5,
        prefix_padding_ms: 300,
        silence_duration_ms: 200,
        idle_timeout_ms: null,
        create_response: true,
        interrupt_response: true,
      },
    },
    output: { format: { type: "audio/pcm", rate: 24000 }, voice: "marin", speed: 1 },
  },
  include: null,
});

/** The id of the last item a turn added to the conversation: its answer's last output item. */
const lastItem = (turn: SessionTurn): string => {
  const offset = turn.steps.length - 1;
  const step = turn.steps[offset];
  const call = step?.calls.at(-1);
  return call !== undefined ? id("item", `${turn.seed}|${offset}|call|${call.id ?? ""}`) : id("item", `${turn.seed}|${offset}|message`);
};

const turnLines = (session: SessionPlan, turn: SessionTurn): ReadonlyArray<SessionLine> => {
  let events = 0;
  const eventId = () => id("event", `${turn.seed}|${events++}`);
  const conversation = id("conv", session.seed);
  const lines: Array<SessionLine> = [];
  let previous: string | null = turn.previous === undefined ? null : lastItem(turn.previous);
  /** The server's two events for an item the app added. */
  const added = (step: number, item: Line) => {
    const itemId = id("item", `${turn.seed}|${step}|added|${String(item["call_id"] ?? "user")}`);
    const full = { id: itemId, ...item, status: "completed" };
    const before = previous;
    previous = itemId;
    lines.push(
      emitMessage(step, { type: "conversation.item.added", event_id: eventId(), previous_item_id: before, item: full }),
      emitMessage(step, { type: "conversation.item.done", event_id: eventId(), previous_item_id: before, item: full }),
    );
  };
  lines.push(
    expectMessage(turn.first, {
      type: "conversation.item.create",
      item: { type: "message", role: "user", content: { $some: { type: "input_text", text: turn.user } } },
    }),
  );
  added(turn.first, { type: "message", role: "user", content: [{ type: "input_text", text: turn.user }] });
  for (const [offset, step] of turn.steps.entries()) {
    const index = turn.first + offset;
    if (offset > 0) {
      for (const call of turn.steps[offset - 1]?.calls ?? []) {
        lines.push(
          expectMessage(index, {
            type: "conversation.item.create",
            item: {
              type: "function_call_output",
              call_id: call.id,
              output: call.result === undefined ? { $any: true } : { $contains: call.result },
            },
          }),
        );
        added(index, { type: "function_call_output", call_id: call.id, output: call.result ?? "" });
      }
    }
    lines.push(expectMessage(index, { type: "response.create" }));
    const responseId = id("resp", `${turn.seed}|${offset}`);
    const response = {
      object: "realtime.response",
      id: responseId,
      conversation_id: conversation,
      output_modalities: ["text"],
      max_output_tokens: "inf",
      audio,
      metadata: null,
    };
    lines.push(
      emitMessage(index, {
        type: "response.created",
        event_id: eventId(),
        response: { ...response, status: "in_progress", status_details: null, output: [], usage: null },
      }),
    );
    const output: Array<Line> = [];
    const outputItem = (itemId: string, opened: Line, done: Line, stream: (outputIndex: number) => ReadonlyArray<SessionLine>) => {
      const outputIndex = output.length;
      const before = previous;
      previous = itemId;
      const base = { response_id: responseId, output_index: outputIndex };
      lines.push(
        emitMessage(index, { type: "response.output_item.added", event_id: eventId(), ...base, item: opened }),
        emitMessage(index, { type: "conversation.item.added", event_id: eventId(), previous_item_id: before, item: opened }),
        ...stream(outputIndex),
        emitMessage(index, { type: "response.output_item.done", event_id: eventId(), ...base, item: done }),
        emitMessage(index, { type: "conversation.item.done", event_id: eventId(), previous_item_id: before, item: done }),
      );
      output.push(done);
    };
    if (step.text !== undefined) {
      const text = step.text;
      const itemId = id("item", `${turn.seed}|${offset}|message`);
      const message = { id: itemId, type: "message", role: "assistant" };
      outputItem(
        itemId,
        { ...message, status: "in_progress", content: [] },
        { ...message, status: "completed", content: [{ type: "output_text", text }] },
        (outputIndex) => {
          const part = { response_id: responseId, item_id: itemId, output_index: outputIndex, content_index: 0 };
          return [
            emitMessage(index, { type: "response.content_part.added", event_id: eventId(), ...part, part: { type: "text", text: "" } }),
            ...tokenize(text).map((delta) =>
              emitMessage(index, { type: "response.output_text.delta", event_id: eventId(), ...part, delta }, true),
            ),
            emitMessage(index, { type: "response.output_text.done", event_id: eventId(), ...part, text }),
            emitMessage(index, { type: "response.content_part.done", event_id: eventId(), ...part, part: { type: "text", text } }),
          ];
        },
      );
    }
    for (const call of step.calls) {
      const itemId = id("item", `${turn.seed}|${offset}|call|${call.id ?? ""}`);
      const args = JSON.stringify(call.arguments);
      const item = { id: itemId, type: "function_call", name: call.name, call_id: call.id };
      outputItem(
        itemId,
        { ...item, status: "in_progress", arguments: "" },
        { ...item, status: "completed", arguments: args },
        (outputIndex) => {
          const base = { response_id: responseId, item_id: itemId, output_index: outputIndex, call_id: call.id };
          return [
            ...tokenize(args).map((delta) =>
              emitMessage(index, { type: "response.function_call_arguments.delta", event_id: eventId(), ...base, delta }, true),
            ),
            emitMessage(index, {
              type: "response.function_call_arguments.done",
              event_id: eventId(),
              ...base,
              name: call.name,
              arguments: args,
            }),
          ];
        },
      );
    }
    const outputTokens = Math.max(1, Math.round(turn.usage.output / turn.steps.length));
    const inputTokens = 180 + turn.usage.input + offset * 20;
    lines.push(
      emitMessage(index, {
        type: "response.done",
        event_id: eventId(),
        response: {
          ...response,
          status: "completed",
          status_details: null,
          output,
          usage: {
            total_tokens: inputTokens + outputTokens,
            input_tokens: inputTokens,
            output_tokens: outputTokens,
            input_token_details: {
              text_tokens: inputTokens,
              audio_tokens: 0,
              image_tokens: 0,
              cached_tokens: 0,
              cached_tokens_details: { text_tokens: 0, audio_tokens: 0, image_tokens: 0 },
            },
            output_token_details: { text_tokens: outputTokens, audio_tokens: 0 },
          },
        },
      }),
    );
  }
  return lines;
};

export const openaiRealtimeTemplate: SessionTemplate = {
  defaultModel: "gpt-realtime",
  thinking: false,
  takesToolIds: true,
  oneTurn: false,
  toolProblem: () => undefined,
  toolId: (seed) => `call_${draw(`openaiCall|${seed}`, 16, base62)}`,
  open: (session) => [
    { type: "expect_outbound", request: { method: "GET", path: `/v1/realtime?model=${encodeURIComponent(session.model)}` } },
    {
      type: "emit_inbound",
      message: { type: "session.created", event_id: id("event", `${session.seed}|created`), session: sessionOf(session, ["audio"]) },
    },
    { type: "expect_outbound", message: { type: "session.update", session: { type: "realtime", output_modalities: ["text"] } } },
    {
      type: "emit_inbound",
      message: { type: "session.updated", event_id: id("event", `${session.seed}|updated`), session: sessionOf(session, ["text"]) },
    },
  ],
  turn: turnLines,
};

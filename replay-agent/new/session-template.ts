import type { PlannedCall } from "./template.ts";

/**
 * The contract each message-based profile's template fulfils for `replay-agent new`: a
 * conversation is one session (a process on stdio, or a WebSocket), opened once, then a turn for
 * each message the person sends, answered by the agent's messages, with the tool calls the agent
 * runs (and the app approves) on the way.
 */

/** A transcript line, as JSON. */
export type Line = Readonly<Record<string, unknown>>;

/** One line of a turn: `step` is the description turn it belongs to, `delta` marks the frames a pause counts. */
export interface SessionLine {
  readonly line: Line;
  readonly step: number;
  readonly delta: boolean;
}

/** The session as a whole: its seed, the model the app asks for (undefined: any) and the model the answers name. */
export interface SessionPlan {
  readonly seed: string;
  readonly asked: string | undefined;
  readonly model: string;
}

/** One step of the agent's answer (one description turn): its thinking, its text, then the tool calls it runs. */
export interface SessionStep {
  readonly thinking: string | undefined;
  readonly text: string | undefined;
  readonly calls: ReadonlyArray<PlannedCall>;
}

/** One turn: the person's message and every step of the agent's answer, until it answers without a tool call. */
export interface SessionTurn {
  readonly seed: string;
  /** Which turn of the session this is, from 0. */
  readonly index: number;
  readonly user: string;
  /** Index of the first step in the description's turns: a step's lines carry `first + i`. */
  readonly first: number;
  /** The turn before this one in the session, if any. */
  readonly previous: SessionTurn | undefined;
  readonly steps: ReadonlyArray<SessionStep>;
  /** Token counts: `output` includes `thinking`. */
  readonly usage: { readonly input: number; readonly output: number; readonly thinking: number };
}

/** How one message-based profile opens a session and answers a turn. */
export interface SessionTemplate {
  /** The model the answers name when the description names none; undefined: the protocol names no model. */
  readonly defaultModel: string | undefined;
  /** Whether the agent's thinking has a form `new` writes. */
  readonly thinking: boolean;
  /** Whether a description's `tools[].id` can be given. */
  readonly takesToolIds: boolean;
  /** At most one turn a session (codex exec runs one prompt a process); false: any number. */
  readonly oneTurn: boolean;
  /** Why a tool call cannot be written for this agent, with the fix; undefined when it can. */
  readonly toolProblem: (call: {
    readonly name: string;
    readonly arguments: Readonly<Record<string, unknown>>;
  }) => { readonly problem: string; readonly fix: string } | undefined;
  /** A tool call id in the agent's style. */
  readonly toolId: (seed: string, name: string) => string;
  /** The lines before the first turn: the arguments or the connection, and the handshake. */
  readonly open: (session: SessionPlan) => ReadonlyArray<Line>;
  /** The lines of one turn: what the app sends, and the agent's answer, step by step. */
  readonly turn: (session: SessionPlan, turn: SessionTurn) => ReadonlyArray<SessionLine>;
}

/** An expect_outbound line of `step` for a message the app sends. */
export const expectMessage = (step: number, message: unknown): SessionLine => ({
  line: { type: "expect_outbound", message },
  step,
  delta: false,
});

/** An emit_inbound line of `step` for a message the agent sends; `delta` when a pause counts it. */
export const emitMessage = (step: number, message: unknown, delta = false): SessionLine => ({
  line: { type: "emit_inbound", message },
  step,
  delta,
});

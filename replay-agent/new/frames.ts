/** The contract each provider's frame shapes fulfil for `replay-agent new`: what to expect, and the lines that answer. */

/** A tool call the answer makes, with its id already chosen. */
export interface PlannedCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: Readonly<Record<string, unknown>>;
  /** Text the tool result the app sends back must contain; undefined: any result. */
  readonly result: string | undefined;
}

/** Everything one answer says, before a provider shapes it into frames or a body. */
export interface PlannedAnswer {
  /** Derives this answer's ids: the same description gives the same ids. */
  readonly seed: string;
  /** The model as the provider names it in its answers (a dated snapshot for OpenAI). */
  readonly model: string;
  /** The reply's text; undefined when the answer has no text part. */
  readonly text: string | undefined;
  readonly calls: ReadonlyArray<PlannedCall>;
  readonly usage: { readonly input: number; readonly output: number };
  /** openai-chat: the stream ends with a usage chunk, as with stream_options.include_usage. */
  readonly usageChunk: boolean;
}

/** An error status answering a request. */
export interface PlannedFail {
  readonly seed: string;
  readonly model: string;
  readonly status: number;
  readonly message: string | undefined;
  readonly retryAfter: number | undefined;
}

/** One SSE frame; `delta` marks the frames a pause counts (text and argument fragments). */
export interface Frame {
  readonly sse: { readonly event?: string; readonly data: Readonly<Record<string, unknown>> | "[DONE]" };
  readonly delta: boolean;
}

export interface HttpAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
}

/** How one HTTP provider is asked and how it answers. */
export interface ProviderFrames {
  readonly path: string;
  readonly defaultModel: string;
  /** The body key holding the conversation, whose last item the request pattern names. */
  readonly conversation: "messages" | "input";
  /** The model as the provider names it in its answers. */
  readonly answerModel: (model: string) => string;
  /** A tool call id in the provider's style, from a seed. */
  readonly toolId: (seed: string) => string;
  /** Pattern of the conversation's last item for a turn the person started. */
  readonly userItem: (text: string) => unknown;
  /** Pattern of the conversation's last item for the request carrying these calls' results. */
  readonly toolResultItem: (calls: ReadonlyArray<PlannedCall>) => unknown;
  /** Body fields a streamed request must carry besides `stream: true`. */
  readonly streamFields: (usageChunk: boolean) => Readonly<Record<string, unknown>>;
  /** The headers a streamed answer starts with. */
  readonly streamHeaders: (seed: string) => Readonly<Record<string, string>>;
  readonly stream: (answer: PlannedAnswer) => ReadonlyArray<Frame>;
  readonly response: (answer: PlannedAnswer) => HttpAnswer;
  readonly fail: (fail: PlannedFail) => HttpAnswer;
}

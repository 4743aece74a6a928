import type { Provider } from "./providers.ts";
import type { LineType } from "./schema.ts";

/** A correct line, or several to choose from, of each type: quoted in error messages as what to write instead. */
type Examples = { readonly [T in LineType]: ReadonlyArray<object> };

/** The lines a provider speaks in its own shapes: its request, its answer, and (over HTTP) its error. */
interface ProviderExamples {
  readonly model?: string;
  readonly expect_outbound: ReadonlyArray<object>;
  readonly emit_inbound: ReadonlyArray<object>;
  readonly fail?: object;
}

const expect = (request: object) => ({ type: "expect_outbound", request });
const expectMessage = (message: unknown) => ({ type: "expect_outbound", message });
const emit = (frame: object) => ({ type: "emit_inbound", ...frame });
const emitMessage = (message: object) => ({ type: "emit_inbound", message });
const post = (path: string, body?: object) => expect({ method: "POST", path, ...(body === undefined ? {} : { body }) });
const response = emit({ response: { status: 200, body: {} } });

const providerExamples: { readonly [P in Provider]: ProviderExamples } = {
  "openai-chat": {
    model: "gpt-4o-mini",
    expect_outbound: [post("/v1/chat/completions", { model: "gpt-4o-mini" })],
    emit_inbound: [emit({ sse: { data: { id: "chatcmpl-1", object: "chat.completion.chunk", choices: [] } } }), response],
  },
  "openai-responses": {
    model: "gpt-4o-mini",
    expect_outbound: [post("/v1/responses", { model: "gpt-4o-mini" })],
    emit_inbound: [
      emit({
        sse: {
          event: "response.output_text.delta",
          data: {
            type: "response.output_text.delta",
            sequence_number: 4,
            item_id: "msg_1",
            output_index: 0,
            content_index: 0,
            delta: "Hi",
            logprobs: [],
          },
        },
      }),
      response,
    ],
  },
  "anthropic-messages": {
    model: "claude-sonnet-4-6",
    expect_outbound: [post("/v1/messages", { model: "claude-sonnet-4-6" })],
    emit_inbound: [
      emit({
        sse: {
          event: "content_block_delta",
          data: { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hi" } },
        },
      }),
      response,
    ],
    fail: { type: "fail", status: 529, body: { type: "error", error: { type: "overloaded_error", message: "Overloaded" } } },
  },
  gemini: {
    model: "gemini-2.5-flash",
    expect_outbound: [post("/v1/models/gemini-2.5-flash:streamGenerateContent?alt=sse")],
    emit_inbound: [emit({ sse: { data: { candidates: [{ content: { parts: [{ text: "Hi" }], role: "model" }, index: 0 }] } } }), response],
    fail: {
      type: "fail",
      status: 503,
      body: { error: { code: 503, message: "The model is overloaded. Please try again later.", status: "UNAVAILABLE" } },
    },
  },
  ollama: {
    model: "llama3.2",
    expect_outbound: [post("/api/chat", { model: "llama3.2" })],
    emit_inbound: [
      emit({
        ndjson: {
          model: "llama3.2",
          created_at: "2025-11-30T10:00:01.104927361Z",
          message: { role: "assistant", content: "Hi" },
          done: false,
        },
      }),
      response,
    ],
    fail: { type: "fail", status: 404, body: { error: 'model "llama3.2" not found, try pulling it first' } },
  },
  bedrock: {
    model: "anthropic.claude-3-5-haiku-20241022-v1:0",
    expect_outbound: [post("/model/anthropic.claude-3-5-haiku-20241022-v1%3A0/converse-stream")],
    emit_inbound: [
      emit({
        eventstream: {
          headers: { ":event-type": "contentBlockDelta", ":content-type": "application/json", ":message-type": "event" },
          payload: { contentBlockIndex: 0, delta: { text: "Hi" } },
        },
      }),
      response,
    ],
    fail: {
      type: "fail",
      status: 429,
      headers: { "x-amzn-errortype": "ThrottlingException:http://internal.amazon.com/coral/com.amazon.bedrock/" },
      body: { message: "Too many requests, please wait before trying again." },
    },
  },
  cohere: {
    model: "command-a-03-2025",
    expect_outbound: [post("/v2/chat", { model: "command-a-03-2025" })],
    emit_inbound: [
      emit({ sse: { event: "content-delta", data: { type: "content-delta", index: 0, delta: { message: { content: { text: "Hi" } } } } } }),
      response,
    ],
    fail: {
      type: "fail",
      status: 429,
      body: {
        id: "7a1f3e9c-52b8-4d06-9e4a-c08d2b6f1735",
        message: "You are using a Trial key, which is limited to 20 API calls / minute.",
      },
    },
  },
  opencode: {
    model: "anthropic/claude-sonnet-4-5",
    expect_outbound: [expect({ method: "GET", path: "/event" })],
    emit_inbound: [emit({ sse: { data: { type: "server.connected", properties: {} } } }), response],
  },
  "openai-realtime": {
    model: "gpt-realtime",
    expect_outbound: [expect({ method: "GET", path: "/v1/realtime?model=gpt-realtime" }), expectMessage({ type: "session.update" })],
    emit_inbound: [emitMessage({ type: "session.created", event_id: "event_1", session: {} })],
  },
  "jsonrpc-stdio": {
    expect_outbound: [expectMessage({ jsonrpc: "2.0", id: 1, method: "initialize" })],
    emit_inbound: [emitMessage({ jsonrpc: "2.0", id: 1, result: {} })],
  },
  "codex-app-server": {
    model: "gpt-5.1-codex",
    expect_outbound: [expectMessage({ id: 0, method: "initialize", params: { clientInfo: { name: "my_app" } } })],
    emit_inbound: [
      emitMessage({
        id: 0,
        result: { userAgent: "my_app/0.155.1", codexHome: "/home/dev/.codex", platformFamily: "unix", platformOs: "linux" },
      }),
    ],
  },
  "codex-exec": {
    model: "gpt-5.1-codex",
    expect_outbound: [expectMessage("Run the tests and fix what fails")],
    emit_inbound: [emitMessage({ type: "thread.started", thread_id: "019ad3f2-6c41-7b90-a2e5-3f8c1d07b6e4" })],
  },
  "claude-code": {
    model: "claude-sonnet-4-5",
    expect_outbound: [expectMessage({ type: "control_request", request_id: { $any: true }, request: { subtype: "initialize" } })],
    emit_inbound: [
      emitMessage({
        type: "system",
        subtype: "session_state_changed",
        state: "running",
        uuid: "5e2a9d71-c4b8-4f03-a6e2-19d8c7b3f450",
        session_id: "4f8c2a1e-9b3d-4e6f-a7c5-2d1b8e9f0a3c",
      }),
    ],
  },
};

/** The lines every provider writes alike. */
const shared = {
  pause: [{ type: "pause", name: "mid-stream" }],
  delay: [{ type: "delay", ms: 250 }],
  fail: [{ type: "fail", status: 429, body: { error: { message: "Rate limit reached", type: "requests" } } }],
  disconnect: [{ type: "disconnect" }],
  exit: [{ type: "exit", code: 0 }],
  mark: [{ type: "mark", name: "prompt-answered" }],
  wait: [{ type: "wait", for: "prompt-answered" }],
  hold: [{ type: "hold" }],
} as const satisfies Omit<Examples, "meta" | "expect_outbound" | "emit_inbound">;

/** Every line type's examples in `provider`'s shapes. */
export const examplesOf = (provider: Provider): Examples => {
  const own = providerExamples[provider];
  const model = own.model === undefined ? {} : { model: own.model };
  return {
    ...shared,
    meta: [{ type: "meta", format: "replay-transcript", version: 1, provider, ...model, source: "handwritten" }],
    expect_outbound: own.expect_outbound,
    emit_inbound: own.emit_inbound,
    fail: own.fail === undefined ? shared.fail : [own.fail],
  };
};

/** "Write it like …" with a correct line of `type` in `provider`'s shapes (an openai-chat line before a transcript names its provider). */
export const writeItLike = (type: LineType, provider: Provider = "openai-chat"): string => {
  const lines = examplesOf(provider)[type];
  return `Write it like ${lines.map((line) => JSON.stringify(line)).join(" or ")}`;
};

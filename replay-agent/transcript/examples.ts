import type { Transport } from "./providers.ts";
import type { LineType } from "./schema.ts";

/** A correct line of each type, quoted in error messages as what to write instead. */
const httpExamples: { readonly [T in LineType]: string } = {
  meta: '{"type":"meta","format":"replay-transcript","version":1,"provider":"openai-chat","model":"gpt-4o-mini","source":"handwritten"}',
  expect_outbound: '{"type":"expect_outbound","request":{"method":"POST","path":"/v1/chat/completions","body":{"model":"gpt-4o-mini"}}}',
  emit_inbound:
    '{"type":"emit_inbound","sse":{"data":{"id":"chatcmpl-1","object":"chat.completion.chunk","choices":[]}}} or {"type":"emit_inbound","response":{"status":200,"body":{}}}',
  pause: '{"type":"pause","name":"mid-stream"}',
  delay: '{"type":"delay","ms":250}',
  fail: '{"type":"fail","status":429,"body":{"error":{"message":"Rate limit reached","type":"requests"}}}',
  disconnect: '{"type":"disconnect"}',
  exit: '{"type":"exit","code":0}',
  mark: '{"type":"mark","name":"prompt-answered"}',
  wait: '{"type":"wait","for":"prompt-answered"}',
  hold: '{"type":"hold"}',
};

const stdioExamples: { readonly [T in LineType]: string } = {
  ...httpExamples,
  meta: '{"type":"meta","format":"replay-transcript","version":1,"provider":"jsonrpc-stdio","source":"handwritten"}',
  expect_outbound: '{"type":"expect_outbound","message":{"jsonrpc":"2.0","id":1,"method":"initialize"}}',
  emit_inbound: '{"type":"emit_inbound","message":{"jsonrpc":"2.0","id":1,"result":{}}}',
};

const webSocketExamples: { readonly [T in LineType]: string } = {
  ...httpExamples,
  meta: '{"type":"meta","format":"replay-transcript","version":1,"provider":"openai-realtime","source":"handwritten"}',
  expect_outbound:
    '{"type":"expect_outbound","request":{"method":"GET","path":"/v1/realtime?model=gpt-realtime"}} or {"type":"expect_outbound","message":{"type":"session.update"}}',
  emit_inbound: '{"type":"emit_inbound","message":{"type":"session.created","event_id":"event_1","session":{}}}',
};

const examples: { readonly [T in Transport]: { readonly [L in LineType]: string } } = {
  http: httpExamples,
  websocket: webSocketExamples,
  stdio: stdioExamples,
};

/** "Write it like …" with a correct line of `type` for `transport`. */
export const writeItLike = (type: LineType, transport: Transport = "http"): string => `Write it like ${examples[transport][type]}`;

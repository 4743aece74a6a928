import { jsonRpcFormat } from "./json-rpc-framing.ts";

/**
 * `codex app-server` as an app drives it over stdio: newline-delimited JSON-RPC 2.0 with the
 * `"jsonrpc":"2.0"` member left out of every message, both ways. The app sends `initialize`,
 * the `initialized` notification, `thread/start`, `turn/start`, `turn/interrupt` and the answers
 * to the server's requests (expect_outbound patterns); the server sends its responses, its
 * notifications (`thread/started`, `turn/started`, `item/started`, `item/agentMessage/delta`,
 * `item/completed`, `turn/completed`, …) and its requests to the app, such as
 * `item/commandExecution/requestApproval` (emit_inbound messages). A message or pattern with a
 * `"jsonrpc"` member is refused: the fix is to drop it.
 */
export const codexAppServer = jsonRpcFormat({
  name: "codex app-server",
  jsonrpc: "absent",
  exampleRequest: '{"id":1,"method":"thread/start","params":{…}}',
  exampleNotification: '{"method":"turn/started","params":{…}}',
});

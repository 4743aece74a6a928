import { jsonRpcFormat } from "./json-rpc-framing.ts";

/**
 * The jsonrpc-stdio wire format: newline-delimited JSON-RPC 2.0 on the agent process's stdin
 * and stdout, as the Agent Client Protocol and similar agent CLIs speak it. Every message
 * carries `"jsonrpc":"2.0"`. The app's messages are expect_outbound patterns; the agent's
 * notifications, responses and requests are emit_inbound messages. A request the agent sends
 * must be answered by the app, so an expect_outbound with its id follows it. `exit` ends the
 * process; nothing can follow it.
 */
export const jsonRpcStdio = jsonRpcFormat({
  name: "JSON-RPC 2.0",
  jsonrpc: "required",
  exampleRequest: '{"jsonrpc":"2.0","id":1,"method":"session/new"}',
  exampleNotification: '{"jsonrpc":"2.0","method":"session/update","params":{…}}',
});

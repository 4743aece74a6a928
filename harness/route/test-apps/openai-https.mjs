// A Node app that calls OpenAI's chat completions with node:https at the provider's own URL, printing each streamed
// delta as it comes, then calls another host.
import { get, request } from "node:https";

/** The answer to one https request, once its head has come. */
function answer(url, options, body) {
  return new Promise((resolve, reject) => {
    const call = url.startsWith("https://example.com") ? get(url, resolve) : request(url, options, resolve);
    call.on("error", reject);
    call.end(body);
  });
}

const body = JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content: "Give me a short tour" }], stream: true });
const headers = { "content-type": "application/json", authorization: "Bearer sk-route-test" };
const stream = await answer("https://api.openai.com/v1/chat/completions", { method: "POST", headers }, body);
let pending = "";
for await (const chunk of stream.setEncoding("utf8")) {
  pending += chunk;
  const lines = pending.split("\n");
  pending = lines.pop() ?? "";
  for (const line of lines) {
    if (!line.startsWith("data: ") || line === "data: [DONE]") continue;
    process.stdout.write(JSON.parse(line.slice("data: ".length)).choices[0]?.delta.content ?? "");
  }
}
const other = await answer("https://example.com/");
other.resume();
process.stdout.write(`\nexample.com: ${other.statusCode}\n`);

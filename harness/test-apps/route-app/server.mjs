// A Node app whose code holds its provider's URL: `/ask` streams a reply to the page, from Anthropic through the AI
// SDK's @ai-sdk/anthropic given no base URL (ROUTE_VIA=ai-sdk; the SDK calls Node's fetch), or from OpenAI's chat
// completions with node:https at https://api.openai.com (ROUTE_VIA=https). Then it calls another host, whose answer's
// status it shows: a call no route sends to the replay agent.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { request as httpsRequest } from "node:https";

/** The reply's text deltas from Anthropic, through the AI SDK. */
async function* fromAiSdk() {
  const { streamText } = await import("ai");
  const { createAnthropic } = await import("@ai-sdk/anthropic");
  const anthropic = createAnthropic({ apiKey: "sk-ant-route-app" });
  const result = streamText({ model: anthropic("claude-sonnet-4-6"), prompt: "Give me a short tour" });
  yield* result.textStream;
}

/** An https request's answer, once its head has come. */
function answer(url, options, body) {
  return new Promise((resolve, reject) => {
    const call = httpsRequest(url, options, resolve);
    call.on("error", reject);
    call.end(body);
  });
}

/** The reply's text deltas from OpenAI, with node:https. */
async function* fromHttps() {
  const body = JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content: "Give me a short tour" }], stream: true });
  const headers = { "content-type": "application/json", authorization: "Bearer sk-route-app" };
  const stream = await answer("https://api.openai.com/v1/chat/completions", { method: "POST", headers }, body);
  let pending = "";
  for await (const chunk of stream.setEncoding("utf8")) {
    pending += chunk;
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) {
      if (line.startsWith("data: ") && line !== "data: [DONE]")
        yield JSON.parse(line.slice("data: ".length)).choices[0]?.delta.content ?? "";
    }
  }
}

const page = readFileSync(new URL("page.html", import.meta.url));

createServer(async (request, response) => {
  if (request.url === "/health") return response.end("ok");
  if (request.url !== "/ask") return response.end(page);
  response.writeHead(200, { "content-type": "text/plain; charset=utf-8" });
  try {
    for await (const text of process.env.ROUTE_VIA === "https" ? fromHttps() : fromAiSdk()) response.write(text);
    // The other host's status comes in the page once the reply is whole.
    const other = await fetch("https://example.com/").then(
      (reply) => `example.com: ${reply.status}`,
      (error) => `example.com: ${error.message}`,
    );
    response.end(`\n${other}`);
  } catch (error) {
    response.end(`failed: ${error.message}`);
  }
}).listen(Number(process.env.PORT), "127.0.0.1");

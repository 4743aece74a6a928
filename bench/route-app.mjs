// The route bench's app: a Node process that streams a reply with the official Anthropic client each time its parent
// asks, as an app does, and answers with when the reply's events came. Started either with ANTHROPIC_BASE_URL at the
// replay agent, or with the route's variables and no base URL, the client keeping https://api.anthropic.com.
import Anthropic from "@anthropic-ai/sdk";

const client = new Anthropic({ apiKey: "sk-ant-route-bench", maxRetries: 0 });
const baseURL = process.env.ANTHROPIC_BASE_URL ?? "https://api.anthropic.com";
const question = { model: "claude-sonnet-4-6", max_tokens: 16384, messages: [{ role: "user", content: "Stream a long answer" }] };

/** Streams one reply with the client: ms from the call to its first event and to its last, the events, and each event's ms when `arrivals` is set. */
async function stream(arrivals) {
  const sent = performance.now();
  const events = await client.messages.create({ ...question, stream: true });
  let first = Number.NaN;
  let frames = 0;
  const at = [];
  for await (const event of events) {
    const now = performance.now() - sent;
    if (frames === 0) first = now;
    if (arrivals && event.type !== "ping") at.push(now);
    frames += 1;
  }
  return { first, total: performance.now() - sent, frames, arrivals: at };
}

/** The raw answer to the same request with the fetch the app's Node has: its status, head and body bytes (base64). */
async function raw() {
  const answer = await fetch(`${baseURL}/v1/messages`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": "sk-ant-route-bench", "anthropic-version": "2023-06-01" },
    body: JSON.stringify({ ...question, stream: true }),
  });
  const body = Buffer.from(await answer.arrayBuffer());
  return { status: answer.status, headers: [...answer.headers.entries()], body: body.toString("base64") };
}

process.on("message", (ask) => {
  const run = ask.read === "raw" ? raw() : stream(ask.arrivals === true);
  void run.then(
    (result) => process.send(result),
    (error) => process.send({ error: String(error?.stack ?? error) }),
  );
});

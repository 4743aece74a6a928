// A Node app whose Anthropic client keeps its own URL (https://api.anthropic.com): it streams a reply with the
// official SDK, which calls Node's fetch, printing each text delta as it comes, then calls another host.
import Anthropic from "@anthropic-ai/sdk";

const client = new Anthropic({ apiKey: "sk-ant-route-test" });
const stream = client.messages.stream({
  model: "claude-sonnet-4-6",
  max_tokens: 256,
  messages: [{ role: "user", content: "Give me a short tour" }],
});
stream.on("text", (text) => process.stdout.write(text));
await stream.finalMessage();
const other = await fetch("https://example.com/");
process.stdout.write(`\nexample.com: ${other.status}\n`);

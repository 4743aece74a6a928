// A fixture app with a bug: it asks the provider (OpenAI chat completions, with plain fetch) the
// question typed into its page, and shows the reply only up to its first "!". With
// SUMMARY_ON_EXIT set, it also asks the provider for a summary of the chat when it is stopped,
// a request no transcript of the scenario expects: it comes after the scenario has already failed.
import { createServer } from "node:http";

const history = [];

async function complete(messages) {
  const response = await fetch(`${process.env.OPENAI_BASE_URL}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${process.env.OPENAI_API_KEY}` },
    body: JSON.stringify({ model: "gpt-4o-mini", messages }),
  });
  const body = await response.json();
  if (!response.ok) throw new Error(`the provider answered ${response.status}: ${body.error?.message ?? ""}`);
  return body.choices[0].message.content;
}

const page = `<!doctype html>
<form><input name="question" aria-label="question"><button>Ask</button></form>
<p role="status">idle</p><h1></h1>
<script>
  document.querySelector("form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const answer = await fetch("/ask", { method: "POST", body: new FormData(event.target).get("question") }).then((r) => r.json());
    document.querySelector("h1").textContent = answer.reply ?? "";
    document.querySelector("[role=status]").textContent = answer.error === undefined ? "answered" : "failed: " + answer.error;
  });
</script>`;

const server = createServer(async (request, response) => {
  if (request.url === "/health") return response.end('{"ok":true}');
  if (request.url !== "/ask") return response.end(page);
  let question = "";
  for await (const chunk of request) question += chunk;
  history.push({ role: "user", content: question });
  const answer = await complete(history).then(
    (reply) => (history.push({ role: "assistant", content: reply }), { reply: reply.split("!")[0] }),
    (error) => ({ error: error.message }),
  );
  response.writeHead(200, { "content-type": "application/json" });
  response.end(JSON.stringify(answer));
});
server.listen(Number(process.env.PORT), "127.0.0.1");

process.once("SIGTERM", async () => {
  if (process.env.SUMMARY_ON_EXIT === "1") {
    await complete([...history, { role: "user", content: "Summarize this chat in one line." }]).catch((error) =>
      console.error(error.message),
    );
  }
  process.exit(0);
});

// A fixture app for the stdio peer: a button makes the server spawn the agent command it was
// handed in STDIO_APP_AGENT (a shell command line), speak newline-delimited JSON-RPC to it
// (initialize, then session/prompt), and stream the agent's session/update text to the page.
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import { createInterface } from "node:readline";

const agentCommand = process.env.STDIO_APP_AGENT;
if (!agentCommand) {
  console.error("stdio-app: STDIO_APP_AGENT is not set: set it to the shell command that starts the agent.");
  process.exit(1);
}

const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>stdio app</title>
<style>
  body { font: 16px/1.5 system-ui, sans-serif; margin: 2rem auto; max-width: 40rem; }
  #reply { border: 1px solid #ccc; border-radius: 8px; padding: 1rem; min-height: 3rem; white-space: pre-wrap; }
</style>
</head>
<body>
<h1>stdio app</h1>
<button type="button">Ask the agent</button>
<p role="status">idle</p>
<p id="reply" data-testid="reply"></p>
<script type="module">
  const button = document.querySelector("button");
  const status = document.querySelector("[role=status]");
  const reply = document.querySelector("#reply");
  const show = (update) => {
    if ("text" in update) reply.append(update.text);
    if ("done" in update) status.textContent = "done: " + update.done;
    if ("error" in update) status.textContent = "error: " + update.error;
  };
  button.addEventListener("click", async () => {
    button.disabled = true;
    status.textContent = "streaming";
    const response = await fetch("/prompt", { method: "POST" });
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      const lines = buffer.split("\\n");
      buffer = lines.pop();
      for (const line of lines) if (line !== "") show(JSON.parse(line));
    }
    button.disabled = false;
  });
</script>
</body>
</html>
`;

/** Spawns the agent and returns a JSON-RPC client for it; `onUpdate` receives each session/update's params. */
function startAgent(onUpdate) {
  const child = spawn(agentCommand, { shell: true, stdio: ["pipe", "pipe", "inherit"] });
  const pending = new Map();
  let nextId = 1;
  createInterface({ input: child.stdout }).on("line", (line) => {
    if (line.trim() === "") return;
    const message = JSON.parse(line);
    if (message.method === "session/update") return onUpdate(message.params);
    const call = pending.get(message.id);
    if (call === undefined || message.method !== undefined) return;
    pending.delete(message.id);
    if (message.error) call.reject(new Error(`${call.method}: ${message.error.message}`));
    else call.resolve(message.result);
  });
  child.on("exit", (code) => {
    for (const call of pending.values()) call.reject(new Error(`the agent exited with code ${code} before answering ${call.method}`));
    pending.clear();
  });
  return {
    request: (method, params) =>
      new Promise((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { method, resolve, reject });
        child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
      }),
    // Closing its stdin is how an agent CLI is told the app is done with it.
    close: () => child.stdin.end(),
  };
}

async function prompt(response) {
  response.writeHead(200, { "content-type": "application/x-ndjson", "cache-control": "no-store", "x-content-type-options": "nosniff" });
  const send = (update) => response.write(`${JSON.stringify(update)}\n`);
  const agent = startAgent(({ update }) => {
    if (update?.sessionUpdate === "agent_message_chunk" && update.content?.type === "text") send({ text: update.content.text });
  });
  try {
    await agent.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
    const result = await agent.request("session/prompt", {
      sessionId: "stdio-app",
      prompt: [{ type: "text", text: "Tidy up the project" }],
    });
    send({ done: result.stopReason });
  } catch (error) {
    send({ error: error.message });
  } finally {
    agent.close();
    response.end();
  }
}

createServer((request, response) => {
  if (request.method === "POST" && request.url === "/prompt") return void prompt(response);
  if (request.url === "/health") return void response.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
  response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page);
}).listen(Number(process.env.PORT), "127.0.0.1", () => console.log(`stdio-app listening on http://127.0.0.1:${process.env.PORT}`));

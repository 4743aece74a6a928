// A fixture app with a database and an API beside it: its page lists the chats in PostgreSQL (read through psql, at
// DATABASE_URL) and what the notes API (at NOTES_URL) says.
import { execFile } from "node:child_process";
import { createServer } from "node:http";
import { promisify } from "node:util";

const run = promisify(execFile);

createServer(async (request, response) => {
  if (request.url === "/health") {
    response.writeHead(200, { "content-type": "application/json" });
    response.end('{"ok":true}');
    return;
  }
  const { stdout } = await run("psql", [process.env.DATABASE_URL, "-XAtqc", "SELECT title FROM chats ORDER BY id"]);
  const notes = await (await fetch(`${process.env.NOTES_URL}/note`)).text();
  const items = stdout.trim() === "" ? [] : stdout.trim().split("\n");
  response.writeHead(200, { "content-type": "text/html" });
  response.end(`<h1>chats</h1><ul>${items.map((title) => `<li>${title}</li>`).join("")}</ul><p id="note">${notes}</p>`);
}).listen(Number(process.env.PORT), "127.0.0.1");

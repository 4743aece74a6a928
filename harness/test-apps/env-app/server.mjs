// A fixture app for the isolation test: it writes the environment it was given into its
// home directory, then serves a page and /health.
import { writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";

writeFileSync(join(process.env.ENV_APP_HOME, "env.json"), JSON.stringify(process.env, null, 2));
createServer((request, response) => {
  response.writeHead(200, { "content-type": request.url === "/health" ? "application/json" : "text/html" });
  response.end(request.url === "/health" ? '{"ok":true}' : "<h1>env app</h1>");
}).listen(Number(process.env.PORT), "127.0.0.1");

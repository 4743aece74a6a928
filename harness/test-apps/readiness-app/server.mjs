// A fixture app for readiness: it prints nothing, starts listening after READINESS_APP_DELAY_MS
// (a slow start), writes the moment it listens (ms since the epoch) into its home, and answers
// /health with 503 for its first READINESS_APP_WARMUP requests (a server still warming up).
// /stats says how many /health requests it answered each way; /answered-at, when it finished
// writing its first answer of /health with 200 (ms since the epoch).
import { writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";

const delayMs = Number(process.env.READINESS_APP_DELAY_MS ?? "0");
const warmup = Number(process.env.READINESS_APP_WARMUP ?? "0");
const stats = { warming: 0, healthy: 0 };
let answeredAt;

const server = createServer((request, response) => {
  if (request.url === "/health") {
    const warming = stats.warming < warmup;
    stats[warming ? "warming" : "healthy"] += 1;
    response.writeHead(warming ? 503 : 200, { "content-type": "application/json" });
    response.end(JSON.stringify({ ok: !warming }));
    answeredAt ??= warming ? undefined : performance.timeOrigin + performance.now();
  } else if (request.url === "/answered-at") {
    response.writeHead(200, { "content-type": "text/plain" });
    response.end(answeredAt?.toFixed(3) ?? "");
  } else if (request.url === "/stats") {
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify(stats));
  } else {
    response.writeHead(200, { "content-type": "text/html" });
    response.end("<h1>readiness app</h1>");
  }
});

setTimeout(() => {
  server.listen(Number(process.env.PORT), "127.0.0.1", () => {
    const listeningAt = performance.timeOrigin + performance.now();
    writeFileSync(join(process.env.READINESS_APP_HOME, "listening-at"), listeningAt.toFixed(3));
  });
}, delayMs);

// The API of a two-process app: /health, and /data for the front end's page (another origin, so it allows any).
// With --fail-once-web-is-up <port>, it fails instead, once the front end on that port is up (its pid file is written).
import { existsSync, watch } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { notePid } from "./pids.mjs";

const failAfter = process.argv.indexOf("--fail-once-web-is-up");

/** Fails the way an API without its database does. */
function fail() {
  console.log("api: starting");
  console.error("api: error: could not connect to the database at 127.0.0.1:5432");
  process.exit(1);
}

if (failAfter !== -1) {
  notePid("api");
  const dir = process.env.PROCESSES_APP_PIDS;
  const web = `web-${process.argv[failAfter + 1]}.pid`;
  if (dir === undefined || dir === "" || existsSync(join(dir, web))) fail();
  else
    watch(dir, (_event, name) => {
      if (name === web) fail();
    });
} else {
  createServer((request, response) => {
    console.log(`api: GET ${request.url}`);
    // A line that says something is amiss, as a real API's would: the prover shows it beside a failed test's error.
    if (request.url === "/data") console.log("api: warning: no cache configured; /data answered from memory");
    response.writeHead(200, { "content-type": "application/json", "access-control-allow-origin": "*" });
    response.end(JSON.stringify(request.url === "/data" ? { message: `data from the api on port ${process.env.PORT}` } : { ok: true }));
  }).listen(Number(process.env.PORT), "127.0.0.1", () => {
    notePid("api");
    console.log(`api: listening on ${process.env.PORT}`);
  });
}

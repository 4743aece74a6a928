// Serves a page whose script never returns once it has run, and writes the file $HUNG_PAGE_SERVED
// names when it serves it, so a test can interrupt the run once the page is open.
import { writeFileSync } from "node:fs";
import { createServer } from "node:http";

const page = "<!doctype html><p>loaded</p><script>setTimeout(() => { for (;;) {} }, 100);</script>";

createServer((request, response) => {
  if (request.url === "/health") return response.end("ok");
  response.setHeader("content-type", "text/html");
  response.end(page);
  if (process.env.HUNG_PAGE_SERVED) writeFileSync(process.env.HUNG_PAGE_SERVED, "served\n");
}).listen(Number(process.env.PORT), "127.0.0.1");

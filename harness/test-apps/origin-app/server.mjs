// A fixture app that, like Next.js's dev server, refuses its dev resources to any origin but
// localhost: its page is served to any host, but the script that "hydrates" it (/_dev/client.js)
// answers 403 unless the request's host is localhost, and the server logs why. Opened at
// 127.0.0.1 the page never shows "hydrated"; opened at localhost it does.
import { createServer } from "node:http";

const page = `<!doctype html><h1>origin app</h1><p id="status">server-rendered</p><script src="/_dev/client.js"></script>`;
const client = `document.getElementById("status").textContent = "hydrated";`;

createServer((request, response) => {
  const host = new URL(`http://${request.headers.host ?? ""}`).hostname;
  if (request.url?.startsWith("/_dev/") && host !== "localhost") {
    console.warn(`⚠ Blocked cross-origin request to dev resource ${request.url} from "${host}". Open the app at localhost.`);
    response.writeHead(403, { "content-type": "text/plain" });
    response.end("Unauthorized");
  } else if (request.url === "/_dev/client.js") {
    response.writeHead(200, { "content-type": "text/javascript" });
    response.end(client);
  } else {
    response.writeHead(200, { "content-type": "text/html" });
    response.end(page);
  }
  console.log(`${request.method} ${request.url} ${response.statusCode}`);
}).listen(Number(process.env.PORT), "127.0.0.1", () => console.log("ready on 127.0.0.1"));

// What a package manager prints when the server it ran is stopped: not why a test failed.
process.on("SIGTERM", () => {
  console.error("[ELIFECYCLE] Command failed: stopped by SIGTERM");
  process.exit(1);
});

// The notes API beside the app: a second service on its own port.
import { createServer } from "node:http";

createServer((request, response) => {
  response.writeHead(200, { "content-type": "text/plain" });
  response.end(request.url === "/note" ? `notes on port ${process.env.PORT}` : "ok");
}).listen(Number(process.env.PORT), "127.0.0.1", () => console.log("notes api up"));

// The front end of a two-process app: its page fetches its data from the API process, at API_URL ({api.url}).
import { createServer } from "node:http";
import { notePid } from "./pids.mjs";

const page = `<!doctype html>
<p id="data">loading</p>
<script>
  fetch(${JSON.stringify(`${process.env.API_URL}/data`)})
    .then((response) => response.json())
    .then((data) => (document.querySelector("#data").textContent = data.message));
</script>`;

createServer((request, response) => {
  console.log(`web: GET ${request.url}`);
  response.writeHead(200, { "content-type": "text/html" });
  response.end(page);
}).listen(Number(process.env.PORT), "127.0.0.1", () => {
  notePid("web");
  console.log(`web: listening on ${process.env.PORT}`);
});

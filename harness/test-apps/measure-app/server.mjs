// A fixture app for app.measure(): GET / serves a page with two buttons. "heavy" re-renders a list of 2 000 rows, each
// row's text made by a script that sums 20 000 numbers, then forces a layout of all of them 10 times, each after changing
// the list's width; "light" sets one line of text.
// Each shows "done: <name>" when it has finished. GET /other is a second page, for a block that navigates.
import { createServer } from "node:http";

const page = `<!doctype html><title>measure app</title>
<button id="heavy">heavy</button> <button id="light">light</button> <a href="/other">other page</a>
<p id="status">idle</p><div id="list"></div>
<script>
const list = document.getElementById("list");
const status = document.getElementById("status");
document.getElementById("heavy").addEventListener("click", () => {
  list.replaceChildren();
  for (let row = 0; row < 2000; row++) {
    const item = document.createElement("div");
    let sum = 0;
    for (let step = 0; step < 20000; step++) sum += Math.sqrt(row * step);
    item.textContent = "row " + row + " of a list re-rendered in full: " + sum.toFixed(0);
    list.append(item);
  }
  for (let pass = 0; pass < 10; pass++) {
    list.style.width = 300 + (pass % 2) * 200 + "px";
    list.offsetHeight;
  }
  status.textContent = "done: heavy";
});
document.getElementById("light").addEventListener("click", () => {
  status.textContent = "done: light";
});
</script>`;

createServer((request, response) => {
  response.writeHead(200, { "content-type": "text/html" });
  response.end(request.url === "/other" ? "<!doctype html><title>other</title><h1>other page</h1>" : page);
}).listen(Number(process.env.PORT), "127.0.0.1", () => console.log("ready on 127.0.0.1"));

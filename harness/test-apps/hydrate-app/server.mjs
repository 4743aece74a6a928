// A fixture app whose pages are interactive only once a script arrives, like a framework's page
// that hydrates after it loads. GET / serves a counter whose button is in the HTML at once; its
// click handler comes with /client.js, which the page asks for once loaded and which the server
// answers CLIENT_DELAY_MS (2 500) later. The script then sets window.__hydrated and shows
// "interactive". A click before that is lost, as on a page that has not hydrated yet.
// GET /overlays serves a card under frameworks' dev tool launchers, each a red block, beside an
// error overlay, a blue block.
import { createServer } from "node:http";

const delayMs = Number(process.env.CLIENT_DELAY_MS ?? "2500");

const counter = `<!doctype html><title>hydrate app</title>
<button>Add one</button> <output id="count">0</output> <p id="status">server-rendered</p>
<script>addEventListener("load", () => document.head.append(Object.assign(document.createElement("script"), { src: "/client.js" })));</script>`;

const client = `let count = 0;
document.querySelector("button").addEventListener("click", () => { document.getElementById("count").textContent = String(++count); });
window.__hydrated = true;
document.getElementById("status").textContent = "interactive";`;

const red = "position:fixed; background:rgb(255,0,0);";
const overlays = `<!doctype html><title>overlays</title>
<style>body { margin: 0; background: white; } #card { position: absolute; left: 40px; top: 60px; width: 240px; height: 120px; background: rgb(0,128,0); color: white; }</style>
<div id="card">card</div>
<div id="nuxt-devtools-container"><div style="${red} left: 0; top: 300px; width: 200px; height: 100px"></div></div>
<astro-dev-toolbar style="${red} left: 300px; top: 300px; width: 200px; height: 100px; display: block"></astro-dev-toolbar>
<div id="__next-build-watcher" style="${red} left: 600px; top: 300px; width: 200px; height: 100px"></div>
<vite-error-overlay style="position:fixed; left: 900px; top: 300px; width: 200px; height: 100px; background: rgb(0,0,255); display: block"></vite-error-overlay>
<script>
const portal = document.createElement("nextjs-portal");
portal.attachShadow({ mode: "open" }).innerHTML = '<div id="devtools-indicator" style="${red} left: 200px; top: 100px; width: 300px; height: 40px"></div>';
document.body.append(portal);
</script>`;

createServer((request, response) => {
  if (request.url === "/client.js") {
    setTimeout(() => {
      response.writeHead(200, { "content-type": "text/javascript" });
      response.end(client);
    }, delayMs);
    return;
  }
  response.writeHead(200, { "content-type": "text/html" });
  response.end(request.url === "/overlays" ? overlays : counter);
}).listen(Number(process.env.PORT), "127.0.0.1", () => console.log("ready on 127.0.0.1"));

import { createServer } from "node:http";
import { desc } from "drizzle-orm";
import { db, schemaVersion } from "./db.js";
import { orders } from "./schema.js";

const page = (schema) => `<!doctype html>
<html lang="en">
<title>Orders</title>
<h1>Orders</h1>
<form>
  <label>Item <select name="item"><option>Notebook</option><option>Pen</option></select></label>
  <label>Quantity <input name="quantity" type="number" min="1" value="1"></label>
  <button>Order</button>
</form>
<ul></ul>
<footer>Schema: ${schema}</footer>
<script>
  const list = document.querySelector("ul");
  async function show() {
    const placed = await (await fetch("/api/orders")).json();
    list.replaceChildren(...placed.map((order) => {
      const item = document.createElement("li");
      item.textContent = "Order " + order.id + ": " + order.quantity + " × " + order.item + ", " + order.status + (order.total === null ? "" : ", $" + order.total);
      return item;
    }));
  }
  // The worker's news comes through the server; reading the list again on connecting catches what came before.
  const events = new EventSource("/api/events");
  events.addEventListener("open", show);
  events.addEventListener("message", show);
  document.querySelector("form").addEventListener("submit", async (event) => {
    event.preventDefault();
    await fetch("/api/orders", { method: "POST", body: new URLSearchParams(new FormData(event.target)) });
    await show();
  });
</script>
</html>
`;

/** The pages listening for orders the worker priced. */
const listeners = new Set();
const listener = await db.$client.connect();
listener.on("notification", ({ payload }) => listeners.forEach((response) => response.write(`data: ${payload}\n\n`)));
await listener.query("listen orders_done");

async function body(request) {
  let text = "";
  for await (const chunk of request) text += chunk;
  return new URLSearchParams(text);
}

createServer(async (request, response) => {
  if (request.method === "GET" && request.url === "/") {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page(await schemaVersion()));
  } else if (request.method === "GET" && request.url === "/api/orders") {
    const placed = await db.select().from(orders).orderBy(desc(orders.id));
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(placed));
  } else if (request.method === "POST" && request.url === "/api/orders") {
    const form = await body(request);
    const [order] = await db
      .insert(orders)
      .values({ item: form.get("item"), quantity: Number(form.get("quantity")) })
      .returning();
    await db.$client.query("select pg_notify('orders_queued', $1)", [String(order.id)]);
    response.writeHead(201, { "content-type": "application/json" }).end(JSON.stringify(order));
  } else if (request.method === "GET" && request.url === "/api/events") {
    response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" }).write(": connected\n\n");
    listeners.add(response);
    request.on("close", () => listeners.delete(response));
  } else {
    response.writeHead(404).end("Not found");
  }
}).listen(Number(process.env.PORT), "127.0.0.1", () => console.log(`orders web listening on ${process.env.PORT}`));

import { eq } from "drizzle-orm";
import { db, schemaVersion } from "./db.js";
import { orders } from "./schema.js";

/** Unit prices in cents. */
const prices = { Notebook: 249, Pen: 125 };

/** Prices every queued order, one run at a time, and tells the web server each one it finished. */
let running = Promise.resolve();
const priceQueued = () =>
  (running = running.then(async () => {
    const queued = await db.select().from(orders).where(eq(orders.status, "queued"));
    for (const order of queued) {
      const total = ((prices[order.item] * order.quantity) / 100).toFixed(2);
      await db.update(orders).set({ status: "done", total }).where(eq(orders.id, order.id));
      await db.$client.query("select pg_notify('orders_done', $1)", [String(order.id)]);
      console.log(`priced order ${order.id}: ${order.quantity} × ${order.item} = ${total}`);
    }
  }));

// The web server notifies orders_queued for each order it places.
const listener = await db.$client.connect();
listener.on("notification", () => void priceQueued());
await listener.query("listen orders_queued");
await priceQueued();
console.log(`orders worker ready (schema ${await schemaVersion()})`);

import { desc } from "drizzle-orm";
import { db, schemaVersion } from "../db.js";
import { orders } from "../schema.js";
import { OrderForm } from "./orders.js";

// The orders and the schema as the database has them now, not as they were at build time.
export const dynamic = "force-dynamic";

export default async function Page() {
  const placed = await db.select().from(orders).orderBy(desc(orders.id));
  return (
    <main>
      <h1>Orders</h1>
      <OrderForm />
      <ul>
        {placed.map((order) => (
          <li key={order.id}>
            Order {order.id}: {order.quantity} × {order.item}, {order.status}
            {order.total === null ? "" : `, $${order.total}`}
          </li>
        ))}
      </ul>
      <footer>Schema: {await schemaVersion()}</footer>
    </main>
  );
}

import { desc } from "drizzle-orm";
import { db } from "../../../db.js";
import { orders } from "../../../schema.js";

export async function GET() {
  return Response.json(await db.select().from(orders).orderBy(desc(orders.id)));
}

/** Stores the order queued and tells the worker, which prices it. */
export async function POST(request) {
  const form = await request.formData();
  const [order] = await db
    .insert(orders)
    .values({ item: form.get("item"), quantity: Number(form.get("quantity")) })
    .returning();
  await db.$client.query("select pg_notify('orders_queued', $1)", [String(order.id)]);
  return Response.json(order, { status: 201 });
}

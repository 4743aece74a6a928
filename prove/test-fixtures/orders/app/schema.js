import { integer, numeric, pgTable, serial, text } from "drizzle-orm/pg-core";

/** An order: placed by the web server as queued, priced by the worker. */
export const orders = pgTable("orders", {
  id: serial("id").primaryKey(),
  item: text("item").notNull(),
  quantity: integer("quantity").notNull(),
  status: text("status").notNull().default("queued"),
  total: numeric("total", { precision: 10 }),
});

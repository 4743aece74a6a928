import { readFileSync } from "node:fs";
import { join } from "node:path";
import { drizzle } from "drizzle-orm/node-postgres";
import * as schema from "./schema.js";

if (!process.env.DATABASE_URL) throw new Error("DATABASE_URL is not set: point it at the orders database");

export const db = drizzle(process.env.DATABASE_URL, { schema });

/** The name of the last migration applied to the database, as drizzle-kit's journal names it (the app and the worker run from its folder). */
export async function schemaVersion() {
  const journal = JSON.parse(readFileSync(join(process.cwd(), "drizzle/meta/_journal.json"), "utf8"));
  const { rows } = await db.$client.query("select count(*)::int as applied from drizzle.__drizzle_migrations");
  return journal.entries[rows[0].applied - 1]?.tag ?? "none";
}

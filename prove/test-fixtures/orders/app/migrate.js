import { migrate } from "drizzle-orm/node-postgres/migrator";
import { db, schemaVersion } from "./db.js";

// Applies the migrations drizzle-kit generated in ./drizzle that the database lacks.
await migrate(db, { migrationsFolder: new URL("./drizzle", import.meta.url).pathname });
console.log(`migrated: schema ${await schemaVersion()}`);
await db.$client.end();

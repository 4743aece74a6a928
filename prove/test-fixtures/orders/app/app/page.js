import { schemaVersion } from "../db.js";
import { Orders } from "./orders.js";

// The footer names the database's schema as it is now, not as it was at build time.
export const dynamic = "force-dynamic";

export default async function Page() {
  return (
    <main>
      <h1>Orders</h1>
      <Orders />
      <footer>Schema: {await schemaVersion()}</footer>
    </main>
  );
}

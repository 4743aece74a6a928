import { cp, mkdir, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { execa } from "execa";

/**
 * A git repository of the orders app (prove/test-fixtures/orders/app/): a Next.js app (App Router,
 * run by `next dev`) and a worker sharing PostgreSQL through Drizzle, as a Next.js template with a
 * database holds them. The page places an order; its API route stores it queued and notifies the
 * worker, which prices it and notifies the page back through another route's server-sent events.
 * Its commits, each tagged:
 *
 * - `bug`: the order's total is a `numeric(10)` column, which PostgreSQL rounds to whole dollars, so
 *   three notebooks at $2.49 show "$7"
 * - `fix`: the column is `numeric(10, 2)`: schema.js and the migration drizzle-kit generated for it
 *   (drizzle/0001_order_total_cents.sql, in prove/test-fixtures/orders/fix/); the page shows "$7.47"
 */
export interface OrdersRepo {
  readonly dir: string;
  readonly git: (...args: string[]) => Promise<string>;
}

const fixture = resolve(import.meta.dirname, "../../test-fixtures/orders");

export async function makeOrdersRepo(root: string): Promise<OrdersRepo> {
  const dir = join(root, "orders-app");
  await mkdir(dir, { recursive: true });
  const git = async (...args: string[]) => (await execa("git", args, { cwd: dir })).stdout;
  const author = ["-c", "user.name=Orders Dev", "-c", "user.email=dev@example.com"];
  const commit = async (tag: string, message: string, body?: string) => {
    await git("add", "-A");
    await git(...author, "commit", "-qm", message, ...(body === undefined ? [] : ["-m", body]));
    await git("tag", tag);
  };

  await git("init", "-q", "-b", "main");
  await writeFile(join(dir, ".gitignore"), "node_modules/\n.next/\n");
  await cp(join(fixture, "app"), dir, { recursive: true });
  // Named after the folder it was made in, so two repositories made in the same second have commits of their own.
  await commit("bug", "Price orders in a worker", `Made in ${root}.`);

  await cp(join(fixture, "fix"), dir, { recursive: true });
  await commit("fix", "Keep the cents of an order's total: numeric(10, 2), with its migration");
  return { dir, git };
}

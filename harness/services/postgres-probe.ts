/** What a PostgreSQL server answered a connection with: accepted, or its error. */
export type ProbeAnswer = { readonly accepted: true } | { readonly accepted: false; readonly error: string };

/** How long the connection and its query may take. */
const probeTimeoutMs = 10_000;

/**
 * Connects to PostgreSQL at 127.0.0.1:`port` as `user` with `password` to `database` through the `pg` client and runs
 * `SELECT 1`: a real connection (the server's startup, authentication and a query), not a port probe.
 */
export async function probePostgres(port: number, user: string, password: string, database: string): Promise<ProbeAnswer> {
  const { default: pg } = await import("pg");
  const client = new pg.Client({
    host: "127.0.0.1",
    port,
    user,
    password,
    database,
    connectionTimeoutMillis: probeTimeoutMs,
    query_timeout: probeTimeoutMs,
  });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return { accepted: true };
  } catch (error) {
    return { accepted: false, error: error instanceof Error ? error.message : String(error) };
  } finally {
    await client.end().catch(() => undefined);
  }
}

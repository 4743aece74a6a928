import { once } from "node:events";
import { mkdir } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { appTempEnv } from "../common/contract.ts";
import { claimLink, releaseLink } from "../common/ownership.ts";

/** A port handed to one app, reserved for it until released. */
export interface ReservedPort {
  readonly port: number;
  release(): Promise<void>;
}

/** Where ports are reserved: one folder shared by every harness of this user, in the prover's temp folder (appTempEnv). */
const reservations = () => join(process.env[appTempEnv] ?? tmpdir(), `scenario-harness-ports-${process.getuid?.() ?? "user"}`);

/**
 * Reserves `port` for this process by a link claim (see claimLink); a dead holder's claim is taken
 * over. "unavailable" when the folder cannot be written: the port is then used unreserved.
 */
export async function reservePortNumber(port: number): Promise<"reserved" | "taken" | "unavailable"> {
  const dir = reservations();
  try {
    await mkdir(dir, { recursive: true });
    return (await claimLink(join(dir, String(port)))).kind === "claimed" ? "reserved" : "taken";
  } catch {
    return "unavailable";
  }
}

async function listening(): Promise<Server> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return server;
}

/**
 * A free port on 127.0.0.1, reserved until released, so two harnesses are not handed the same port
 * before either app binds it. A port another harness reserved is skipped; its socket stays open
 * meanwhile so the kernel hands out another.
 */
export async function freePort(): Promise<ReservedPort> {
  const held: Server[] = [];
  try {
    for (;;) {
      const server = await listening();
      held.push(server);
      const address = server.address();
      if (address === null || typeof address === "string") throw new Error("could not read the free port's address");
      const port = address.port;
      const reservation = await reservePortNumber(port);
      if (reservation === "taken") continue;
      const file = join(reservations(), String(port));
      return { port, release: reservation === "reserved" ? () => releaseLink(file) : async () => {} };
    }
  } finally {
    await Promise.all(
      held.map((server) => {
        server.close();
        return once(server, "close");
      }),
    );
  }
}

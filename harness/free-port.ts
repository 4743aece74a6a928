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

/**
 * Where ports are reserved: one folder for every harness of this user on the machine, in the
 * prover's temporary folder (appTempEnv) rather than the Playwright run's own.
 */
const reservations = () => join(process.env[appTempEnv] ?? tmpdir(), `scenario-harness-ports-${process.getuid?.() ?? "user"}`);

/**
 * Reserves `port` for this process by a link claim on a file named after it (see claimLink).
 * "taken" when a live process holds it; one whose process died (its pid gone, or handed to a
 * process that started later) is taken over. "unavailable" when the folder cannot be written:
 * the port is then used without a reservation, as before there were any.
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
 * A port on 127.0.0.1 that no socket holds, chosen by the kernel, and reserved until released.
 * The kernel never hands out a port an app listens on, but an app binds its port only once it has
 * started: two harnesses at once (two proofs) could be handed the same port in between, and the
 * loser's ready check would find the winner's app and test it as its own. The reservation closes
 * that gap between harnesses; a port reserved by another live harness is skipped, its socket
 * kept open meanwhile so that the kernel hands out another.
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

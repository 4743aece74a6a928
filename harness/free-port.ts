import { createServer } from "node:net";
import { once } from "node:events";

/** A port on 127.0.0.1 that was free a moment ago, chosen by the kernel. */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  server.close();
  await once(server, "close");
  if (address === null || typeof address === "string") throw new Error("could not read the free port's address");
  return address.port;
}

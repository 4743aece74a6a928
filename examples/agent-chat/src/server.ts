import { createServer } from "node:http";
import { fileURLToPath } from "node:url";
import { Chat } from "./chat.ts";
import { ConfigError, readServerConfig, type ServerConfig } from "./config.ts";
import { EventLog } from "./event-log.ts";
import { createRequestHandler } from "./http.ts";
import { createProvider, createTitleProvider } from "./providers/registry.ts";
import { Store } from "./store.ts";
import { attachWebSocket } from "./ws.ts";

const publicDir = fileURLToPath(new URL("../public", import.meta.url));

async function start(config: ServerConfig): Promise<void> {
  const provider = await createProvider(config.provider);
  const titles = await createTitleProvider(config.titles);
  const log = new EventLog(config.home);
  log.repairTornTail();
  const store = new Store(log);
  store.sync();
  store.record({ type: "server.started" });
  const stopWatching = log.watch(() => store.sync());

  const chat = new Chat(store, provider, titles);
  const server = createServer(createRequestHandler(publicDir));
  const wss = attachWebSocket(server, store, chat);

  server.listen(config.port, "127.0.0.1", () => {
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : config.port;
    console.log(`agent-chat listening on http://127.0.0.1:${port}`);
  });

  let stopping = false;
  const shutDown = async (signal: NodeJS.Signals): Promise<void> => {
    if (stopping) return;
    stopping = true;
    console.log(`agent-chat: ${signal} received, shutting down`);
    await chat.stopAll();
    stopWatching();
    for (const socket of wss.clients) socket.close(1001, "server shutting down");
    wss.close();
    server.closeAllConnections();
    server.close(() => process.exit(0));
  };
  process.on("SIGTERM", (signal) => void shutDown(signal));
  process.on("SIGINT", (signal) => void shutDown(signal));
}

try {
  await start(readServerConfig(process.env));
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(`agent-chat: ${error.message}`);
  process.exit(1);
}

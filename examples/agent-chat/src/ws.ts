import type { Server } from "node:http";
import { WebSocketServer, type WebSocket } from "ws";
import { ChatRequestError, type Chat } from "./chat.ts";
import { parseClientMessage, updateFor, type ClientMessage, type ServerMessage } from "./protocol.ts";
import type { Store } from "./store.ts";

/** Serves the chat on `/ws`: a snapshot on connect, then every change as it is applied. */
export function attachWebSocket(server: Server, store: Store, chat: Chat): WebSocketServer {
  const wss = new WebSocketServer({ server, path: "/ws" });
  store.subscribe((event, state) => {
    const update = updateFor(event, state);
    if (update) for (const socket of wss.clients) send(socket, update);
  });
  wss.on("connection", (socket) => {
    send(socket, { type: "snapshot", state: store.sync() });
    socket.on("message", (data) => {
      const message = parseClientMessage(data.toString());
      if (!message) {
        send(socket, { type: "error", message: "The server did not understand that request." });
        return;
      }
      try {
        handle(socket, message, chat);
      } catch (error) {
        if (!(error instanceof ChatRequestError)) console.error("agent-chat: request failed:", error);
        send(socket, { type: "error", message: error instanceof Error ? error.message : String(error) });
      }
    });
  });
  return wss;
}

function handle(socket: WebSocket, message: ClientMessage, chat: Chat): void {
  switch (message.type) {
    case "thread.create":
      send(socket, { type: "thread.opened", threadId: chat.createThread(message.projectName, message.title) });
      return;
    case "message.send": {
      const threadId = chat.sendMessage(message.threadId, message.text);
      if (threadId !== message.threadId) send(socket, { type: "thread.opened", threadId });
      return;
    }
    case "turn.stop":
      chat.stopTurn(message.turnId);
      return;
  }
}

function send(socket: WebSocket, message: ServerMessage): void {
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
}

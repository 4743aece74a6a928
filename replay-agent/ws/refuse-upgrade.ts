import { STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import { transferHeaders } from "../wire/json.ts";

/**
 * Answers an upgrade request with a plain HTTP response instead of opening the WebSocket:
 * `status`, the given headers that still apply (content type JSON unless they name one) and
 * `body` as JSON, then ends the connection.
 */
export const refuseUpgrade = (socket: Duplex, status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): void => {
  if (!socket.writable) return;
  const text = JSON.stringify(body);
  const kept = Object.entries(headers).filter(([name]) => !transferHeaders.has(name.toLowerCase()));
  const typed = kept.some(([name]) => name.toLowerCase() === "content-type");
  const lines = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ""}`,
    ...(typed ? [] : ["content-type: application/json"]),
    ...kept.map(([name, value]) => `${name}: ${value}`),
    `content-length: ${Buffer.byteLength(text)}`,
    "connection: close",
  ];
  socket.end(`${lines.join("\r\n")}\r\n\r\n${text}`);
};

import type { Server as HttpServer } from "node:http";
import { createServer as createHttp2Server, type Http2ServerRequest, type Http2ServerResponse } from "node:http2";
import { createServer as createNetServer, type Server as NetServer, type Socket } from "node:net";

/** Handles one request that came over cleartext HTTP/2. */
export type Http2Handler = (request: Http2ServerRequest, response: Http2ServerResponse) => void;

/** The first line of the HTTP/2 connection preface: a client that speaks HTTP/2 with prior knowledge starts with it. */
const preface = Buffer.from("PRI * HTTP/2.0\r\n", "latin1");

/** One listening port for both protocols, and how to drop every connection it holds. */
export interface SharedPort {
  readonly server: NetServer;
  readonly closeConnections: () => void;
}

/**
 * One port for HTTP/1.1 and cleartext HTTP/2 with prior knowledge (h2c), the way the AWS SDK's
 * HTTP/2 client speaks to an http:// endpoint: each connection goes to `http1`, or to an HTTP/2
 * server answering with `handle`, by its first bytes.
 */
export const sharedPort = (http1: HttpServer, handle: Http2Handler): SharedPort => {
  const http2 = createHttp2Server(handle);
  // Tracked here: `http1` never listens itself, so its closeAllConnections knows none of them.
  const sockets = new Set<Socket>();
  const server = createNetServer({ noDelay: true }, (socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
    route(socket, http1, http2);
  });
  return {
    server,
    closeConnections: () => {
      for (const socket of sockets) socket.destroy();
    },
  };
};

/** Reads a connection's first bytes, puts them back, and hands the connection to the server of its protocol. */
const route = (socket: Socket, http1: HttpServer, http2: NetServer) => {
  let head = Buffer.alloc(0);
  const drop = () => socket.destroy();
  const read = (chunk: Buffer) => {
    head = Buffer.concat([head, chunk]);
    const seen = Math.min(head.length, preface.length);
    const isHttp2 = head.subarray(0, seen).equals(preface.subarray(0, seen));
    if (isHttp2 && head.length < preface.length) return;
    socket.off("data", read);
    socket.off("error", drop);
    socket.pause();
    socket.unshift(head);
    if (isHttp2) {
      // The HTTP/2 session reads the bytes put back itself, on its next tick.
      http2.emit("connection", socket);
    } else {
      http1.emit("connection", socket);
      socket.resume();
    }
  };
  socket.on("data", read);
  socket.once("error", drop);
};

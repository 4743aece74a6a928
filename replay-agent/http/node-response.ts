import type { ServerResponse } from "node:http";
import { constants, type Http2ServerResponse } from "node:http2";
import type { HttpResponseWriter } from "../wire/http-response.ts";

/** What the writer needs of a node response, whichever protocol it came over. */
interface NodeResponse {
  readonly headersSent: boolean;
  readonly closed: boolean;
  writeHead(status: number, headers: Readonly<Record<string, string>>): void;
  flushHeaders(): void;
  write(chunk: string | Uint8Array, written: () => void): void;
  end(text: string | undefined): void;
  onceClosed(listener: () => void): void;
  offClosed(listener: () => void): void;
  /** Cuts the answer off, after what was already written. */
  drop(): void;
}

const http1Response = (response: ServerResponse): NodeResponse => ({
  get headersSent() {
    return response.headersSent;
  },
  get closed() {
    return response.destroyed || response.writableEnded;
  },
  writeHead: (status, headers) => response.writeHead(status, headers),
  flushHeaders: () => response.flushHeaders(),
  write: (chunk, written) => response.write(chunk, written),
  end: (text) => (text === undefined ? response.end() : response.end(text)),
  onceClosed: (listener) => response.once("close", listener),
  offClosed: (listener) => response.off("close", listener),
  drop: () => {
    // End the socket rather than destroying it, so the frames already written reach the app before the connection drops.
    const socket = response.socket;
    if (socket === null) response.destroy();
    else socket.end();
  },
});

/** Headers about one HTTP/1.1 connection, which HTTP/2 forbids (node drops them with a warning). */
const connectionHeaders: ReadonlySet<string> = new Set(["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade"]);

const http2Response = (response: Http2ServerResponse): NodeResponse => ({
  get headersSent() {
    return response.headersSent;
  },
  get closed() {
    return response.stream.destroyed || response.writableEnded;
  },
  writeHead: (status, headers) =>
    response.writeHead(status, Object.fromEntries(Object.entries(headers).filter(([name]) => !connectionHeaders.has(name.toLowerCase())))),
  flushHeaders: () => {
    if (!response.headersSent) response.writeHead(response.statusCode);
  },
  write: (chunk, written) => response.write(chunk, written),
  end: (text) => (text === undefined ? response.end() : response.end(text)),
  onceClosed: (listener) => response.once("close", listener),
  offClosed: (listener) => response.off("close", listener),
  // Reset the stream, so the app sees it cut off rather than ended.
  drop: () => response.stream.close(constants.NGHTTP2_INTERNAL_ERROR),
});

/**
 * node's ServerResponse (HTTP/1.1) or Http2ServerResponse as a writer that ignores writes after
 * the app went away, the answer ended or the connection was dropped.
 */
export const nodeResponseWriter = (node: ServerResponse | Http2ServerResponse): HttpResponseWriter => {
  const response = "stream" in node ? http2Response(node) : http1Response(node);
  let dropped = false;
  const open = () => !dropped && !response.closed;
  return {
    get headersSent() {
      return response.headersSent;
    },
    writeHead: (status, headers) => {
      if (open() && !response.headersSent) response.writeHead(status, headers);
    },
    flushHeaders: () => {
      if (open()) response.flushHeaders();
    },
    write: (chunk, written) => {
      if (!open()) return written?.();
      // Whichever comes first: the write's callback, or the connection closing under it.
      let called = false;
      const done = () => {
        response.offClosed(done);
        if (!called) written?.();
        called = true;
      };
      response.onceClosed(done);
      response.write(chunk, done);
    },
    end: (text) => {
      if (open()) response.end(text);
    },
    destroy: () => {
      if (dropped) return;
      dropped = true;
      response.drop();
    },
    onClose: (closed) => {
      if (response.closed) {
        closed();
        return () => undefined;
      }
      response.onceClosed(closed);
      return () => response.offClosed(closed);
    },
  };
};

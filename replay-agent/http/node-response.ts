import type { ServerResponse } from "node:http";
import type { HttpResponseWriter } from "../wire/http-response.ts";

/** node's ServerResponse as a writer that ignores writes after the app went away, the answer ended or the connection was dropped. */
export const nodeResponseWriter = (response: ServerResponse): HttpResponseWriter => {
  let dropped = false;
  const open = () => !dropped && !response.destroyed && !response.writableEnded;
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
      if (written === undefined) return void response.write(chunk);
      // Whichever comes first: the write's callback, or the connection closing under it.
      let called = false;
      const done = () => {
        response.off("close", done);
        if (!called) written();
        called = true;
      };
      response.once("close", done);
      response.write(chunk, done);
    },
    end: (text) => {
      if (open()) response.end(text);
    },
    destroy: () => {
      if (dropped) return;
      dropped = true;
      // End the socket rather than destroying it, so the frames already written reach the app before the connection drops.
      const socket = response.socket;
      if (socket === null) response.destroy();
      else socket.end();
    },
    onClose: (closed) => {
      if (response.destroyed) {
        closed();
        return () => undefined;
      }
      response.once("close", closed);
      return () => response.off("close", closed);
    },
  };
};

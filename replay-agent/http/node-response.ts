import type { ServerResponse } from "node:http";
import type { HttpResponseWriter } from "../wire/http-response.ts";

/** node's ServerResponse as a writer that ignores writes after the app went away or the answer ended. */
export const nodeResponseWriter = (response: ServerResponse): HttpResponseWriter => {
  const open = () => !response.destroyed && !response.writableEnded;
  return {
    get headersSent() {
      return response.headersSent;
    },
    writeHead: (status, headers) => {
      if (open() && !response.headersSent) response.writeHead(status, headers);
    },
    write: (text) => {
      if (open()) response.write(text);
    },
    end: (text) => {
      if (open()) response.end(text);
    },
    destroy: () => {
      response.destroy();
    },
  };
};

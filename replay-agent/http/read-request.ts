import type { IncomingMessage } from "node:http";
import { Effect } from "effect";

/** A request as expect_outbound patterns see it; `body` is the parsed JSON body (raw text if it is not JSON, undefined if empty). */
export interface HttpRequest {
  readonly method: string;
  readonly path: string;
  readonly body: unknown;
}

const parseBody = (text: string): unknown => {
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

/** Reads the whole body of `request`; an aborted upload yields what arrived. */
export const readRequest = (request: IncomingMessage): Effect.Effect<HttpRequest> =>
  Effect.callback<HttpRequest>((resume) => {
    const chunks: Array<Buffer> = [];
    const finish = () =>
      resume(
        Effect.succeed({
          method: request.method ?? "GET",
          path: request.url ?? "/",
          body: parseBody(Buffer.concat(chunks).toString("utf8")),
        }),
      );
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.once("end", finish);
    request.once("error", finish);
  });

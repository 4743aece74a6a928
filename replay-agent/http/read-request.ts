import type { IncomingMessage } from "node:http";
import type { Http2ServerRequest } from "node:http2";
import * as Effect from "effect/Effect";

/** A request as expect_outbound patterns see it; `body` is the parsed JSON body (raw text if it is not JSON, undefined if empty). */
export interface HttpRequest {
  readonly method: string;
  readonly path: string;
  readonly body: unknown;
}

/** A body as patterns see it: its JSON, the raw text when it is not JSON, undefined when empty. */
export const parseBody = (text: string): unknown => {
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

/** Reads the whole raw body of `request`; an aborted upload yields what arrived. */
export const readBody = (request: IncomingMessage | Http2ServerRequest): Effect.Effect<Buffer> =>
  Effect.callback<Buffer>((resume) => {
    const chunks: Array<Buffer> = [];
    const finish = () => resume(Effect.succeed(Buffer.concat(chunks)));
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.once("end", finish);
    request.once("error", finish);
  });

/** Reads the whole body of `request` as patterns see it. */
export const readRequest = (request: IncomingMessage | Http2ServerRequest): Effect.Effect<HttpRequest> =>
  readBody(request).pipe(
    Effect.map((body) => ({ method: request.method ?? "GET", path: request.url ?? "/", body: parseBody(body.toString("utf8")) })),
  );

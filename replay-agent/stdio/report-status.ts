import { request as httpRequest, type ClientRequest } from "node:http";
import * as Effect from "effect/Effect";
import * as Stream from "effect/Stream";
import type * as Scope from "effect/Scope";
import type { ReplayRuntime } from "../runtime/replay-runtime.ts";
import { formatNdjsonLine } from "../wire/ndjson.ts";

/** One line of a stdio agent's report: where its control routes are, or its status and requests after a change. */
export type StatusReport =
  | { readonly control: string }
  | {
      readonly status: Effect.Success<ReplayRuntime<unknown>["status"]>;
      readonly requests: Effect.Success<ReplayRuntime<unknown>["requests"]>;
    };

const open = (url: string, log: (line: string) => void) =>
  Effect.sync(() => {
    const request = httpRequest(url, { method: "POST", headers: { "content-type": "application/x-ndjson" } });
    request.on("error", (error) => log(`replay-agent: cannot report status to ${url}: ${error.message}`));
    request.on("response", (response) => response.resume());
    request.flushHeaders();
    return request;
  });

/** Ends the report and waits until the listener has read it all (or the connection is gone). */
const finish = (request: ClientRequest, last: string) =>
  Effect.callback<void>((resume) => {
    if (request.destroyed) {
      resume(Effect.void);
      return;
    }
    request.once("close", () => resume(Effect.void));
    request.end(last);
  });

/**
 * Reports a stdio agent to the process that handed its command to the app (`--notify <url>`):
 * one POST whose NDJSON body is the control URL, then the status and requests after every
 * change, and a last snapshot when the scope closes. The listener thus keeps the final status
 * even after the agent exits; a listener that is gone is logged and otherwise ignored.
 */
export const reportStatus = Effect.fn("reportStatus")(function* (
  url: string,
  controlUrl: string,
  runtime: ReplayRuntime<unknown>,
  log: (line: string) => void,
): Effect.fn.Return<void, never, Scope.Scope> {
  const snapshot = Effect.all({ status: runtime.status, requests: runtime.requests }).pipe(Effect.map((report): StatusReport => report));
  const request = yield* Effect.acquireRelease(open(url, log), (request) =>
    snapshot.pipe(Effect.flatMap((report) => finish(request, formatNdjsonLine(report)))),
  );
  const send = (report: StatusReport) =>
    Effect.sync(() => {
      if (!request.destroyed) request.write(formatNdjsonLine(report));
    });
  yield* send({ control: controlUrl });
  yield* runtime.changes.pipe(
    Stream.runForEach(() => snapshot.pipe(Effect.flatMap(send))),
    Effect.forkScoped,
  );
  yield* snapshot.pipe(Effect.flatMap(send));
});

import * as Effect from "effect/Effect";
import type { ReplayRuntime } from "../runtime/replay-runtime.ts";
import type { HttpResponseWriter } from "../wire/http-response.ts";
import { writeJsonResponse } from "../wire/json.ts";

/** Paths under this prefix control the replay agent and are never matched against the transcript. */
export const controlPrefix = "/__replay/";

const routes = `GET ${controlPrefix}status, GET ${controlPrefix}paused?name=<pause> or POST ${controlPrefix}resume[?name=<pause>]`;

/**
 * `GET /__replay/status`, `POST /__replay/resume` (`?name=<pause>` when several are held), and `GET /__replay/paused?name=<pause>`,
 * which answers once the transcript is held at that pause (409 with the reason if it never
 * will be), so another process can wait for a pause without polling.
 */
export const handleControl = <Req>(
  runtime: ReplayRuntime<Req>,
  method: string,
  path: string,
  response: HttpResponseWriter,
): Effect.Effect<void> => {
  const url = new URL(path, "http://127.0.0.1");
  const route = `${method} ${url.pathname}`;
  switch (route) {
    case `GET ${controlPrefix}status`:
      return runtime.status.pipe(Effect.map((status) => writeJsonResponse(response, 200, status)));
    case `POST ${controlPrefix}resume`:
      return runtime.resume(url.searchParams.get("name") || undefined).pipe(
        Effect.match({
          onSuccess: ({ name, line }) => writeJsonResponse(response, 200, { resumed: name, line }),
          onFailure: (error) =>
            writeJsonResponse(response, 409, {
              error: { type: "replay_not_paused", message: error.message, next: error.next, held: error.held ?? [] },
            }),
        }),
      );
    case `GET ${controlPrefix}paused`: {
      const name = url.searchParams.get("name");
      if (name === null || name === "") {
        return Effect.sync(() =>
          writeJsonResponse(response, 400, {
            error: { type: "replay_bad_control_request", message: `name the pause: GET ${controlPrefix}paused?name=<pause>` },
          }),
        );
      }
      return runtime.awaitPause(name).pipe(
        Effect.match({
          onSuccess: ({ line }) => writeJsonResponse(response, 200, { paused: name, line }),
          onFailure: (error) =>
            writeJsonResponse(response, 409, { error: { type: "replay_pause_not_reached", message: error.message, reason: error.reason } }),
        }),
      );
    }
    default:
      return Effect.sync(() =>
        writeJsonResponse(response, 404, {
          error: { type: "replay_unknown_control_route", message: `${route} is not a replay-agent control route; use ${routes}` },
        }),
      );
  }
};

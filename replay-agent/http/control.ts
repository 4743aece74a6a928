import { Effect } from "effect";
import type { ReplayRuntime } from "../runtime/replay-runtime.ts";
import type { HttpResponseWriter } from "../wire/http-response.ts";
import { writeJsonResponse } from "../wire/json.ts";
import type { HttpRequest } from "./read-request.ts";

/** Paths under this prefix control the replay agent and are never matched against the transcript. */
export const controlPrefix = "/__replay/";

/** `GET /__replay/status` and `POST /__replay/resume`. */
export const handleControl = (
  runtime: ReplayRuntime<HttpRequest>,
  method: string,
  path: string,
  response: HttpResponseWriter,
): Effect.Effect<void> => {
  const route = `${method} ${path.split("?")[0] ?? path}`;
  switch (route) {
    case `GET ${controlPrefix}status`:
      return runtime.status.pipe(Effect.map((status) => writeJsonResponse(response, 200, status)));
    case `POST ${controlPrefix}resume`:
      return runtime.resume.pipe(
        Effect.match({
          onSuccess: (name) => writeJsonResponse(response, 200, { resumed: name }),
          onFailure: (error) =>
            writeJsonResponse(response, 409, { error: { type: "replay_not_paused", message: error.message } }),
        }),
      );
    default:
      return Effect.sync(() =>
        writeJsonResponse(response, 404, {
          error: {
            type: "replay_unknown_control_route",
            message: `${route} is not a replay-agent control route; use GET ${controlPrefix}status or POST ${controlPrefix}resume`,
          },
        }),
      );
  }
};

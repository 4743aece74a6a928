import * as DateTime from "effect/DateTime";
import * as Effect from "effect/Effect";
import type { Provider } from "../transcript/providers.ts";
import type { Redactor } from "./redact.ts";
import type { RecordedLine } from "./transcript-file.ts";

/** The meta line a recording starts with: its provider, the model and client seen (redacted), when, and `source: "recorded"`. */
export const recordedMeta = (
  provider: Provider,
  seen: { readonly model: string | undefined; readonly client: string | undefined },
  redactor: Redactor,
): Effect.Effect<RecordedLine> =>
  Effect.map(DateTime.now, (now) => ({
    type: "meta",
    format: "replay-transcript",
    version: 1,
    provider,
    ...(seen.model === undefined ? {} : { model: redactor.text(seen.model) }),
    ...(seen.client === undefined ? {} : { client: redactor.text(seen.client) }),
    capturedAt: DateTime.formatIso(now),
    source: "recorded",
  }));

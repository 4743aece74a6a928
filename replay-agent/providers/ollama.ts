import { httpFraming, stillOpen } from "./http-framing.ts";
import type { HttpProviderFormat } from "./provider-format.ts";

// PLACEHOLDER (replaced by the ollama profile's own rules): ndjson frames, any order, no terminator checked.
export const ollama: HttpProviderFormat = {
  checkFraming: httpFraming({
    kinds: ["ndjson"],
    ending: null,
    endingExample: '{"type":"emit_inbound","ndjson":{}}',
    open: () => () => stillOpen,
  }),
  credentials: undefined,
};

import { httpFraming, stillOpen } from "./http-framing.ts";
import type { HttpProviderFormat } from "./provider-format.ts";

// PLACEHOLDER (replaced by the bedrock profile's own rules): eventstream frames, any order, no terminator checked.
export const bedrock: HttpProviderFormat = {
  checkFraming: httpFraming({
    kinds: ["eventstream"],
    ending: null,
    endingExample: '{"type":"emit_inbound","eventstream":{}}',
    open: () => () => stillOpen,
  }),
  credentials: undefined,
};

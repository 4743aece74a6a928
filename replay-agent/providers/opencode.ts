import { httpFraming, stillOpen } from "./http-framing.ts";
import type { HttpProviderFormat } from "./provider-format.ts";

// PLACEHOLDER (replaced by the opencode profile's own rules): sse frames, any order, no terminator checked.
export const opencode: HttpProviderFormat = {
  checkFraming: httpFraming({
    kinds: ["sse"],
    ending: null,
    endingExample: '{"type":"emit_inbound","sse":{}}',
    open: () => () => stillOpen,
  }),
  credentials: undefined,
};

import * as Predicate from "effect/Predicate";
import type { WebSocketProvider } from "../transcript/providers.ts";

/**
 * A message the app sent on a WebSocket provider's connection, as the pattern its expect_outbound
 * records: the message whole, but for what the app's client picks afresh on every run, which
 * would never match again.
 */
export type WebSocketMessagePattern = (message: unknown) => unknown;

/**
 * A Realtime client event's optional `event_id` is the client's own choice (a fresh random id on
 * every run, when the app sends one), so it is recorded as `{"$any":true}`. Ids the server chose
 * (an `item_id`, a `previous_item_id`) are replayed as recorded, so the app sends them back the
 * same: those are kept as written.
 */
const openAiRealtime: WebSocketMessagePattern = (message) =>
  Predicate.isObject(message) && typeof message["event_id"] === "string" ? { ...message, event_id: { $any: true } } : message;

export const webSocketMessagePatterns: { readonly [P in WebSocketProvider]: WebSocketMessagePattern } = {
  "openai-realtime": openAiRealtime,
};

import * as Predicate from "effect/Predicate";
import { exchangesOf } from "../transcript/exchanges.ts";
import type { Transcript } from "../transcript/transcript.ts";
import { endsWith, httpFraming, sseOnly, stillOpen, violation, type FrameVerdict, type StreamRules } from "./http-framing.ts";
import type { FramingCheck, HttpProviderFormat } from "./provider-format.ts";

/**
 * OpenCode's server (`opencode serve`, what `@opencode-ai/sdk` talks to): REST routes answered
 * with JSON (`POST /session`, `POST /session/{id}/message`, `POST /session/{id}/abort`, …) and
 * two event streams the server never ends on its own. `GET /event` writes data-only server-sent
 * events, `{"type":…,"properties":{…}}`, starting with `server.connected`; `GET /global/event`
 * wraps each in `{"directory":…,"payload":{…}}`. The SDK's SSE client yields each event's parsed
 * data and drops the event name; it does not reconnect when a stream ends, so an app sees its
 * subscription end with the answer unless the transcript holds it open.
 */

/** Which event stream an answer is: a literal path under /global/event is the global one, any other the instance's. */
type EventShape = "event" | "global";

const connected = '{"type":"server.connected","properties":{}}';

/** The event inside one frame's data, or why the data is not one: `{type, properties}`, wrapped in `payload` on the global stream. */
const eventOf = (data: Readonly<Record<string, unknown>>, shape: EventShape): { readonly type: string } | { readonly problem: string } => {
  const event = shape === "global" ? data["payload"] : data;
  const where = shape === "global" ? "payload." : "";
  if (shape === "global") {
    if (!Predicate.isObject(event)) return { problem: 'a global event needs "payload": the instance event it carries' };
    if (Object.hasOwn(data, "directory") && typeof data["directory"] !== "string") {
      return { problem: `"directory" must be the instance's directory, a string; got ${JSON.stringify(data["directory"])}` };
    }
  }
  if (!Predicate.isObject(event)) return { problem: "an event must be a JSON object" };
  if (typeof event["type"] !== "string") return { problem: `"${where}type" must be the event's type, a string like "session.idle"` };
  if (!Predicate.isObject(event["properties"])) {
    return { problem: `"${where}properties" must be an object (OpenCode sends {} when an event has none), in ${event["type"]}` };
  }
  return { type: event["type"] };
};

const fixOf = (shape: EventShape): string =>
  shape === "global"
    ? 'Write the event as the server sent it, like {"sse":{"data":{"directory":"/home/dev/app","payload":{"type":"session.idle","properties":{"sessionID":"ses_…"}}}}}'
    : 'Write the event as the server sent it, like {"sse":{"data":{"type":"session.idle","properties":{"sessionID":"ses_…"}}}}';

/** The rules of one event stream: data-only events of OpenCode's shape, server.connected first, nothing after the instance is disposed. */
const eventStream = (shape: EventShape): StreamRules => ({
  kinds: ["sse"],
  ending: null,
  endingExample:
    '{"type":"emit_inbound","sse":{"data":{"type":"session.idle","properties":{"sessionID":"ses_…"}}}} (or {"type":"hold"} to keep it open)',
  open: sseOnly(() => {
    let first = true;
    return (frame): FrameVerdict => {
      if (frame.event !== undefined) {
        return violation(
          `an event named "${frame.event}": OpenCode's server writes data-only events, their type inside the data, and the SDK drops the name`,
          `Remove "event"; the type belongs in the data. ${fixOf(shape)}`,
        );
      }
      if (frame.data === "[DONE]") {
        return violation(
          '"[DONE]": OpenCode\'s event stream has no terminator, and the SDK would hand the app the string "[DONE]" as an event',
          'Remove it. To keep the stream open as the server does, end the answer with {"type":"hold"}',
        );
      }
      const event = eventOf(frame.data, shape);
      if ("problem" in event) return violation(`not an OpenCode event: ${event.problem}`, fixOf(shape));
      if (first && event.type !== "server.connected") {
        return violation(
          `the event stream starts with ${event.type}, but OpenCode's server writes server.connected first, as soon as the app subscribes`,
          `Add the first event above it: {"type":"emit_inbound","sse":{"data":${shape === "global" ? `{"payload":${connected}}` : connected}}}`,
        );
      }
      first = false;
      // The instance's stream stops after telling the app the instance is gone.
      return shape === "event" && event.type === "server.instance.disposed" ? endsWith("server.instance.disposed") : stillOpen;
    };
  }),
});

const checkEvents = httpFraming(eventStream("event"));
const checkGlobalEvents = httpFraming(eventStream("global"));

const isGlobalStream = (path: unknown): boolean => typeof path === "string" && /^\/global\/event(\?|$)/.test(path);

/** Checks each exchange with the rules of the stream its path names; the first problem in the file wins. */
const checkFraming: FramingCheck = (transcript) => {
  const exchanges = exchangesOf(transcript);
  const only = (global: boolean): Transcript => ({
    ...transcript,
    entries: exchanges
      .filter(({ request }) => isGlobalStream(request.request?.path) === global)
      .flatMap(({ request, answer }) => [request, ...answer]),
  });
  const problems = [checkEvents(only(false)), checkGlobalEvents(only(true))].flatMap((problem) => problem ?? []);
  return problems.reduce<(typeof problems)[number] | undefined>(
    (first, next) => (first === undefined || next.line < first.line ? next : first),
    undefined,
  );
};

/** OpenCode's server takes no key: it listens on the user's own machine (a password, when set, is the app's business). */
// The OpenCode server runs on the app's machine, and its SDK takes its URL: there is no host to route.
export const opencode: HttpProviderFormat = { checkFraming, credentials: undefined, hosts: [] };

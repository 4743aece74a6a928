import { providerTransport, type Provider } from "./providers.ts";
import type { DecodedLine } from "./parse-line.ts";
import type { LineType } from "./schema.ts";
import { writeItLike } from "./examples.ts";

/** What is wrong with a line for its transport, and what to write instead. */
export interface RuleViolation {
  readonly problem: string;
  readonly fix: string;
}

const has = (value: object, key: string): boolean => Object.hasOwn(value, key);

/** The fields of an emit_inbound line that carry one streamed HTTP frame. */
const streamFields = ["sse", "ndjson", "eventstream"];

/**
 * Which fields a line needs on this transport: HTTP speaks `request` and `sse`/`ndjson`/`eventstream`/`head`/`response`,
 * stdio speaks `message` (and `spawn`, the agent's arguments), and a WebSocket provider `request` (the connection's upgrade) or `message` both ways.
 */
export const transportViolation = (line: DecodedLine, provider: Provider): RuleViolation | undefined => {
  const transport = providerTransport[provider];
  const violation = (problem: string, type: LineType = line.type): RuleViolation => ({
    problem,
    fix: writeItLike(type, provider),
  });
  switch (line.type) {
    case "expect_outbound":
      if (has(line, "lane") && has(line, "unordered")) {
        return violation('expect_outbound has both "lane" and "unordered": an unordered expectation is a lane of its own');
      }
      if (has(line, "spawn")) {
        if (transport !== "stdio")
          return violation('"spawn" states the arguments of a stdio agent the app starts; this provider is not one');
        const timing = ["message", "request", "lane", "unordered", "times", "optional"].filter((key) => has(line, key));
        return timing.length === 0
          ? undefined
          : violation(`expect_outbound with "spawn" is matched once, when the app starts the agent, and takes no ${describeKinds(timing)}`);
      }
      if (transport === "http" && (!has(line, "request") || has(line, "message"))) {
        return violation('expect_outbound of an HTTP provider needs "request" (and no "message")');
      }
      if (transport === "stdio" && (!has(line, "message") || has(line, "request"))) {
        return violation('expect_outbound of a stdio provider needs "message" (and no "request"), or "spawn" alone');
      }
      if (transport === "websocket" && has(line, "message") === has(line, "request")) {
        return violation(
          'expect_outbound of a WebSocket provider needs "request" (the connection the app opens) or "message" (one it sends on it), one of them',
        );
      }
      return undefined;
    case "emit_inbound": {
      const kinds = [...streamFields, "head", "response", "message"].filter((key) => has(line, key));
      if (transport === "http" && (kinds.length !== 1 || kinds[0] === "message")) {
        return violation(
          `emit_inbound of an HTTP provider needs exactly one of "sse", "ndjson", "eventstream", "head" or "response", got ${describeKinds(kinds)}`,
        );
      }
      const writes = ["cut", "join"].filter((key) => has(line, key));
      if (writes.length > 0 && !streamFields.includes(kinds[0] ?? "")) {
        return violation(
          `${describeKinds(writes)} only shape the writes of a streamed frame ("sse", "ndjson" or "eventstream"), and this line has ${describeKinds(kinds)}`,
        );
      }
      if (transport !== "http" && (kinds.length !== 1 || kinds[0] !== "message")) {
        return violation(`emit_inbound of a ${transport} provider needs "message" alone, got ${describeKinds(kinds)}`);
      }
      return undefined;
    }
    case "exit":
      return transport !== "stdio"
        ? {
            problem: "exit only ends a stdio agent process",
            fix: 'For an HTTP provider end the transcript, or drop the connection with {"type":"disconnect"}',
          }
        : undefined;
    case "disconnect":
      return transport === "stdio"
        ? {
            problem: "disconnect drops an HTTP connection; a stdio agent ends by exiting",
            fix: 'End the agent process with {"type":"exit","code":1}',
          }
        : undefined;
    case "fail":
      return transport === "stdio"
        ? {
            problem: "fail answers an HTTP request with an error status",
            fix: 'Answer with a JSON-RPC error instead: {"type":"emit_inbound","message":{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"failed"}}}',
          }
        : undefined;
    case "hold":
      return transport === "stdio"
        ? {
            problem:
              "hold keeps an answer's connection open, and a stdio agent's answers have none: it keeps talking until it exits or the app closes its stdin",
            fix: 'Remove the hold: the agent stays up after its last line. To end it, use {"type":"exit","code":0}',
          }
        : undefined;
    default:
      return undefined;
  }
};

const describeKinds = (kinds: ReadonlyArray<string>): string =>
  kinds.length === 0 ? "none of them" : kinds.map((kind) => `"${kind}"`).join(" and ");

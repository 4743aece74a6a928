import { TranscriptError } from "../errors.ts";
import type { EventStreamFrame } from "../transcript/schema.ts";
import type { Transcript } from "../transcript/transcript.ts";
import type { StreamFrame } from "../wire/stream-frame.ts";
import { endsWith, httpFraming, stillOpen, violation, type FrameVerdict } from "./http-framing.ts";
import type { FramingCheck, HttpProviderFormat } from "./provider-format.ts";

/**
 * The bedrock wire format (Amazon Bedrock Runtime, AWS restJson1). `POST /model/<modelId>/converse`
 * answers one JSON body. `converse-stream` and `invoke-with-response-stream` answer AWS event-stream
 * binary messages, each with string headers `:message-type` (`event`, `exception` or `error`), its
 * `:event-type` or `:exception-type`, and `:content-type`, and a JSON payload. The SDK reads a
 * message by its `:message-type` and the union member its `:event-type` names, silently skips an
 * event it does not know, and throws the typed exception an `exception` message names. A stream
 * needs no terminator: it ends with the HTTP body, so ConverseStream's closing `metadata` event is
 * the provider's habit, not the SDK's need. An HTTP error is typed by its `x-amzn-errortype` header
 * (or the body's `code` or `__type`), its message read from the body's `message`.
 */

const contentType = "application/json";

const metadataExample =
  '{"type":"emit_inbound","eventstream":{"headers":{":event-type":"metadata",":content-type":"application/json",":message-type":"event"},"payload":{"usage":{"inputTokens":12,"outputTokens":6,"totalTokens":18},"metrics":{"latencyMs":512}}}}';

/** The events of ConverseStream's output union, in the order a stream sends them. */
const converseEvents = ["messageStart", "contentBlockStart", "contentBlockDelta", "contentBlockStop", "messageStop", "metadata"];

/** The exceptions each streaming operation's union names (`:exception-type`); the SDK throws its typed error for these alone. */
const converseExceptions = [
  "internalServerException",
  "modelStreamErrorException",
  "validationException",
  "throttlingException",
  "serviceUnavailableException",
];
const invokeExceptions = [...converseExceptions, "modelTimeoutException"];

type Payload = EventStreamFrame["payload"];

const isObject = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const quoted = (names: ReadonlyArray<string>) => names.map((name) => `"${name}"`).join(", ");

/** The name the SDK's union gives an exception written in another case, e.g. ThrottlingException → throttlingException. */
const memberName = (type: string) => `${type.charAt(0).toLowerCase()}${type.slice(1)}`;

/** Checks the headers every message needs, and the exception or error message that ends a stream. */
const checkMessage = (
  headers: Readonly<Record<string, string>>,
  payload: Payload,
  exceptions: ReadonlyArray<string>,
): FrameVerdict | undefined => {
  const messageType = headers[":message-type"];
  if (messageType === undefined) {
    return violation(
      "an event-stream message without a :message-type header, which the AWS SDK reads first (it fails with a TypeError without it)",
      'Add ":message-type":"event" to its headers ("exception" for an error the stream raises)',
    );
  }
  if (messageType === "error") {
    if (headers[":error-code"] === undefined || headers[":error-message"] === undefined) {
      return violation(
        "an error message without both :error-code and :error-message headers, which the AWS SDK reads to name the error",
        'Add ":error-code" and ":error-message" headers, or write it as an exception: ":message-type":"exception" with its ":exception-type"',
      );
    }
    return endsWith(`the ${headers[":error-code"]} error`);
  }
  if (messageType !== "event" && messageType !== "exception") {
    return violation(
      `:message-type "${messageType}", which the AWS SDK does not know (it throws "Unrecognizable event type")`,
      'Use "event", or "exception" with an ":exception-type" for an error the stream raises',
    );
  }
  if (headers[":content-type"] !== contentType) {
    return violation(
      headers[":content-type"] === undefined
        ? `a ${messageType} without the :content-type header Bedrock sends on every message`
        : `:content-type "${headers[":content-type"]}", but the payload is written as JSON`,
      `Set ":content-type":"${contentType}"`,
    );
  }
  if (messageType === "event") return undefined;
  const exception = headers[":exception-type"];
  if (exception === undefined) {
    return violation(
      "an exception without an :exception-type header, which the AWS SDK needs to raise it",
      `Add ":exception-type", one of ${quoted(exceptions)}`,
    );
  }
  if (!exceptions.includes(exception)) {
    const named = exceptions.includes(memberName(exception)) ? `"${memberName(exception)}"` : `one of ${quoted(exceptions)}`;
    return violation(
      `:exception-type "${exception}", which this stream's union does not name: the AWS SDK raises a plain Error for it, not its typed exception`,
      `Name it as the union member Bedrock sends: ${named}`,
    );
  }
  if (typeof payload["message"] !== "string") {
    return violation(
      `a ${exception} without a string "message", which the AWS SDK shows as "Unknown"`,
      'Keep the payload Bedrock sent, like {"message":"Too many tokens, please wait before trying again."}',
    );
  }
  return endsWith(`the ${exception} exception`);
};

/** Whether `text` is standard base64, as Bedrock writes a chunk's bytes. */
const isBase64 = (text: string) => text.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(text);

/** Checks one InvokeModelWithResponseStream chunk: its payload carries the model's own JSON, base64-encoded in "bytes". */
const checkChunk = (payload: Payload): FrameVerdict => {
  const bytes = payload["bytes"];
  const fix = 'Put the model\'s own event JSON in "bytes", base64-encoded, as Bedrock does: {"bytes":"eyJ0eXBlIjoibWVzc2FnZV9zdG9wIn0="}';
  if (typeof bytes !== "string" || !isBase64(bytes))
    return violation('a chunk without base64 "bytes", which the AWS SDK decodes for the app', fix);
  try {
    JSON.parse(Buffer.from(bytes, "base64").toString("utf8"));
  } catch {
    return violation('a chunk whose "bytes" are not base64 of JSON: the model\'s own event is JSON', fix);
  }
  return stillOpen;
};

const blockIndexOf = (payload: Payload): number | undefined => {
  const index = payload["contentBlockIndex"];
  return typeof index === "number" && Number.isInteger(index) && index >= 0 ? index : undefined;
};

/** Checks ConverseStream's events in order: messageStart, content blocks opened and closed in index order, messageStop, metadata. */
const converseChecker = () => {
  let started = false;
  let stopped = false;
  let open: { readonly index: number; readonly toolUse: boolean } | null = null;
  let nextBlock = 0;
  return (event: string, payload: Payload): FrameVerdict => {
    if (!started) {
      if (event !== "messageStart") {
        return violation(
          `the stream starts with ${event}, not messageStart`,
          'Start it with the messageStart event Bedrock sent, {"role":"assistant"}',
        );
      }
      started = true;
      return typeof payload["role"] === "string"
        ? stillOpen
        : violation('a messageStart without its "role"', 'Keep the payload Bedrock sent: {"role":"assistant"}');
    }
    if (stopped && event !== "metadata") {
      return violation(`${event} after messageStop: only the metadata event follows it`, "Move it above messageStop, or remove it");
    }
    if (event === "messageStart") {
      return violation("a second messageStart in one stream", "Answer the next message under its own expect_outbound line");
    }
    if (event === "messageStop" || event === "metadata") {
      if (open !== null) {
        return violation(
          `${event} while content block ${open.index} is still open`,
          `Close it first with a contentBlockStop event, {"contentBlockIndex":${open.index}}`,
        );
      }
      if (event === "metadata") {
        if (!stopped)
          return violation("metadata before messageStop", "Move the metadata event below messageStop: it is the stream's last event");
        return isObject(payload["usage"])
          ? endsWith("metadata")
          : violation('a metadata event without its "usage"', `Keep the payload Bedrock sent, like ${metadataExample}`);
      }
      stopped = true;
      return typeof payload["stopReason"] === "string"
        ? stillOpen
        : violation('a messageStop without its "stopReason"', 'Keep the payload Bedrock sent, like {"stopReason":"end_turn"}');
    }
    const index = blockIndexOf(payload);
    if (index === undefined) {
      return violation(
        `a ${event} without a whole-number "contentBlockIndex"`,
        'Keep the payload Bedrock sent, like {"contentBlockIndex":0,…}',
      );
    }
    if (event === "contentBlockStart") {
      if (open !== null) {
        return violation(
          `content block ${index} starts while block ${open.index} is still open`,
          `Close block ${open.index} with contentBlockStop first`,
        );
      }
      if (index !== nextBlock) {
        return violation(
          `content block ${index} starts out of order: the next block is ${nextBlock}`,
          "Number content blocks 0, 1, 2, … in the order they start",
        );
      }
      const start = payload["start"];
      if (!isObject(start)) {
        return violation(
          'a contentBlockStart without its "start"',
          'Keep the payload Bedrock sent, like {"start":{"toolUse":{"toolUseId":"tooluse_…","name":"read_file"}},"contentBlockIndex":1}',
        );
      }
      open = { index, toolUse: isObject(start["toolUse"]) };
      nextBlock++;
      return stillOpen;
    }
    if (event === "contentBlockDelta") {
      const delta = payload["delta"];
      if (!isObject(delta))
        return violation(
          'a contentBlockDelta without its "delta"',
          'Keep the payload Bedrock sent, like {"contentBlockIndex":0,"delta":{"text":"Hello"}}',
        );
      if (open === null && index === nextBlock) {
        // Bedrock opens a text block with its first delta: it sends no contentBlockStart for text.
        open = { index, toolUse: false };
        nextBlock++;
      }
      if (open?.index !== index) {
        const state = open === null ? "no block is open" : `the open block is ${open.index}`;
        return violation(
          `contentBlockDelta for content block ${index}, which is not open (${state})`,
          "Give a delta the index of the open block, or of the next block to start",
        );
      }
      if (isObject(delta["toolUse"]) && !open.toolUse) {
        return violation(
          `a toolUse delta in content block ${index}, which no contentBlockStart with a toolUse opened: the app learns the tool's name and id from it`,
          `Open block ${index} with the contentBlockStart event Bedrock sent, {"start":{"toolUse":{"toolUseId":"tooluse_…","name":"…"}},"contentBlockIndex":${index}}`,
        );
      }
      return stillOpen;
    }
    if (open?.index !== index) {
      const state = open === null ? "no block is open" : `the open block is ${open.index}`;
      return violation(`contentBlockStop for content block ${index}, which is not open (${state})`, "Close the open block only, once");
    }
    open = null;
    return stillOpen;
  };
};

/** Checks one stream's messages: their headers, then ConverseStream's events in order or InvokeModelWithResponseStream's chunks. */
const checkStream = () => {
  let operation: "converse" | "invoke" | undefined;
  const converse = converseChecker();
  return (frame: StreamFrame): FrameVerdict => {
    if (frame.kind !== "eventstream")
      return violation(`a ${frame.kind} frame in a Bedrock stream`, 'Write it as {"eventstream":{"headers":{…},"payload":{…}}}');
    const { headers, payload } = frame.frame;
    const exceptions = operation === "converse" ? converseExceptions : invokeExceptions;
    const problem = checkMessage(headers, payload, exceptions);
    if (problem !== undefined) return problem;
    const event = headers[":event-type"];
    if (event === undefined) {
      return violation(
        "an event without an :event-type header, which the AWS SDK needs to read it",
        `Add ":event-type", one of ${quoted([...converseEvents, "chunk"])}`,
      );
    }
    const isChunk = event === "chunk";
    if (!isChunk && !converseEvents.includes(event)) {
      return violation(
        `:event-type "${event}", which the AWS SDK skips without a word: the app would never see it`,
        `Use a ConverseStream event (${quoted(converseEvents)}) or an InvokeModelWithResponseStream "chunk"`,
      );
    }
    const kind = isChunk ? "invoke" : "converse";
    if (operation !== undefined && operation !== kind) {
      return violation(
        isChunk
          ? "a chunk in a ConverseStream stream"
          : `a ConverseStream ${event} event in an InvokeModelWithResponseStream stream of chunks`,
        "One answer streams one operation's events: ConverseStream's, or InvokeModelWithResponseStream's chunks",
      );
    }
    operation = kind;
    return isChunk ? checkChunk(payload) : converse(event, payload);
  };
};

/** Whether `headers` (any case) or the body name the error type, as the AWS SDK looks for it. */
const namesErrorType = (headers: Readonly<Record<string, string>>, body: Readonly<Record<string, unknown>>) =>
  Object.keys(headers).some((name) => name.toLowerCase() === "x-amzn-errortype") ||
  Object.keys(body).some((key) => key.toLowerCase() === "code") ||
  body["__type"] !== undefined;

/** The first fail line the AWS SDK could not raise as a typed exception with its message. */
const checkFails = (transcript: Transcript): TranscriptError | undefined => {
  for (const entry of transcript.entries) {
    if (entry.type !== "fail") continue;
    const error = (problem: string, fix: string) =>
      new TranscriptError({ file: transcript.file, line: entry.line, code: "framing", problem, fix });
    const body = isObject(entry.body) ? entry.body : {};
    if (!namesErrorType(entry.headers ?? {}, body)) {
      return error(
        "a fail that names no error type: the AWS SDK raises it as an Unknown BedrockRuntimeServiceException",
        'Add the header Bedrock sends, like "headers":{"x-amzn-errortype":"ThrottlingException:http://internal.amazon.com/coral/com.amazon.bedrock/"}',
      );
    }
    if (typeof body["message"] !== "string" && typeof body["Message"] !== "string") {
      return error(
        'a fail whose body has no "message": the AWS SDK shows it as "UnknownError"',
        'Keep the body Bedrock sent, like {"message":"Too many requests, please wait before trying again."}',
      );
    }
  }
  return undefined;
};

const checkStreams: FramingCheck = httpFraming({
  kinds: ["eventstream"],
  ending: null,
  endingExample: metadataExample,
  open: checkStream,
});

/** The first line that breaks the streams' rules or names no error type, by line. */
const checkFraming: FramingCheck = (transcript) => {
  const problems = [checkStreams(transcript), checkFails(transcript)].filter((problem) => problem !== undefined);
  return problems.sort((a, b) => a.line - b.line)[0];
};

export const bedrock: HttpProviderFormat = {
  hosts: ["bedrock-runtime.*.amazonaws.com", "bedrock-runtime-fips.*.amazonaws.com"],
  checkFraming,
  // Requests are SigV4-signed for the host they go to: the recorder signs each one anew, for Bedrock's own host.
  credentials: {
    sigv4: { service: "bedrock", regionOfHost: (host) => /^bedrock-runtime(?:-fips)?\.([a-z0-9-]+)\.amazonaws\.com$/.exec(host)?.[1] },
  },
  // The SDK names a rest-json error by its x-amzn-errortype header, a "code", or "__type", and raises its "message": a
  // ValidationException, the one Bedrock answers a malformed request with, carrying the mismatch and its details.
  mismatchBody: (details) => ({ __type: "ValidationException", ...details }),
};

import { readFile } from "node:fs/promises";
import * as Effect from "effect/Effect";
import { describe, expect, it } from "vitest";
import { fixture } from "./fixtures/fixture.ts";
import { loadTranscript, TranscriptError, validateTranscript } from "./index.ts";

const line = (value: object) => JSON.stringify(value);
const meta = line({ type: "meta", format: "replay-transcript", version: 1, provider: "openai-chat", model: "gpt-4o-mini" });
const request = line({ type: "expect_outbound", request: { method: "POST", path: "/v1/chat/completions", body: { stream: true } } });
const chunk = line({
  type: "emit_inbound",
  sse: {
    data: {
      id: "chatcmpl-1",
      object: "chat.completion.chunk",
      created: 1733000000,
      model: "gpt-4o-mini",
      choices: [{ index: 0, delta: { content: "Hi" }, finish_reason: null }],
    },
  },
});
const done = line({ type: "emit_inbound", sse: { data: "[DONE]" } });

const metaOf = (provider: string) => line({ type: "meta", format: "replay-transcript", version: 1, provider });
const responses = metaOf("openai-responses");
const responsesRequest = line({ type: "expect_outbound", request: { method: "POST", path: "/v1/responses", body: { stream: true } } });
const event = (type: string, fields: object = {}) => line({ type: "emit_inbound", sse: { event: type, data: { type, ...fields } } });
const numbered = (type: string, sequence: number) => event(type, { sequence_number: sequence });
const anthropic = metaOf("anthropic-messages");
const anthropicRequest = line({ type: "expect_outbound", request: { method: "POST", path: "/v1/messages", body: { stream: true } } });
const messageStart = event("message_start", { message: { id: "msg_1", content: [] } });
const block = (type: string, index: number) => event(type, { index });
const stdio = metaOf("jsonrpc-stdio");
const initialize = line({ type: "expect_outbound", message: { jsonrpc: "2.0", id: 0, method: "initialize" } });
const message = (value: object) => line({ type: "emit_inbound", message: value });

describe("loading a transcript", () => {
  it("keeps every line as written, with its line number, skipping blank and // lines", async () => {
    const path = fixture("openai-chat/tool-call.ndjson");
    const transcript = await loadTranscript(path);
    const written = (await readFile(path, "utf8"))
      .split("\n")
      .map((text, index) => ({ text, line: index + 1 }))
      .filter(({ text }) => text.trim() !== "" && !text.startsWith("//"))
      .map(({ text, line: number }) => ({ ...JSON.parse(text), line: number }));
    expect([transcript.meta, ...transcript.entries]).toEqual(written);
    expect(transcript.meta.line).toBe(2);
  });

  it.each([
    ["an empty file", [], 1, "the transcript has no lines"],
    ["a line that is not JSON", [meta, request, "{type: emit_inbound}"], 3, "this line is not valid JSON"],
    ["a line that is not an object", [meta, request, "[1,2]"], 3, "each line must be a JSON object, got an array"],
    ["an unknown type", [meta, request, line({ type: "emit", sse: { data: "[DONE]" } })], 3, 'unknown line type: type "emit"'],
    ["a line without a type", [meta, request, line({ sse: { data: "[DONE]" } })], 3, 'unknown line type: no "type" field'],
    ["meta not first", [request, meta], 1, 'the first line must be the meta line, got "expect_outbound"'],
    ["meta not first after comments", ["// recorded by hand", "", request, meta], 3, "the first line must be the meta line"],
    ["a second meta line", [meta, request, chunk, done, meta], 5, "a second meta line (the first is line 1)"],
    [
      "the wrong format",
      [line({ type: "meta", format: "har", version: 1, provider: "openai-chat" })],
      1,
      '"format": expected "replay-transcript", got "har"',
    ],
    [
      "an unknown version",
      [line({ type: "meta", format: "replay-transcript", version: 2, provider: "openai-chat" })],
      1,
      '"version": expected 1, got 2',
    ],
    [
      "an unknown provider",
      [line({ type: "meta", format: "replay-transcript", version: 1, provider: "openai" })],
      1,
      '"provider": expected "openai-chat" | "openai-responses"',
    ],
    ["meta without a provider", [line({ type: "meta", format: "replay-transcript", version: 1 })], 1, '"provider" is missing'],
    [
      "a pace of 0 tokens per second",
      [line({ type: "meta", format: "replay-transcript", version: 1, provider: "openai-chat", pace: { tokensPerSecond: 0 } })],
      1,
      'meta: "pace.tokensPerSecond": expected tokens per second, a number greater than 0, like 40, got 0. Write it like "pace":{"tokensPerSecond":40,"firstTokenMs":600}: tokens per second above 0, the milliseconds before the first frame from 0 up, either or both',
    ],
    [
      "a negative first-token time",
      [line({ type: "meta", format: "replay-transcript", version: 1, provider: "openai-chat", pace: { firstTokenMs: -5 } })],
      1,
      '"pace.firstTokenMs": expected the milliseconds before an answer\'s first frame, a number from 0 up, like 600, got -5',
    ],
    [
      "a pace given in a string",
      [line({ type: "meta", format: "replay-transcript", version: 1, provider: "openai-chat", pace: { tokensPerSecond: "40" } })],
      1,
      '"pace.tokensPerSecond": expected number, got "40"',
    ],
    [
      "a misspelt pace field",
      [line({ type: "meta", format: "replay-transcript", version: 1, provider: "openai-chat", pace: { tokensPerSec: 40 } })],
      1,
      '"pace.tokensPerSec" is not a field of this line type (check its spelling)',
    ],
    [
      "a pace that sets nothing",
      [line({ type: "meta", format: "replay-transcript", version: 1, provider: "openai-chat", pace: {} })],
      1,
      'meta: "pace" sets no pace. Write it like "pace":{"tokensPerSecond":40,"firstTokenMs":600}',
    ],
    ["an emit before any expect_outbound", [meta, chunk], 2, "emit_inbound before any expect_outbound"],
    ["a pause before any expect_outbound", [meta, line({ type: "pause", name: "x" }), request], 2, "pause before any expect_outbound"],
    ["an expect_outbound without request", [meta, line({ type: "expect_outbound", message: {} })], 2, 'needs "request" (and no "message")'],
    ["a request without a path", [meta, line({ type: "expect_outbound", request: { method: "POST" } })], 2, '"request.path" is missing'],
    [
      "an emit with neither sse nor response",
      [meta, request, line({ type: "emit_inbound" })],
      3,
      'needs exactly one of "sse", "ndjson", "eventstream", "head" or "response", got none of them',
    ],
    [
      "an emit with both sse and response",
      [meta, request, line({ type: "emit_inbound", sse: { data: "[DONE]" }, response: { status: 200, body: {} } })],
      3,
      'got "sse" and "response"',
    ],
    [
      "sse data that is an array",
      [meta, request, line({ type: "emit_inbound", sse: { data: [1] } })],
      3,
      '"sse.data": expected a JSON object (the event as the provider sent it) or the string "[DONE]", got [1]',
    ],
    [
      "sse data that is another string",
      [meta, request, line({ type: "emit_inbound", sse: { data: "DONE" } })],
      3,
      '"sse.data": expected a JSON object',
    ],
    [
      "a misspelled field",
      [meta, request, line({ type: "emit_inbound", sse: { evnet: "x", data: "[DONE]" } })],
      3,
      '"sse.evnet" is not a field of this line type',
    ],
    [
      "a response status out of range",
      [meta, request, line({ type: "emit_inbound", response: { status: 1000, body: {} } })],
      3,
      '"response.status": expected a value between 100 and 599, got 1000',
    ],
    [
      "a pause without a name",
      [meta, request, line({ type: "pause", name: "" }), done],
      3,
      '"name": expected a value with a length of at least 1',
    ],
    [
      "a negative delay",
      [meta, request, line({ type: "delay", ms: -5 }), done],
      3,
      '"ms": expected a value greater than or equal to 0, got -5',
    ],
    ["a delay in a string", [meta, request, line({ type: "delay", ms: "250" }), done], 3, '"ms": expected number, got "250"'],
    [
      "a fail with a success status",
      [meta, request, line({ type: "fail", status: 200, body: {} })],
      3,
      '"status": expected an HTTP error status from 400 to 599, got 200',
    ],
    ["a fail without a body", [meta, request, line({ type: "fail", status: 500 })], 3, '"body" is missing'],
    [
      "an exit on an HTTP provider",
      [meta, request, chunk, done, line({ type: "exit", code: 0 })],
      5,
      "exit only ends a stdio agent process",
    ],
    [
      "an invalid $regex",
      [meta, line({ type: "expect_outbound", request: { method: "POST", path: { $regex: "([" } } }), done],
      2,
      'request.path: $regex "([" is not a valid regular expression',
    ],
    ["a stream without [DONE]", [meta, request, chunk, chunk, request, done], 4, "the stream answering line 2 ends without [DONE]"],
    ["a frame after [DONE]", [meta, request, chunk, done, chunk], 5, "sse frame after [DONE] (line 4)"],
    ["a fail after the stream started", [meta, request, chunk, line({ type: "fail", status: 500, body: {} })], 4, "fail after sse frames"],
    [
      "a JSON response after sse frames",
      [meta, request, chunk, line({ type: "emit_inbound", response: { status: 200, body: {} } })],
      4,
      "a whole JSON response after sse frames",
    ],
    [
      "a frame after a fail",
      [meta, request, line({ type: "fail", status: 500, body: {} }), chunk],
      4,
      "emit_inbound after the answer to line 2 was complete (fail at line 3)",
    ],
    ["a request with no answer", [meta, request, request, chunk, done], 2, "this request has no answer"],
    [
      "a Responses stream without a terminal event",
      [responses, responsesRequest, numbered("response.created", 0), numbered("response.output_text.delta", 1)],
      4,
      "the stream answering line 2 ends without a terminal event (response.completed, response.failed or response.incomplete)",
    ],
    [
      "a Responses sequence number that does not increase",
      [
        responses,
        responsesRequest,
        numbered("response.created", 0),
        numbered("response.output_text.delta", 2),
        numbered("response.output_text.delta", 2),
        numbered("response.completed", 3),
      ],
      5,
      "sequence_number 2 does not increase (the frame before has 2)",
    ],
    [
      "a Responses event without a sequence number",
      [responses, responsesRequest, event("response.created"), numbered("response.completed", 1)],
      3,
      "response.created has no integer sequence_number",
    ],
    [
      "[DONE] in a Responses stream",
      [responses, responsesRequest, numbered("response.created", 0), done],
      4,
      "[DONE] in an openai-responses stream",
    ],
    [
      "a frame after response.completed",
      [responses, responsesRequest, numbered("response.completed", 0), numbered("response.output_text.delta", 1)],
      4,
      "sse frame after response.completed (line 3)",
    ],
    [
      "a Responses event named unlike its type",
      [
        responses,
        responsesRequest,
        line({ type: "emit_inbound", sse: { event: "response.completed", data: { type: "response.created", sequence_number: 0 } } }),
      ],
      3,
      'the event name "response.completed" differs from its data\'s type "response.created"',
    ],
    [
      "an Anthropic stream that does not start with message_start",
      [anthropic, anthropicRequest, block("content_block_start", 0)],
      3,
      "the stream starts with content_block_start, not message_start",
    ],
    [
      "an Anthropic stream without message_stop",
      [anthropic, anthropicRequest, messageStart, event("ping"), event("message_delta", { delta: { stop_reason: "end_turn" } })],
      5,
      "the stream answering line 2 ends without message_stop",
    ],
    [
      "an unnamed Anthropic event",
      [anthropic, anthropicRequest, line({ type: "emit_inbound", sse: { data: { type: "message_start", message: {} } } })],
      3,
      "a message_start frame without an event name, which the Anthropic SDK ignores",
    ],
    [
      "a content block out of order",
      [anthropic, anthropicRequest, messageStart, block("content_block_start", 1)],
      4,
      "content block 1 starts out of order: the next block is 0",
    ],
    [
      "a content block opened inside another",
      [anthropic, anthropicRequest, messageStart, block("content_block_start", 0), block("content_block_start", 1)],
      5,
      "content block 1 starts while block 0 is still open",
    ],
    [
      "a delta for a block that is not open",
      [anthropic, anthropicRequest, messageStart, block("content_block_start", 0), block("content_block_delta", 1)],
      5,
      "content_block_delta for content block 1, which is not open (the open block is 0)",
    ],
    [
      "a block closed twice",
      [
        anthropic,
        anthropicRequest,
        messageStart,
        block("content_block_start", 0),
        block("content_block_stop", 0),
        block("content_block_stop", 0),
      ],
      6,
      "content_block_stop for content block 0, which is not open (no block is open)",
    ],
    [
      "message_stop with a block still open",
      [anthropic, anthropicRequest, messageStart, block("content_block_start", 0), event("message_stop")],
      5,
      "message_stop while content block 0 is still open",
    ],
    [
      "a frame after an Anthropic error event",
      [anthropic, anthropicRequest, messageStart, event("error", { error: { type: "overloaded_error" } }), event("message_stop")],
      5,
      "sse frame after the error event (line 4)",
    ],
    [
      "a cut outside its frame",
      [meta, request, line({ ...JSON.parse(chunk), cut: [5000] }), done],
      3,
      "a cut at byte 5000, outside this frame: it is 173 bytes as written, so a cut falls from 1 to 172",
    ],
    [
      "cuts out of order",
      [meta, request, line({ ...JSON.parse(chunk), cut: [40, { at: 20, pause: "x" }] }), done],
      3,
      "a cut at byte 20 after one at 40: cuts go in increasing order",
    ],
    [
      "a cut with a pause and a delay",
      [meta, request, line({ ...JSON.parse(chunk), cut: [{ at: 20, pause: "x", delay: 5 }] }), done],
      3,
      '"cut[0].delay" is not a field of this line type',
    ],
    [
      "a cut inside sse",
      [meta, request, line({ type: "emit_inbound", sse: { ...JSON.parse(chunk).sse, cut: [5] } }), done],
      3,
      '"sse.cut" is inside the frame\'s "sse" object, but "cut" shapes its writes and belongs beside "sse", on the emit_inbound line',
    ],
    [
      "a cut on a response",
      [meta, request, line({ type: "emit_inbound", response: { status: 200, body: {} }, cut: [2] })],
      3,
      '"cut" only shape the writes of a streamed frame ("sse", "ndjson" or "eventstream"), and this line has "response"',
    ],
    [
      "a join on the last frame",
      [meta, request, chunk, line({ ...JSON.parse(done), join: true })],
      4,
      '"join" on the last frame of an answer',
    ],
    [
      "a join before a pause",
      [meta, request, line({ ...JSON.parse(chunk), join: true }), line({ type: "pause", name: "x" }), done],
      3,
      '"join" puts this frame in one write with the next frame, but line 4 is a pause',
    ],
    [
      "a head after sse frames",
      [meta, request, chunk, line({ type: "emit_inbound", head: { status: 200 } }), done],
      4,
      "a head after sse frames",
    ],
    [
      "a fail after a head",
      [meta, request, line({ type: "emit_inbound", head: { status: 200 } }), line({ type: "fail", status: 500, body: {} })],
      4,
      "fail after the head at line 3",
    ],
    [
      "a head with no frames",
      [meta, request, line({ type: "emit_inbound", head: { status: 200 } })],
      3,
      "a head with no sse frames after it",
    ],
    [
      "a head status out of range",
      [meta, request, line({ type: "emit_inbound", head: { status: 101 } }), done],
      3,
      '"head.status": expected an HTTP status from 200 to 599, got 101',
    ],
    [
      "a lane and unordered together",
      [meta, line({ ...JSON.parse(request), lane: "title", unordered: true }), done],
      2,
      'expect_outbound has both "lane" and "unordered"',
    ],
    [
      "times of 0",
      [meta, line({ ...JSON.parse(request), times: 0 }), done],
      2,
      '"times": expected a value greater than or equal to 1, got 0',
    ],
    [
      "an HTTP request on a stdio transcript",
      [stdio, request],
      2,
      'expect_outbound of a stdio provider needs "message" (and no "request")',
    ],
    [
      "an agent message that is not JSON-RPC 2.0",
      [stdio, initialize, message({ id: 0, result: {} })],
      3,
      'emit_inbound.message is not a JSON-RPC 2.0 message: "jsonrpc" must be "2.0", got nothing',
    ],
    [
      "an agent response with both result and error",
      [stdio, initialize, message({ jsonrpc: "2.0", id: 0, result: {}, error: {} })],
      3,
      'a response needs exactly one of "result" or "error"',
    ],
    [
      "an agent request the app never answers",
      [stdio, initialize, message({ jsonrpc: "2.0", id: 7, method: "session/request_permission", params: {} }), initialize],
      3,
      "the agent's session/request_permission request (id 7) is never answered",
    ],
    [
      "a line after exit",
      [stdio, initialize, line({ type: "exit", code: 0 }), message({ jsonrpc: "2.0", method: "session/update" })],
      4,
      "emit_inbound after the exit 0 at line 3: the agent has stopped talking",
    ],
    [
      "a disconnect on stdio",
      [stdio, initialize, line({ type: "disconnect" })],
      3,
      "disconnect drops an HTTP connection; a stdio agent ends by exiting",
    ],
  ])("rejects %s, naming its line", async (_name, lines, number, problem) => {
    const error = await Effect.runPromise(Effect.flip(validateTranscript("bad.ndjson", lines.join("\n"))));
    expect(error).toBeInstanceOf(TranscriptError);
    expect(error.line).toBe(number);
    expect(error.message).toContain(`bad.ndjson:${number}: `);
    expect(error.message).toContain(problem);
    expect(error.fix).not.toBe("");
  });
});

import { describe, expect, it } from "vitest";
import { formatDifferences, matchPattern, validatePattern } from "./pattern.ts";

const systemPrompt = `You are a helpful assistant. ${"Answer briefly. ".repeat(10)}Never guess.`;

const request = {
  method: "POST",
  path: "/v1/chat/completions",
  body: {
    model: "gpt-4o-mini",
    stream: true,
    messages: [
      { role: "system", content: systemPrompt },
      { role: "user", content: "Give me a short tour" },
    ],
    tools: [{ type: "function", function: { name: "read_file", parameters: { $schema: "http://json-schema.org/draft-07/schema#" } } }],
    blocks: [
      { type: "image", source: { type: "url", url: "https://example.com/tour.png" } },
      { type: "text", text: "Give me a short tour" },
    ],
  },
};

describe("matchPattern", () => {
  it.each([
    ["an exact subset matches, extra keys allowed", { method: "POST", body: { model: "gpt-4o-mini" } }, ""],
    ["a primitive that differs", { body: { model: "gpt-4o" } }, 'body.model: expected "gpt-4o", got "gpt-4o-mini"'],
    ["equality is strict", { body: { stream: "true" } }, 'body.stream: expected "true", got true'],
    ["arrays match element by element", { body: { messages: [{ role: "system" }, { content: "Give me a short tour" }] } }, ""],
    [
      "a differing array element names its index",
      { body: { messages: [{}, { content: "Give me the tour" }] } },
      'body.messages[1].content: expected "Give me the tour", got "Give me a short tour"',
    ],
    ["arrays must have equal length", { body: { messages: [{ role: "system" }] } }, "body.messages: expected 1 element, got 2 elements"],
    ["a missing key", { body: { temperature: 0 } }, "body.temperature: expected 0, got nothing (the key is missing)"],
    ["$contains matches a substring", { body: { messages: [{}, { content: { $contains: "short" } }] } }, ""],
    [
      "$contains that is not there",
      { body: { messages: [{}, { content: { $contains: "long" } }] } },
      'body.messages[1].content: expected a string containing "long", got "Give me a short tour"',
    ],
    ["$contains needs a string", { body: { stream: { $contains: "t" } } }, 'body.stream: expected a string containing "t", got true'],
    ["$regex matches", { path: { $regex: "^/v1/chat/" } }, ""],
    [
      "$regex that fails",
      { path: { $regex: "^/v1/responses$" } },
      'path: expected a string matching /^/v1/responses$/, got "/v1/chat/completions"',
    ],
    ["$any matches any present value", { body: { model: { $any: true }, stream: { $any: true } } }, ""],
    ["$any needs the key", { body: { user: { $any: true } } }, "body.user: expected any value, got nothing (the key is missing)"],
    ["$absent matches a missing key", { body: { temperature: { $absent: true } } }, ""],
    ["$absent fails on a present key", { body: { stream: { $absent: true } } }, "body.stream: expected the key to be absent, got true"],
    [
      "$last matches the last element, whatever comes before",
      { body: { messages: { $last: { role: "user", content: { $contains: "tour" } } } } },
      "",
    ],
    [
      "$last that differs names the last index",
      { body: { messages: { $last: { role: "assistant" } } } },
      'body.messages[1].role: expected "assistant", got "user"',
    ],
    ["$some matches any element", { body: { messages: { $some: { role: "system" } } } }, ""],
    [
      "$some with no match shows the closest element",
      { body: { messages: { $some: { role: "user", content: "Give me the tour" } } } },
      'body.messages: expected an element that matches {"role":"user","content":"Give me the tour"}, got none; the closest:\nbody.messages[1].content: expected "Give me the tour", got "Give me a short tour"',
    ],
    [
      "$last needs an array",
      { body: { model: { $last: "x" } } },
      'body.model: expected an array whose last element matches "x", got "gpt-4o-mini"',
    ],
    [
      "$anyOf matches the last user message sent as a string",
      {
        body: {
          messages: { $last: { content: { $anyOf: ["Give me a short tour", { $some: { type: "text", text: "Give me a short tour" } }] } } },
        },
      },
      "",
    ],
    [
      "$anyOf matches it sent as a list of content blocks",
      { body: { blocks: { $anyOf: ["Give me a short tour", { $some: { type: "text", text: "Give me a short tour" } }] } } },
      "",
    ],
    ["$anyOf takes $absent for a missing key", { body: { temperature: { $anyOf: [0, { $absent: true }] } } }, ""],
    [
      "$anyOf with no match shows the closest pattern of the value's shape",
      { body: { blocks: { $anyOf: ["Give me the tour", { $some: { type: "text", text: "Give me the tour" } }] } } },
      'body.blocks: expected a value that matches one of ["Give me the tour",{"$some":{"type":"text","text":"Give me the tour"}}], got [{"type":"image","source":{"type":"url","url":"https://example.com/tour.png"}},{…; the closest:\nbody.blocks: expected an element that matches {"type":"text","text":"Give me the tour"}, got none; the closest:\nbody.blocks[1].text: expected "Give me the tour", got "Give me a short tour"',
    ],
    [
      "$anyOf with no match on a string shows the string pattern",
      { body: { model: { $anyOf: ["gpt-4o", { $some: { text: "gpt-4o" } }] } } },
      'body.model: expected a value that matches one of ["gpt-4o",{"$some":{"text":"gpt-4o"}}], got "gpt-4o-mini"; the closest:\nbody.model: expected "gpt-4o", got "gpt-4o-mini"',
    ],
    [
      "a $-key that is not an operator is a literal key",
      { body: { tools: [{ function: { parameters: { $schema: "http://json-schema.org/draft-07/schema#" } } }] } },
      "",
    ],
    ["an object where a string is", { body: { model: { name: "gpt-4o-mini" } } }, 'body.model: expected an object, got "gpt-4o-mini"'],
    ["an array where an object is", { body: { model: [] } }, 'body.model: expected an array, got "gpt-4o-mini"'],
    [
      "keys that are not identifiers are quoted",
      { body: { "x-trace": "1" } },
      'body["x-trace"]: expected "1", got nothing (the key is missing)',
    ],
    [
      "every difference is listed",
      { method: "GET", body: { model: "o3" } },
      'method: expected "GET", got "POST"\nbody.model: expected "o3", got "gpt-4o-mini"',
    ],
    [
      "long strings are shown around their first difference",
      { body: { messages: [{ content: systemPrompt.replace("Never", "Always") }, {}] } },
      'body.messages[0].content: expected …"ly. Answer briefly. Always guess.", got …"ly. Answer briefly. Never guess." (the strings first differ at character 189)',
    ],
  ])("%s", (_name, pattern, diff) => {
    expect(formatDifferences(matchPattern(pattern, request))).toBe(diff);
  });
});

describe("validatePattern", () => {
  it.each([
    [{ body: { content: { $contains: 1 } } }, "body.content: $contains takes a string, got 1"],
    [{ body: { content: { $regex: "([" } } }, 'body.content: $regex "([" is not a valid regular expression'],
    [{ body: { content: { $any: "yes" } } }, 'body.content: $any takes true, got "yes"'],
    [{ body: { content: { $absent: false } } }, "body.content: $absent takes true, got false"],
    [
      { body: { messages: { $last: { content: { $regex: "([" } } } } },
      'body.messages.$last.content: $regex "([" is not a valid regular expression',
    ],
    [{ body: { content: { $contains: "a", role: "user" } } }, "body.content: an operator object has exactly one key, got $contains, role"],
    [{ body: { content: { $anyOf: "Hi" } } }, 'body.content: $anyOf takes a list of two or more patterns, got "Hi"'],
    [{ body: { content: { $anyOf: ["Hi", { $regex: "([" }] } } }, 'body.content.$anyOf[1]: $regex "([" is not a valid regular expression'],
  ])("rejects %j", (pattern, problem) => {
    expect(formatDifferences(validatePattern(pattern))).toContain(problem);
  });
});

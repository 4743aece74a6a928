import { describe, expect, it } from "vitest";
import { consoleText, tally } from "./page-events.ts";

describe("a test's page events", () => {
  it("keeps the first 50 different events and counts the rest as left out; one that repeats but for its numbers is kept once, counted", () => {
    const events = tally();
    for (let index = 0; index < 60; index += 1) events.note({ kind: "console-error", at: index, text: `failure ${"x".repeat(index)}` });
    events.note({ kind: "error-status", at: 60, text: "404 Not Found", method: "GET", url: "http://127.0.0.1:4000/api?t=1" });
    expect(events.events()).toHaveLength(50);
    expect(events.events()[49]).toEqual({ kind: "console-error", at: 49, text: `failure ${"x".repeat(49)}` });
    expect(events.omitted()).toBe(11);

    const repeated = tally();
    for (const t of [17, 18, 1234]) {
      repeated.note({ kind: "error-status", at: t, text: "404 Not Found", method: "GET", url: `http://127.0.0.1:4000/api?t=${t}` });
    }
    repeated.note({ kind: "error-status", at: 9, text: "404 Not Found", method: "POST", url: "http://127.0.0.1:4000/api?t=9" });
    expect(repeated.events()).toEqual([
      { kind: "error-status", at: 17, text: "404 Not Found", method: "GET", url: "http://127.0.0.1:4000/api?t=17", count: 3 },
      { kind: "error-status", at: 9, text: "404 Not Found", method: "POST", url: "http://127.0.0.1:4000/api?t=9" },
    ]);
    expect(repeated.omitted()).toBe(0);
  });

  it("cuts a long text, URL or location as a log line is cut", () => {
    const events = tally();
    events.note({
      kind: "page-error",
      at: 1,
      text: `Error: ${"y".repeat(600)}`,
      location: `http://127.0.0.1:4000/${"z".repeat(600)}.js:1:1`,
    });
    const [event] = events.events();
    expect(event?.text).toBe(`Error: ${"y".repeat(193)}… [407 more characters]`);
    expect(event?.location).toBe(`http://127.0.0.1:4000/${"z".repeat(178)}… [429 more characters]`);
  });

  it("takes a console message's text with its format applied, its styles dropped, as the browser's console shows it", () => {
    // As Playwright gives them: text() as written, args() each as its preview.
    const message = (text: string, ...args: string[]) => ({ text: () => text, args: () => args.map((arg) => ({ toString: () => arg })) });
    const styled = message(
      "%c%s%c Failed to download font Inter background: #e6e6e6;color: red Server ",
      "%c%s%c Failed to download font Inter",
      "background: #e6e6e6;color: red",
      "Server",
      "",
    );
    expect(consoleText(styled)).toBe("Server Failed to download font Inter");
    expect(consoleText(message("%d%% done 40", "%d%% done", "40"))).toBe("40% done");
    expect(consoleText(message("plain {a: 1} x", "plain", "{a: 1}", "x"))).toBe("plain {a: 1} x");
  });
});

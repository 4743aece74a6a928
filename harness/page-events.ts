import { format } from "node:util";
import type { ConsoleMessage, Page, Request, Response } from "@playwright/test";
import { sameness } from "../common/repeated-lines.ts";
import type { PageEventMetadata, PageEventsMetadata } from "../common/contract.ts";
import type { AgentMismatch } from "./agent.ts";
import { shownLine } from "./log-excerpt.ts";

/** Chromium's console line for a request that failed or was answered with an error status: the request's own event names it better. */
const networkLine = /^Failed to load resource: /;

/** How many different events a test keeps: the first ones; later ones are only counted. */
const maxEvents = 50;

/** An event's text and URL are cut as a log line is (500 characters, else its first 200 and how many more). */
const bounded = (event: PageEventMetadata): PageEventMetadata => ({
  ...event,
  text: shownLine(event.text),
  ...(event.url === undefined ? {} : { url: shownLine(event.url) }),
  ...(event.location === undefined ? {} : { location: shownLine(event.location) }),
});

/** Two events are the same when of one kind and the same but for their numbers (a timestamp in a URL, a retry's count). */
const keyOf = (event: PageEventMetadata): string =>
  sameness([event.kind, event.method ?? "", event.url ?? "", event.location ?? "", event.text].join("\u0000"));

/**
 * A console message's text with its format applied (`%c` styles dropped, `%s` and `%d` filled), as the browser's console
 * shows it: Playwright's text() keeps `console.warn("%c%s", "color: red", "Server")` as written, its CSS after it.
 */
export function consoleText(message: { text(): string; args(): ReadonlyArray<{ toString(): string }> }): string {
  const args = message.args().map((arg) => arg.toString());
  return args.length > 1 && /%[sdifoOjc]/.test(args[0] ?? "") ? format(...args) : message.text();
}

/** The first frame of an error's stack that names a script (`http://127.0.0.1:4000/app/:14:40`). */
function stackLocation(error: Error): string | undefined {
  const frame = (error.stack ?? "").split("\n").find((line) => /^\s+at /.test(line));
  return frame === undefined ? undefined : (/\(([^()]+)\)$/.exec(frame)?.[1] ?? frame.replace(/^\s+at /, ""));
}

/** A console message's place in its script, when the browser gave one. */
function consoleLocation(message: ConsoleMessage): string | undefined {
  const { url, lineNumber, columnNumber } = message.location();
  return url === "" ? undefined : `${url}:${lineNumber + 1}:${columnNumber + 1}`;
}

/** What went wrong in a test's page, and what its replay agents turned down: collected while it runs, bounded, in order. */
export interface PageEvents {
  /** Stops listening to the page. */
  stop(): void;
  /** The events as the prover reads them, the agents' mismatches among them, and when the test's own steps ended. */
  metadata(mismatches: ReadonlyArray<AgentMismatch>, testEnd: number): PageEventsMetadata;
}

/** Events kept once each (the same, numbers aside, counted), the first `maxEvents` different ones; later ones counted as left out. */
export function tally() {
  const seen = new Map<string, { event: PageEventMetadata; count: number }>();
  let omitted = 0;
  return {
    note(event: PageEventMetadata): void {
      const found = seen.get(keyOf(event));
      if (found !== undefined) found.count += 1;
      else if (seen.size < maxEvents) seen.set(keyOf(event), { event: bounded(event), count: 1 });
      else omitted += 1;
    },
    events: (): ReadonlyArray<PageEventMetadata> =>
      [...seen.values()].map(({ event, count }) => (count === 1 ? event : { ...event, count })),
    omitted: () => omitted,
  };
}

/**
 * Listens to `page` for its console errors and warnings, its uncaught errors, its requests that failed and its responses
 * with an error status (400 and above), each with its time; an event that repeats is kept once, where it first came, with
 * its count.
 */
export function collectPageEvents(page: Page): PageEvents {
  const { note, events: pageEvents, omitted: pageOmitted } = tally();

  // A request answered with an error status is noted once, by its response: not again as failed, nor by Chromium's console line.
  const answered = new WeakSet<Request>();
  const onConsole = (message: ConsoleMessage) => {
    const type = message.type();
    if (type !== "error" && type !== "warning") return;
    const text = consoleText(message);
    if (networkLine.test(text)) return;
    const location = consoleLocation(message);
    note({
      kind: type === "error" ? "console-error" : "console-warning",
      at: Date.now(),
      text,
      ...(location === undefined ? {} : { location }),
    });
  };
  const onPageError = (error: Error) => {
    const location = stackLocation(error);
    note({ kind: "page-error", at: Date.now(), text: `${error.name}: ${error.message}`, ...(location === undefined ? {} : { location }) });
  };
  const onRequestFailed = (request: Request) => {
    if (answered.has(request)) return;
    const text = request.failure()?.errorText ?? "failed";
    note({ kind: "request-failed", at: Date.now(), text, method: request.method(), url: request.url() });
  };
  const onResponse = (response: Response) => {
    if (response.status() < 400) return;
    answered.add(response.request());
    const text = `${response.status()} ${response.statusText()}`.trim();
    note({ kind: "error-status", at: Date.now(), text, method: response.request().method(), url: response.url() });
  };
  page.on("console", onConsole);
  page.on("pageerror", onPageError);
  page.on("requestfailed", onRequestFailed);
  page.on("response", onResponse);

  return {
    stop() {
      page.off("console", onConsole);
      page.off("pageerror", onPageError);
      page.off("requestfailed", onRequestFailed);
      page.off("response", onResponse);
    },
    metadata(mismatches, testEnd) {
      // The agents' mismatches have their own bound: a page that logged a great deal leaves them all their room.
      const agent = tally();
      for (const mismatch of mismatches)
        agent.note({ kind: "replay-mismatch", at: mismatch.at, text: `${mismatch.what} (${mismatch.excerpt})` });
      const events = [...pageEvents(), ...agent.events()].sort((a, b) => a.at - b.at);
      return { events, omitted: pageOmitted() + agent.omitted(), testEnd };
    },
  };
}

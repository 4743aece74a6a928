import {
  pageEventKinds,
  pageEventsAnnotation,
  type PageEventMetadata,
  type PageEventsMetadata,
  type StepMetadata,
} from "../../common/contract.ts";
import type { JsonResult } from "../playwright/json-report.ts";
import { stepAt } from "./refused.ts";
import type { AttemptError, AttemptEvent } from "./types.ts";

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null;

const optionalString = (record: Record<string, unknown>, key: string) => record[key] === undefined || typeof record[key] === "string";

function isEvent(value: unknown): value is PageEventMetadata {
  return (
    isRecord(value) &&
    pageEventKinds.some((kind) => kind === value.kind) &&
    typeof value.at === "number" &&
    typeof value.text === "string" &&
    ["location", "method", "url"].every((key) => optionalString(value, key)) &&
    (value.count === undefined || typeof value.count === "number")
  );
}

/** The events the harness noted in its annotation; undefined when it noted none or the note cannot be read. */
function noted(result: JsonResult): PageEventsMetadata | undefined {
  const note = result.annotations.find((annotation) => annotation.type === pageEventsAnnotation)?.description;
  if (note === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(note);
    if (!isRecord(parsed) || !Array.isArray(parsed.events) || typeof parsed.testEnd !== "number") return undefined;
    return {
      events: parsed.events.filter(isEvent),
      omitted: typeof parsed.omitted === "number" ? parsed.omitted : 0,
      testEnd: parsed.testEnd,
    };
  } catch {
    return undefined;
  }
}

/** An attempt's events (from the harness's annotation), each with its time and the test's step it came in; none when there were none. */
export function attemptEvents(
  result: JsonResult,
  steps: ReadonlyArray<StepMetadata>,
  root: string,
): { readonly events: ReadonlyArray<AttemptEvent>; readonly omitted: number } {
  const metadata = noted(result);
  if (metadata === undefined) return { events: [], omitted: 0 };
  const events = metadata.events.map((event): AttemptEvent => {
    const step = stepAt(event.at, steps, root);
    const { at, kind, text, location, method, url, count } = event;
    return {
      kind,
      at: new Date(at).toISOString(),
      ...(step === undefined ? {} : { step }),
      beforeTestEnd: at <= metadata.testEnd,
      text,
      ...(location === undefined ? {} : { location }),
      ...(method === undefined ? {} : { method }),
      ...(url === undefined ? {} : { url }),
      ...(count === undefined ? {} : { count }),
    };
  });
  return { events, omitted: metadata.omitted };
}

/** What each kind of event is called in a sentence. */
const kindNames: Readonly<Record<AttemptEvent["kind"], string>> = {
  "console-error": "a console error",
  "console-warning": "a console warning",
  "page-error": "an uncaught error in the page",
  "request-failed": "a failed request",
  "error-status": "a response with an error status",
  "replay-mismatch": "a request the transcript did not expect",
};

/** One event as lines of text: what it said, with where it came from or the request it was. */
export function describeEvent(event: AttemptEvent): string {
  const request = event.method === undefined || event.url === undefined ? "" : `${event.method} ${event.url}: `;
  const where = event.location === undefined ? "" : `\n  at ${event.location}`;
  const times = event.count === undefined ? "" : ` [×${event.count}]`;
  return `${request}${event.text}${times}${where}`;
}

/**
 * The first cause with the first event that came before the test failed appended: the decisive fact is often only in the
 * page's console. A request the transcript did not expect is left out when it is itself the cause.
 */
export function withFirstEvent<E extends { readonly error: AttemptError; readonly errors?: ReadonlyArray<AttemptError> | undefined }>(
  explained: E,
  events: ReadonlyArray<AttemptEvent>,
): E {
  const before = events.filter(
    (event) => event.beforeTestEnd && !(event.kind === "replay-mismatch" && explained.error.kind === "unexpected-request"),
  );
  const first = before[0];
  if (first === undefined) return explained;
  const step = first.step === undefined ? "" : `, ${first.step.startsWith("after ") ? "" : "during "}${first.step}`;
  const more = before.length > 1 ? ` (${before.length - 1} more before it failed, every one in report.json's events)` : "";
  return withNote(explained, `Before it failed, first ${kindNames[first.kind]}${step}${more}:\n${describeEvent(first)}`);
}

/** The first cause with `note` appended after a blank line, in `error` and as the first of `errors`. */
export function withNote<E extends { readonly error: AttemptError; readonly errors?: ReadonlyArray<AttemptError> | undefined }>(
  explained: E,
  note: string,
): E {
  const error = { ...explained.error, message: `${explained.error.message}\n\n${note}` };
  const [, ...rest] = explained.errors ?? [];
  return { ...explained, error, ...(explained.errors === undefined ? {} : { errors: [error, ...rest] }) };
}

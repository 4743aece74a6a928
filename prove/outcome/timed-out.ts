import type { Attempt, AttemptError } from "./types.ts";

/**
 * How a failed attempt ran out of time: the test's timeout, an expect waiting for an element that
 * never appeared (one that found its element and read another value is not a timeout), or an action
 * or navigation that waited out its own timeout (a proof's is proof.actionTimeout, else the expect timeout).
 */
export interface TimedOut {
  readonly by: "test" | "expect" | "action";
  /** The timeout in ms, as the message gives it. */
  readonly ms: number | undefined;
  /** `file:line` of the step that was waiting, when known. */
  readonly location: string | undefined;
  /** The step that was waiting: `locator.click`, `expect(locator).toBeVisible()`; undefined when Playwright named none. */
  readonly step: string | undefined;
  /** For an action: what it was doing when its time ran out, from Playwright's call log. */
  readonly waiting?: ActionWait;
}

/** What an action that timed out was waiting for, from the call log Playwright gives with its error. */
export type ActionWait =
  /** An element its locator never matched, e.g. `getByLabel('c')`. */
  | { readonly for: "element"; readonly locator: string; readonly found: false }
  /** An element its locator matched, which never became actionable: the call log's last line, e.g. `element is not enabled`. */
  | { readonly for: "element"; readonly locator: string; readonly found: true; readonly last: string }
  /** Anything else, as the call log's first line says it: `navigating to "http://…", waiting until "load"`. */
  | { readonly for: "other"; readonly what: string };

const testTimeout = /Test timeout of (\d+)ms exceeded/;
const expectTimeout = /^Timeout:\s+(\d+)ms$/m;

/** The expect timeout in ms an assertion's message says it waited out, as Playwright prints it (`Timeout: 5000ms`). */
export const expectTimeoutOfMessage = (message: string): number | undefined => {
  const ms = expectTimeout.exec(message)?.[1];
  return ms === undefined ? undefined : Number(ms);
};
const notFound = /^(?:Error: element\(s\) not found|Received: <element\(s\) not found>|Received string: <element\(s\) not found>)$/m;
/** The step's name in its error's first line: `Error: locator.click: …`, `Error: expect(locator).toBeVisible() failed`. */
const stepName = /^(?:Error: )?(?:([a-z]\w*(?:\.\w+)+): |(expect\S*\)) failed)/;

/** An action or navigation that waited out its own timeout: `TimeoutError: locator.fill: Timeout 3000ms exceeded.` */
const actionTimeout = /^(?:\w*Error: )?([a-z]\w*(?:\.\w+)+): Timeout (\d+)ms exceeded\.?$/;
/** The steps that navigate, whose own timeout is the navigation timeout. */
const navigations = /^(?:page|frame)\.(?:goto|reload|goBack|goForward|waitForURL|waitForNavigation)$/;

/** What the call log under an action's timeout says it was waiting for; undefined when the message has no call log. */
function actionWait(message: string): ActionWait | undefined {
  const log = message.split("\n");
  const start = log.findIndex((line) => line.trim() === "Call log:");
  if (start === -1) return undefined;
  // The call log ends at the first blank line; what the prover appended (a server log, refused calls) comes after it.
  const after = log.slice(start + 1);
  const end = after.findIndex((line) => line.trim() === "");
  const lines = (end === -1 ? after : after.slice(0, end))
    .map((line) => /^\s*- (.*)$/.exec(line)?.[1]?.trim())
    .filter((line): line is string => line !== undefined && line !== "");
  const first = lines[0];
  if (first === undefined) return undefined;
  const locator = /^waiting for (.+)$/.exec(first)?.[1];
  if (locator === undefined) return { for: "other", what: first };
  const found = lines.some((line) => /^locator resolved to /.test(line));
  return found ? { for: "element", locator, found, last: lines.at(-1) ?? first } : { for: "element", locator, found };
}

const firstLine = (error: AttemptError) =>
  error.message
    .split("\n")
    .find((line) => line.trim() !== "")
    ?.trim() ?? "";

/** The step a test timeout stopped: the attempt's other error at the timeout's line, as Playwright names it. */
function stoppedStep(error: AttemptError, errors: ReadonlyArray<AttemptError>): string | undefined {
  for (const other of errors.filter((candidate) => candidate.location === error.location)) {
    const found = stepName.exec(firstLine(other));
    if (found !== null) return found[1] ?? found[2];
  }
  return undefined;
}

/** How the attempt timed out; undefined for one that did not fail by a timeout. */
export function timedOut(attempt: Attempt): TimedOut | undefined {
  const error = attempt.error;
  if (attempt.outcome !== "failed" || error === undefined) return undefined;
  if (error.kind === "timeout") {
    const ms = testTimeout.exec(error.message)?.[1];
    return {
      by: "test",
      ms: ms === undefined ? undefined : Number(ms),
      location: error.location,
      step: stoppedStep(error, attempt.errors ?? []),
    };
  }
  const action = error.kind === "app-error" ? actionTimeout.exec(firstLine(error)) : null;
  if (action !== null) {
    const waiting = actionWait(error.message);
    return {
      by: "action",
      ms: Number(action[2]),
      location: error.location,
      step: action[1],
      ...(waiting === undefined ? {} : { waiting }),
    };
  }
  const ms = expectTimeoutOfMessage(error.message);
  if (error.kind !== "assertion" || ms === undefined || !notFound.test(error.message)) return undefined;
  return { by: "expect", ms, location: error.location, step: stepName.exec(firstLine(error))?.[2] };
}

/** The action's wait, as the end of a sentence: ` for getByLabel('c'), which never appeared`. */
function waitedFor(waiting: ActionWait | undefined): string {
  if (waiting === undefined) return "";
  if (waiting.for === "other") return ` (${waiting.what})`;
  return waiting.found
    ? ` for ${waiting.locator}, which it found but could not act on (${waiting.last})`
    : ` for ${waiting.locator}, which never appeared`;
}

/** "reached the test timeout (60000 ms) in locator.click at s.e2e.ts:14" */
export function describeTimeout(timeout: TimedOut): string {
  const ms = timeout.ms === undefined ? "" : ` (${timeout.ms} ms)`;
  const step = timeout.step === undefined ? "" : ` in ${timeout.step}`;
  const where = timeout.location === undefined ? "" : ` at ${timeout.location}`;
  if (timeout.by === "action") {
    const which = timeout.step !== undefined && navigations.test(timeout.step) ? "navigation" : "action";
    return `waited out the ${which} timeout${ms}${step}${where}${waitedFor(timeout.waiting)}`;
  }
  return timeout.by === "test"
    ? `reached the test timeout${ms}${step}${where}`
    : `waited out the expect timeout${ms}${step}${where} for an element that never appeared`;
}

/** Which setting gives a timeout of this kind more time, for a person to raise. */
export function timeoutKeys(by: ReadonlySet<TimedOut["by"]>): string {
  const keys = [
    ...(by.has("test") ? ["the test timeout (`timeout` in the scenario config)"] : []),
    ...(by.has("expect")
      ? ["the expect timeout (a proof's is --expect-timeout, else the config's proof.expectTimeout, else its expect.timeout)"]
      : []),
    ...(by.has("action")
      ? [
          "the action timeout (a proof's is the config's proof.actionTimeout, else the expect timeout, unless its use sets actionTimeout or navigationTimeout)",
        ]
      : []),
  ];
  return keys.join(" and ");
}

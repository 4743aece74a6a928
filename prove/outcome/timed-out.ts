import type { Attempt, AttemptError } from "./types.ts";

/**
 * How a failed attempt ran out of time: the test's timeout, or an expect waiting for an element
 * that never appeared (one that found its element and read another value is not a timeout).
 */
export interface TimedOut {
  readonly by: "test" | "expect";
  /** The timeout in ms, as the message gives it. */
  readonly ms: number | undefined;
  /** `file:line` of the step that was waiting, when known. */
  readonly location: string | undefined;
  /** The step that was waiting: `locator.click`, `expect(locator).toBeVisible()`; undefined when Playwright named none. */
  readonly step: string | undefined;
}

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
  const ms = expectTimeoutOfMessage(error.message);
  if (error.kind !== "assertion" || ms === undefined || !notFound.test(error.message)) return undefined;
  return { by: "expect", ms, location: error.location, step: stepName.exec(firstLine(error))?.[2] };
}

/** "reached the test timeout (60000 ms) in locator.click at s.e2e.ts:14" */
export function describeTimeout(timeout: TimedOut): string {
  const ms = timeout.ms === undefined ? "" : ` (${timeout.ms} ms)`;
  const step = timeout.step === undefined ? "" : ` in ${timeout.step}`;
  const where = timeout.location === undefined ? "" : ` at ${timeout.location}`;
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
  ];
  return keys.join(" and ");
}

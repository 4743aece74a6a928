import { isAbsolute, relative } from "node:path";
import { attemptEvents, withFirstEvent, withNote } from "./events.ts";
import { describeRefused, refusedCalls } from "./refused.ts";
import {
  bootMsAnnotation,
  failureScreenshotAttachment,
  harnessErrorKind,
  measureAnnotation,
  measureMetrics,
  mismatchAfterFailureAnnotation,
  screenshotLabel,
  serverLogAttachment,
  serverLogExcerptAnnotation,
  strayCallsAnnotation,
  agentsUnreachedAnnotation,
  type MeasureMetadata,
  type StepMetadata,
  type StrayCallMetadata,
  type HarnessErrorKind,
} from "../../common/contract.ts";
import type { JsonAttachment, JsonError, JsonReport, JsonResult } from "../playwright/json-report.ts";
import { cleanMessage, stripAnsi } from "./error-text.ts";
import type { Attempt, AttemptError, AttemptErrorKind, Outcome, RefusedCall } from "./types.ts";
import { notableLine } from "../../common/notable-line.ts";

/** Where an attachment's bytes are: a file Playwright wrote, or inline base64. */
export type AttachmentSource = { readonly path: string } | { readonly base64: string };

export interface AttemptArtifacts {
  /** The scenario's labelled screenshots (screenshotAttachment), in the order it took them. */
  readonly screenshots: ReadonlyArray<{ readonly label: string; readonly source: AttachmentSource }>;
  /** The failure screenshot: the harness's own, else Playwright's `only-on-failure` one. */
  readonly failureScreenshot?: AttachmentSource;
  readonly trace?: AttachmentSource;
  readonly serverLog?: AttachmentSource;
  /** How long the app took to boot, when the harness recorded it. */
  readonly bootMs?: number;
  /** The blocks the scenario measured (app.measure), in order; absent when it measured none. */
  readonly measures?: ReadonlyArray<MeasureMetadata>;
}

/** One attempt as the report records it, and the files its report copies. */
export interface ClassifiedAttempt {
  readonly attempt: Attempt;
  readonly artifacts: AttemptArtifacts;
}

export interface ClassifyContext {
  /** The invoking checkout, which locations are made relative to. */
  readonly root: string;
  /** Absolute path of the scenario file, to find its line in a stack. */
  readonly scenarioFile: string;
  /** Wall time of the run, used when Playwright reports no test duration. */
  readonly wallMs: number;
  /** The test's steps as the steps reporter wrote them, to name the step of a refused call; none when unknown. */
  readonly steps?: ReadonlyArray<StepMetadata>;
}

/** Harness error kinds and what they mean: an error (no running app) or a failure (the app misbehaved). */
const harnessKinds: Readonly<Record<HarnessErrorKind, { readonly outcome: Outcome; readonly kind: AttemptErrorKind }>> = {
  boot: { outcome: "error", kind: "boot" },
  browser: { outcome: "error", kind: "browser" },
  transcript: { outcome: "error", kind: "transcript" },
  config: { outcome: "error", kind: "config" },
  "replay-mismatch": { outcome: "failed", kind: "unexpected-request" },
  "transcript-unplayed": { outcome: "failed", kind: "unplayed-transcript" },
};

const expectFailure = /^(?:Error: )?(?:Timed out \d+ms waiting for )?expect(?:\.\w+)*[.(]/;
/** An expect given a message: Playwright prints the message first (a poll's twice), then the matcher's lines. */
const expectFailureWithMessage = /^Error: ([^\n]*)\n\n(?:\1\n\n)?(?:Timed out \d+ms waiting for )?expect(?:\.\w+)*[.(]/;
/** The test's timeout, and the step it stopped (`Error: locator.click: Test timeout of 3000ms exceeded.`). */
const testTimeout = /^(?:Error: [\w.]+: )?Test timeout of \d+ms exceeded/;

function tagOf(error: JsonError): HarnessErrorKind | undefined {
  return harnessErrorKind(stripAnsi(error.message));
}

/** What one of the result's errors is, on its own. */
function kindOf(error: JsonError): AttemptErrorKind {
  const tag = tagOf(error);
  if (tag !== undefined) return harnessKinds[tag].kind;
  const text = stripAnsi(error.message).trimStart();
  if (testTimeout.test(text)) return "timeout";
  return expectFailure.test(text) || expectFailureWithMessage.test(text) ? "assertion" : "app-error";
}

/**
 * The result's errors in the order they happened: Playwright lists the harness's teardown error last,
 * but an unexpected request usually came first, unless the harness noted the test had already failed.
 */
function inOrder(result: JsonResult): ReadonlyArray<JsonError> {
  const mismatch = result.errors.find((error) => tagOf(error) === "replay-mismatch");
  if (mismatch === undefined || result.annotations.some((annotation) => annotation.type === mismatchAfterFailureAnnotation)) {
    return result.errors;
  }
  return [mismatch, ...result.errors.filter((error) => error !== mismatch)];
}

/**
 * Where the error points, relative to the invoking checkout: the scenario's line when the error or
 * its stack names it, else its location if inside the checkout (not in a temporary worktree).
 */
function locationOf(error: JsonError, context: ClassifyContext): string | undefined {
  const show = (file: string, line: number) => `${relative(context.root, file)}:${line}`;
  const at = error.location;
  if (at !== undefined && isAbsolute(at.file) && at.file === context.scenarioFile) return show(at.file, at.line);
  const stack = stripAnsi(error.stack ?? error.message);
  const found = stack.indexOf(`${context.scenarioFile}:`);
  const line = found === -1 ? undefined : /^:(\d+)/.exec(stack.slice(found + context.scenarioFile.length))?.[1];
  if (line !== undefined) return show(context.scenarioFile, Number(line));
  if (at === undefined || !isAbsolute(at.file)) return undefined;
  const inside = relative(context.root, at.file);
  return inside.startsWith("..") || isAbsolute(inside) ? undefined : show(at.file, at.line);
}

function attemptError(kind: AttemptErrorKind, error: JsonError, context: ClassifyContext): AttemptError {
  const location = locationOf(error, context);
  return { kind, message: cleanMessage(error.message), ...(location === undefined ? {} : { location }) };
}

/** Picks the error that explains a failed result (of its errors in order) and says what kind it is. */
function explain(result: JsonResult, errors: ReadonlyArray<JsonError>): { outcome: Outcome; kind: AttemptErrorKind; cause: JsonError } {
  // A harness error means there was no running app: whatever failed after it is moot.
  const harnessError = errors.find((error) => {
    const tag = tagOf(error);
    return tag !== undefined && harnessKinds[tag].outcome === "error";
  });
  if (harnessError !== undefined) return { outcome: "error", kind: kindOf(harnessError), cause: harnessError };
  const first = errors[0] ?? { message: `The test ended with status ${result.status}.` };
  // An unexpected request that came first explains the assertions that failed because of its 400 answer.
  if (tagOf(first) === "replay-mismatch") return { outcome: "failed", kind: "unexpected-request", cause: first };
  if (result.status === "timedOut") return { outcome: "failed", kind: "timeout", cause: first };
  if (result.status === "interrupted") return { outcome: "error", kind: "runner", cause: first };
  const kind = kindOf(first);
  return { outcome: "failed", kind: kind === "unplayed-transcript" && errors.length > 1 ? "app-error" : kind, cause: first };
}

/** A test timeout names no line, so it takes the location of the step it stopped (from Playwright's other errors). */
function withStepLocation(error: AttemptError, errors: ReadonlyArray<JsonError>, context: ClassifyContext): AttemptError {
  if (error.kind !== "timeout" || error.location !== undefined) return error;
  const location = errors.map((other) => locationOf(other, context)).find((found) => found !== undefined);
  return location === undefined ? error : { ...error, location };
}

/** The attempt's outcome, its first cause, and with more than one error all of them (first cause first, then in order). */
function explainAll(
  result: JsonResult,
  context: ClassifyContext,
): { outcome: Outcome; error: AttemptError; errors?: ReadonlyArray<AttemptError> } {
  const ordered = inOrder(result);
  const { outcome, kind, cause } = explain(result, ordered);
  const error = withStepLocation(attemptError(kind, cause, context), ordered, context);
  if (ordered.length < 2) return { outcome, error };
  const others = ordered.filter((other) => other !== cause).map((other) => attemptError(kindOf(other), other, context));
  return { outcome, error, errors: [error, ...others] };
}

function source(attachment: JsonAttachment): AttachmentSource | undefined {
  if (attachment.body !== undefined) return { base64: attachment.body };
  if (attachment.path !== undefined) return { path: attachment.path };
  return undefined;
}

function artifactsOf(result: JsonResult): AttemptArtifacts {
  const find = (name: string) => {
    const found = result.attachments.find((attachment) => attachment.name === name);
    return found === undefined ? undefined : source(found);
  };
  const screenshots = result.attachments.flatMap((attachment) => {
    const label = screenshotLabel(attachment.name);
    const from = source(attachment);
    return label !== undefined && from !== undefined ? [{ label, source: from }] : [];
  });
  // The harness's own (without dev tool launchers) over Playwright's, which a test that failed before the app started has alone.
  const failureScreenshot = find(failureScreenshotAttachment) ?? find("screenshot");
  const trace = find("trace");
  const serverLog = find(serverLogAttachment);
  const boot = Number(result.annotations.find((annotation) => annotation.type === bootMsAnnotation)?.description);
  const measures = result.annotations.flatMap((annotation) =>
    annotation.type === measureAnnotation ? (measureOf(annotation.description) ?? []) : [],
  );
  return {
    screenshots,
    ...(failureScreenshot === undefined ? {} : { failureScreenshot }),
    ...(trace === undefined ? {} : { trace }),
    ...(serverLog === undefined ? {} : { serverLog }),
    ...(Number.isFinite(boot) ? { bootMs: boot } : {}),
    ...(measures.length === 0 ? {} : { measures }),
  };
}

/** A measured block from its annotation; undefined when it cannot be read (a label, and a finite number for every metric). */
function measureOf(description: string | undefined): MeasureMetadata | undefined {
  try {
    const parsed: unknown = JSON.parse(description ?? "");
    if (typeof parsed !== "object" || parsed === null) return undefined;
    const { label, metrics, trace, cpuSlowdown } = parsed as Record<string, unknown>;
    if (typeof label !== "string" || typeof metrics !== "object" || metrics === null) return undefined;
    const values = metrics as Record<string, unknown>;
    if (!measureMetrics.every((metric) => typeof values[metric] === "number" && Number.isFinite(values[metric]))) return undefined;
    return {
      label,
      metrics: Object.fromEntries(measureMetrics.map((metric) => [metric, values[metric] as number])) as MeasureMetadata["metrics"],
      ...(typeof trace === "string" ? { trace } : {}),
      ...(typeof cpuSlowdown === "number" ? { cpuSlowdown } : {}),
    };
  } catch {
    return undefined;
  }
}

const noArtifacts: AttemptArtifacts = { screenshots: [] };

/** Classifies one Playwright run of one scenario from its JSON report. */
export function classify(report: JsonReport, context: ClassifyContext): ClassifiedAttempt {
  const result = report.specs
    .flatMap((spec) => spec.tests)
    .flatMap((test) => test.results)
    .at(-1);
  if (result === undefined) {
    const loadError = report.errors[0] ?? {
      message: "Playwright ran no test: check that the scenario file is matched by the config's testDir and testMatch.",
    };
    const tag = tagOf(loadError);
    const kind = tag === undefined ? "scenario-load" : harnessKinds[tag].kind;
    const wallMs = Math.round(context.wallMs);
    return {
      attempt: { outcome: "error", durationMs: wallMs, runMs: wallMs, error: attemptError(kind, loadError, context) },
      artifacts: noArtifacts,
    };
  }
  const durationMs = Math.round(result.duration);
  const runMs = Math.round(context.wallMs);
  const artifacts = artifactsOf(result);
  const refused = refusedCalls(straysOf(result), context.steps ?? [], context.root);
  const { events, omitted } = attemptEvents(result, context.steps ?? [], context.root);
  const withObserved = {
    ...(refused.length === 0 ? {} : { refused }),
    ...(events.length === 0 ? {} : { events }),
    ...(omitted === 0 ? {} : { eventsOmitted: omitted }),
  };
  if (result.status === "passed") return { attempt: { outcome: "passed", durationMs, runMs, ...withObserved }, artifacts };
  if (result.status === "skipped") {
    const error = { message: "The scenario was skipped (test.skip or test.fixme); remove the skip so it can prove something." };
    return { attempt: { outcome: "error", durationMs, runMs, error: attemptError("skipped", error, context) }, artifacts };
  }
  const explained = explainAll(result, context);
  const placed = explained.outcome === "failed" ? withFirstEvent(explained, events) : explained;
  const excerpt = result.annotations.find((annotation) => annotation.type === serverLogExcerptAnnotation)?.description;
  const logged = excerpt === undefined || !saysWhy(excerpt) ? placed : withServerLog(placed, excerpt);
  const unreached = result.annotations.find((annotation) => annotation.type === agentsUnreachedAnnotation)?.description;
  // Only beside an assertion that nothing else explains: a failed action, a crash or an event before the failure came
  // before any call the app would have made (a page that never showed its field sends no message).
  const explainedOtherwise = placed !== explained || logged.outcome !== "failed" || logged.error.kind !== "assertion";
  const noted = unreached === undefined || explainedOtherwise ? logged : withNote(logged, unreached);
  const { outcome, error, errors } = refused.length === 0 ? noted : withRefusedCalls(noted, refused);
  return { attempt: { outcome, durationMs, runMs, error, ...(errors === undefined ? {} : { errors }), ...withObserved }, artifacts };
}

/** The stray calls the harness noted in its annotation; none when it noted none or the note cannot be read. */
function straysOf(result: JsonResult): ReadonlyArray<StrayCallMetadata> {
  const note = result.annotations.find((annotation) => annotation.type === strayCallsAnnotation)?.description;
  if (note === undefined) return [];
  try {
    const parsed: unknown = JSON.parse(note);
    return Array.isArray(parsed)
      ? parsed.filter(
          (item: unknown): item is StrayCallMetadata =>
            typeof item === "object" &&
            item !== null &&
            ["host", "method", "path"].every((key) => typeof (item as Record<string, unknown>)[key] === "string") &&
            typeof (item as Record<string, unknown>).at === "number",
        )
      : [];
  } catch {
    return [];
  }
}

/** The first cause with the calls the route refused appended: an app that failed offline often failed for one of them. */
function withRefusedCalls<E extends { readonly error: AttemptError; readonly errors?: ReadonlyArray<AttemptError> | undefined }>(
  explained: E,
  refused: ReadonlyArray<RefusedCall>,
): E {
  const lines = refused.map((call) => `- ${describeRefused(call)}`).join("\n");
  return withNote(
    explained,
    `Calls the route refused (their hosts are neither routed to the replay agent nor allowed, app.route):\n${lines}`,
  );
}

/** Whether the server log's excerpt holds a line worth showing beside the test's error; a log of plain requests is not. */
const saysWhy = (excerpt: string): boolean =>
  stripAnsi(excerpt)
    .split("\n")
    .some((line) => notableLine.test(line));

/** The first cause with the harness's server log excerpt appended: the line that says why is often only in the app's output. */
function withServerLog<E extends { readonly error: AttemptError; readonly errors?: ReadonlyArray<AttemptError> | undefined }>(
  explained: E,
  excerpt: string,
): E {
  return withNote(explained, `The app's server log (its warnings and errors, then its last lines):\n${stripAnsi(excerpt)}`);
}

import type { PageEventKind } from "../../common/contract.ts";

/** What one run of the scenario on one side came to. Only `failed` on base counts towards a proof. */
export type Outcome = "passed" | "failed" | "error";

/** Why an attempt did not pass: the app's behaviour (`failed`), or no running app for the test (`error`). */
export type FailedKind = "assertion" | "timeout" | "app-error" | "unexpected-request" | "unplayed-transcript";
export type ErrorKind =
  "install" | "build" | "worktree" | "boot" | "browser" | "transcript" | "config" | "scenario-load" | "skipped" | "runner";
export type AttemptErrorKind = FailedKind | ErrorKind;

export interface AttemptError {
  readonly kind: AttemptErrorKind;
  readonly message: string;
  /** `file:line`, relative to the invoking checkout, when the error points into a file. */
  readonly location?: string;
}

export interface Attempt {
  readonly outcome: Outcome;
  /** The test's own duration as Playwright measured it; for an error before any test ran, the time until the error. */
  readonly durationMs: number;
  /** Wall time of the attempt's whole Playwright run (runner, browser, app boot, test, teardown); null when none ran. */
  readonly runMs: number | null;
  /** The first cause: why the attempt did not pass. */
  readonly error?: AttemptError;
  /** Only when the test reported more than one error: every one, `error` first, then the others in the order they happened. */
  readonly errors?: ReadonlyArray<AttemptError>;
  /** Only when the config routes the provider's hosts (`app.route`) and the route refused calls: each, in order. */
  readonly refused?: ReadonlyArray<RefusedCall>;
  /** Only when any came: what went wrong in the page and at the replay agent while the test ran, in order (see AttemptEvent). */
  readonly events?: ReadonlyArray<AttemptEvent>;
  /** Only when the harness kept the first 50 different events of the page (or of the agent) and left out more: how many. */
  readonly eventsOmitted?: number;
}

/** Something that went wrong in the page or at the replay agent while the test ran, placed against the test's steps. */
export interface AttemptEvent {
  readonly kind: PageEventKind;
  /** When it came (ISO 8601); when it repeated, its first time. */
  readonly at: string;
  /** The test's step it came in, as a refused call's `step`; absent when unknown. */
  readonly step?: string;
  /** Whether it came before the test's own steps ended (in a failed attempt, before its failure), not while it was torn down. */
  readonly beforeTestEnd: boolean;
  /** What it said: the console's text, the error, the failure (`net::ERR_CONNECTION_REFUSED`), the status (`404 Not Found`), the request. */
  readonly text: string;
  /** Where the script that logged or threw was (`url:line:column`). */
  readonly location?: string;
  readonly method?: string;
  readonly url?: string;
  /** How many times it came (the same but for its numbers), when more than once. */
  readonly count?: number;
}

/** A call the route refused: its host was neither routed to the replay agent nor allowed. */
export interface RefusedCall {
  /** The host, with its port when not the scheme's default. */
  readonly host: string;
  readonly method: string;
  /** The path and query. */
  readonly path: string;
  /** When it came (ISO 8601). */
  readonly at: string;
  /** The test's step it came in: `locator.click (scenarios/chat.e2e.ts:12)`, or `after …` between steps; absent when unknown. */
  readonly step?: string;
  /** Why its TLS handshake with the route failed, for an HTTPS call to an IP address (StrayCallMetadata.tlsFailure). */
  readonly tlsFailure?: string;
}

export type Verdict = "proved" | "not-proved" | "could-not-run";

export type ReasonCode =
  | "proved"
  | "passes-on-base"
  | "fails-on-head"
  | "times-out-on-both"
  | "flaky"
  | "base-error"
  | "head-error"
  | "bad-ref"
  | "bad-repo"
  | "scenario-not-found"
  | "ambiguous-scenario"
  | "config-error"
  | "interrupted"
  // A performance proof's (--faster, --not-slower): its outcome, a side whose run failed, a scenario that measured nothing.
  | "faster"
  | "no-clear-difference"
  | "slower"
  | "not-slower"
  | "undecided"
  | "fails-on-base"
  | "no-measure";

export type ExitCode = 0 | 1 | 2;

export type SideName = "base" | "head";

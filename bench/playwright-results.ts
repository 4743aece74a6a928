/** One result of a test in Playwright's JSON report: its status and its annotations. */
export interface Result {
  readonly status: string;
  readonly annotations: ReadonlyArray<{ readonly type: string; readonly description?: string }>;
}

/** A suite of Playwright's JSON report, with its nested suites. */
export interface Suite {
  readonly suites?: ReadonlyArray<Suite>;
  readonly specs: ReadonlyArray<{ readonly tests: ReadonlyArray<{ readonly results: ReadonlyArray<Result> }> }>;
}

/** Every test result in `suites` and the suites nested in them, in report order. */
export function results(suites: ReadonlyArray<Suite>): Result[] {
  return suites.flatMap((suite) => [
    ...suite.specs.flatMap((spec) => spec.tests.flatMap((test) => test.results)),
    ...results(suite.suites ?? []),
  ]);
}

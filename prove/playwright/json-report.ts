/**
 * The part of Playwright's JSON reporter output the prover reads (`--reporter=json`, both with
 * `--list` and for a run). Parsed defensively: a field of the wrong shape reads as absent.
 */

export interface JsonLocation {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

export interface JsonError {
  readonly message: string;
  readonly stack?: string;
  readonly location?: JsonLocation;
}

export interface JsonAttachment {
  readonly name: string;
  readonly contentType: string;
  readonly path?: string;
  /** Base64, for attachments made with `body`. */
  readonly body?: string;
}

export interface JsonAnnotation {
  readonly type: string;
  readonly description?: string;
}

export interface JsonResult {
  readonly status: string;
  readonly duration: number;
  readonly errors: ReadonlyArray<JsonError>;
  readonly attachments: ReadonlyArray<JsonAttachment>;
  readonly annotations: ReadonlyArray<JsonAnnotation>;
}

export interface JsonTest {
  readonly projectName: string;
  readonly status: string;
  readonly results: ReadonlyArray<JsonResult>;
}

export interface JsonSpec {
  readonly id: string;
  readonly title: string;
  /** Describe titles above the test, outermost first. */
  readonly titlePath: ReadonlyArray<string>;
  readonly file: string;
  readonly line: number;
  readonly tests: ReadonlyArray<JsonTest>;
}

export interface JsonReport {
  readonly configFile: string | undefined;
  readonly rootDir: string | undefined;
  readonly metadata: Readonly<Record<string, unknown>>;
  readonly specs: ReadonlyArray<JsonSpec>;
  readonly errors: ReadonlyArray<JsonError>;
}

type Json = Readonly<Record<string, unknown>>;

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);
const arrayOf = (value: unknown): ReadonlyArray<unknown> => (Array.isArray(value) ? value : []);
const stringOf = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);
const numberOf = (value: unknown): number | undefined => (typeof value === "number" ? value : undefined);

function location(value: unknown): JsonLocation | undefined {
  if (!isObject(value)) return undefined;
  const file = stringOf(value.file);
  const line = numberOf(value.line);
  return file === undefined || line === undefined ? undefined : { file, line, column: numberOf(value.column) ?? 0 };
}

function error(value: unknown): JsonError | undefined {
  if (!isObject(value)) return undefined;
  const message = stringOf(value.message) ?? stringOf(value.value) ?? "";
  const stack = stringOf(value.stack);
  const at = location(value.location);
  return { message, ...(stack === undefined ? {} : { stack }), ...(at === undefined ? {} : { location: at }) };
}

const errors = (value: unknown): JsonError[] => arrayOf(value).flatMap((item) => error(item) ?? []);

function attachment(value: unknown): JsonAttachment | undefined {
  if (!isObject(value)) return undefined;
  const name = stringOf(value.name);
  if (name === undefined) return undefined;
  const path = stringOf(value.path);
  const body = stringOf(value.body);
  return {
    name,
    contentType: stringOf(value.contentType) ?? "",
    ...(path === undefined ? {} : { path }),
    ...(body === undefined ? {} : { body }),
  };
}

function annotation(value: unknown): JsonAnnotation | undefined {
  if (!isObject(value)) return undefined;
  const type = stringOf(value.type);
  const description = stringOf(value.description);
  return type === undefined ? undefined : { type, ...(description === undefined ? {} : { description }) };
}

function result(value: unknown): JsonResult | undefined {
  if (!isObject(value)) return undefined;
  const all = errors(value.errors);
  const single = error(value.error);
  return {
    status: stringOf(value.status) ?? "unknown",
    duration: numberOf(value.duration) ?? 0,
    errors: all.length > 0 || single === undefined ? all : [single],
    attachments: arrayOf(value.attachments).flatMap((item) => attachment(item) ?? []),
    annotations: arrayOf(value.annotations).flatMap((item) => annotation(item) ?? []),
  };
}

function test(value: unknown): JsonTest | undefined {
  if (!isObject(value)) return undefined;
  return {
    projectName: stringOf(value.projectName) ?? "",
    status: stringOf(value.status) ?? "unknown",
    results: arrayOf(value.results).flatMap((item) => result(item) ?? []),
  };
}

function specs(suite: unknown, titlePath: ReadonlyArray<string>, isFileSuite: boolean): JsonSpec[] {
  if (!isObject(suite)) return [];
  const title = stringOf(suite.title) ?? "";
  const inner = isFileSuite ? titlePath : [...titlePath, title];
  const own = arrayOf(suite.specs).flatMap((spec): JsonSpec[] => {
    if (!isObject(spec)) return [];
    return [
      {
        id: stringOf(spec.id) ?? "",
        title: stringOf(spec.title) ?? "",
        titlePath: inner,
        file: stringOf(spec.file) ?? stringOf(suite.file) ?? "",
        line: numberOf(spec.line) ?? 0,
        tests: arrayOf(spec.tests).flatMap((item) => test(item) ?? []),
      },
    ];
  });
  return [...own, ...arrayOf(suite.suites).flatMap((child) => specs(child, inner, false))];
}

/** Reads a JSON report; returns undefined when the text is not one. */
export function parseJsonReport(text: string): JsonReport | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(value) || !Array.isArray(value.suites)) return undefined;
  const config = isObject(value.config) ? value.config : {};
  return {
    configFile: stringOf(config.configFile),
    rootDir: stringOf(config.rootDir),
    metadata: isObject(config.metadata) ? config.metadata : {},
    specs: value.suites.flatMap((suite) => specs(suite, [], true)),
    errors: errors(value.errors),
  };
}

/** A test's full title as Playwright prints it: describe titles and the test title joined by " › ". */
export function fullTitle(spec: JsonSpec): string {
  return [...spec.titlePath, spec.title].join(" › ");
}

import * as Predicate from "effect/Predicate";

/**
 * Patterns of `expect_outbound` lines, as docs/transcripts.md defines them: objects match
 * as a subset (extra keys allowed), arrays element by element with equal length, primitives
 * by equality; `{"$contains": s}` and `{"$regex": s}` match strings, `{"$any": true}` any
 * present value, `{"$absent": true}` a missing key, `{"$some": p}` an array with an element
 * matching `p`, `{"$last": p}` an array whose last element matches `p` and `{"$anyOf": [p, q]}`
 * a value (or a missing key) that one of the patterns matches. An object is an operator only when
 * its single key is one of those seven, so `{"$schema": …}` in a tool's JSON schema stays a
 * literal key.
 */

/** One place where the actual value differs from the pattern. */
export interface PatternDifference {
  readonly path: string;
  readonly message: string;
}

type Operator =
  | { readonly kind: "contains"; readonly text: string }
  | { readonly kind: "regex"; readonly source: string }
  | { readonly kind: "any" }
  | { readonly kind: "absent" }
  | { readonly kind: "some"; readonly pattern: unknown }
  | { readonly kind: "last"; readonly pattern: unknown }
  | { readonly kind: "anyOf"; readonly patterns: ReadonlyArray<unknown> };

type Actual = { readonly present: true; readonly value: unknown } | { readonly present: false };

const operatorKeys = new Set(["$contains", "$regex", "$any", "$absent", "$some", "$last", "$anyOf"]);
const maxRendered = 80;

/** Every difference between `pattern` and `actual`; empty when they match. */
export const matchPattern = (pattern: unknown, actual: unknown): ReadonlyArray<PatternDifference> =>
  compare(pattern, { present: true, value: actual }, "");

/** The differences as the lines of a readable diff: `body.messages[1].content: expected "x", got "y"`. */
export const formatDifferences = (differences: ReadonlyArray<PatternDifference>): string =>
  differences.map((difference) => `${difference.path || "(root)"}: ${difference.message}`).join("\n");

/** Problems that make a pattern unusable (a bad operator value, an invalid regex), with their paths. */
export const validatePattern = (pattern: unknown, path = ""): ReadonlyArray<PatternDifference> => {
  if (Array.isArray(pattern)) return pattern.flatMap((item, index) => validatePattern(item, indexPath(path, index)));
  if (!Predicate.isObject(pattern)) return [];
  const keys = Object.keys(pattern);
  const operators = keys.filter((key) => operatorKeys.has(key));
  if (operators.length > 0 && keys.length > 1) {
    return [{ path, message: `an operator object has exactly one key, got ${keys.join(", ")}` }];
  }
  const [operator] = operators;
  if (operator !== undefined) return validateOperator(operator, pattern[operator], path);
  return keys.flatMap((key) => validatePattern(pattern[key], keyPath(path, key)));
};

const validateOperator = (key: string, value: unknown, path: string): ReadonlyArray<PatternDifference> => {
  if ((key === "$any" || key === "$absent") && value !== true) {
    return [{ path, message: `${key} takes true, got ${render(value)}` }];
  }
  if ((key === "$contains" || key === "$regex") && typeof value !== "string") {
    return [{ path, message: `${key} takes a string, got ${render(value)}` }];
  }
  if (key === "$some" || key === "$last") return validatePattern(value, `${path}.${key}`);
  if (key === "$anyOf") {
    if (!Array.isArray(value) || value.length < 2) {
      return [{ path, message: `$anyOf takes a list of two or more patterns, got ${render(value)}` }];
    }
    const patterns: ReadonlyArray<unknown> = value;
    return patterns.flatMap((item, index) => validatePattern(item, indexPath(`${path}.$anyOf`, index)));
  }
  if (key === "$regex" && typeof value === "string") {
    const problem = regexProblem(value);
    if (problem !== undefined) return [{ path, message: `$regex ${render(value)} is not a valid regular expression: ${problem}` }];
  }
  return [];
};

const regexProblem = (source: string): string | undefined => {
  try {
    new RegExp(source);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
};

const operatorOf = (pattern: unknown): Operator | undefined => {
  if (!Predicate.isObject(pattern)) return undefined;
  const keys = Object.keys(pattern);
  if (keys.length !== 1) return undefined;
  const value = pattern[keys[0] ?? ""];
  switch (keys[0]) {
    case "$contains":
      return typeof value === "string" ? { kind: "contains", text: value } : undefined;
    case "$regex":
      return typeof value === "string" ? { kind: "regex", source: value } : undefined;
    case "$any":
      return value === true ? { kind: "any" } : undefined;
    case "$absent":
      return value === true ? { kind: "absent" } : undefined;
    case "$some":
      return { kind: "some", pattern: value };
    case "$last":
      return { kind: "last", pattern: value };
    case "$anyOf":
      return Array.isArray(value) ? { kind: "anyOf", patterns: value } : undefined;
    default:
      return undefined;
  }
};

const compare = (pattern: unknown, actual: Actual, path: string): ReadonlyArray<PatternDifference> => {
  const operator = operatorOf(pattern);
  if (operator !== undefined) return compareOperator(operator, actual, path);
  if (!actual.present) return [{ path, message: `expected ${render(pattern)}, got nothing (the key is missing)` }];
  const value = actual.value;
  if (Array.isArray(pattern)) return compareArray(pattern, value, path);
  if (Predicate.isObject(pattern)) return compareObject(pattern, value, path);
  if (pattern === value) return [];
  return [{ path, message: describeInequality(pattern, value) }];
};

const compareOperator = (operator: Operator, actual: Actual, path: string): ReadonlyArray<PatternDifference> => {
  if (operator.kind === "absent") {
    return actual.present ? [{ path, message: `expected the key to be absent, got ${render(actual.value)}` }] : [];
  }
  if (operator.kind === "some" || operator.kind === "last") return compareElements(operator, actual, path);
  if (operator.kind === "anyOf") return compareAlternatives(operator.patterns, actual, path);
  const expected =
    operator.kind === "any"
      ? "any value"
      : operator.kind === "contains"
        ? `a string containing ${render(operator.text)}`
        : `a string matching /${operator.source}/`;
  if (!actual.present) return [{ path, message: `expected ${expected}, got nothing (the key is missing)` }];
  const value = actual.value;
  const matches =
    operator.kind === "any" ||
    (typeof value === "string" && (operator.kind === "contains" ? value.includes(operator.text) : new RegExp(operator.source).test(value)));
  return matches ? [] : [{ path, message: `expected ${expected}, got ${render(value)}` }];
};

/** `$some`: an element matches (the diff is the closest element's); `$last`: the last element matches. */
const compareElements = (
  operator: { readonly kind: "some" | "last"; readonly pattern: unknown },
  actual: Actual,
  path: string,
): ReadonlyArray<PatternDifference> => {
  const wanted = operator.kind === "some" ? "an array with an element that matches" : "an array whose last element matches";
  if (!actual.present) return [{ path, message: `expected ${wanted} ${render(operator.pattern)}, got nothing (the key is missing)` }];
  const value = actual.value;
  if (!Array.isArray(value) || value.length === 0)
    return [{ path, message: `expected ${wanted} ${render(operator.pattern)}, got ${render(value)}` }];
  const items: ReadonlyArray<unknown> = value;
  if (operator.kind === "last") return compare(operator.pattern, { present: true, value: items.at(-1) }, indexPath(path, items.length - 1));
  const tries = items.map((item, index) => compare(operator.pattern, { present: true, value: item }, indexPath(path, index)));
  if (tries.some((differences) => differences.length === 0)) return [];
  const closest = tries.reduce((best, next) => (next.length < best.length ? next : best));
  return [{ path, message: `expected an element that matches ${render(operator.pattern)}, got none; the closest:` }, ...closest];
};

/**
 * `$anyOf`: one of the patterns matches. The diff is the closest pattern's: among those of the
 * actual value's shape (a string, an array, an object, …), the one with the fewest differences.
 */
const compareAlternatives = (patterns: ReadonlyArray<unknown>, actual: Actual, path: string): ReadonlyArray<PatternDifference> => {
  const tries = patterns.map((pattern) => ({ pattern, differences: compare(pattern, actual, path) }));
  if (tries.some(({ differences }) => differences.length === 0)) return [];
  const shape = actual.present ? shapeOfValue(actual.value) : "absent";
  const sameShape = tries.filter(({ pattern }) => [shape, undefined].includes(shapeOfPattern(pattern)));
  const closest = (sameShape.length > 0 ? sameShape : tries).reduce((best, next) =>
    next.differences.length < best.differences.length ? next : best,
  );
  const got = actual.present ? render(actual.value) : "nothing (the key is missing)";
  return [{ path, message: `expected a value that matches one of ${render(patterns)}, got ${got}; the closest:` }, ...closest.differences];
};

type Shape = "string" | "number" | "boolean" | "null" | "array" | "object" | "absent";

const shapeOfValue = (value: unknown): Shape => {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "string") return "string";
  if (typeof value === "number") return "number";
  if (typeof value === "boolean") return "boolean";
  return "object";
};

/** The shape of value a pattern can match; undefined when it can match several. */
const shapeOfPattern = (pattern: unknown): Shape | undefined => {
  const operator = operatorOf(pattern);
  if (operator === undefined) return shapeOfValue(pattern);
  switch (operator.kind) {
    case "contains":
    case "regex":
      return "string";
    case "some":
    case "last":
      return "array";
    case "absent":
      return "absent";
    default:
      return undefined;
  }
};

const compareArray = (pattern: ReadonlyArray<unknown>, value: unknown, path: string): ReadonlyArray<PatternDifference> => {
  if (!Array.isArray(value)) return [{ path, message: `expected an array, got ${render(value)}` }];
  const items: ReadonlyArray<unknown> = value;
  const length =
    pattern.length === items.length
      ? []
      : [{ path, message: `expected ${plural(pattern.length, "element")}, got ${plural(items.length, "element")}` }];
  const shared = Math.min(pattern.length, items.length);
  const elements = pattern
    .slice(0, shared)
    .flatMap((item, index) => compare(item, { present: true, value: items[index] }, indexPath(path, index)));
  return [...length, ...elements];
};

const compareObject = (pattern: { readonly [key: string]: unknown }, value: unknown, path: string): ReadonlyArray<PatternDifference> => {
  if (!Predicate.isObject(value)) return [{ path, message: `expected an object, got ${render(value)}` }];
  return Object.keys(pattern).flatMap((key) => {
    const present = Object.hasOwn(value, key) && value[key] !== undefined;
    const actual: Actual = present ? { present, value: value[key] } : { present };
    return compare(pattern[key], actual, keyPath(path, key));
  });
};

/** Long strings are shown around their first difference so the diff stays readable. */
const describeInequality = (expected: unknown, actual: unknown): string => {
  if (typeof expected === "string" && typeof actual === "string" && Math.max(expected.length, actual.length) > maxRendered) {
    let at = 0;
    while (at < expected.length && expected[at] === actual[at]) at++;
    const from = Math.max(0, at - 20);
    const excerpt = (text: string) => `${from > 0 ? "…" : ""}${render(text.slice(from, from + 60))}`;
    return `expected ${excerpt(expected)}, got ${excerpt(actual)} (the strings first differ at character ${at})`;
  }
  return `expected ${render(expected)}, got ${render(actual)}`;
};

const render = (value: unknown): string => {
  const text = value === undefined ? "nothing" : JSON.stringify(value);
  return text.length > maxRendered ? `${text.slice(0, maxRendered)}…` : text;
};

const plural = (count: number, noun: string): string => `${count} ${noun}${count === 1 ? "" : "s"}`;

const identifier = /^[A-Za-z_$][\w$]*$/;

const keyPath = (path: string, key: string): string => {
  if (!identifier.test(key)) return `${path}[${JSON.stringify(key)}]`;
  return path === "" ? key : `${path}.${key}`;
};

const indexPath = (path: string, index: number): string => `${path}[${index}]`;

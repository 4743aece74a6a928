// ESLint rules that keep tests waiting on events, never on the clock (shared TESTING.md).
// Each message names the fix.

const testFunctions = new Set(["test", "it", "describe"]);
const skipMethods = new Set(["skip", "fixme", "todo", "skipIf"]);

/** The root identifier of a member chain: `test.describe.skip` → "test". */
function rootName(node) {
  let current = node;
  while (current.type === "MemberExpression") current = current.object;
  return current.type === "Identifier" ? current.name : undefined;
}

function propertyName(node) {
  if (node.type !== "MemberExpression") return undefined;
  if (node.property.type === "Identifier") return node.property.name;
  if (node.property.type === "Literal") return String(node.property.value);
  return undefined;
}

const noWallClock = {
  meta: {
    type: "problem",
    messages: {
      wallClock:
        "`{{name}}()` in a test measures elapsed time. Assert on events and counts instead: await the Deferred, process exit, log line or Playwright expect that means done; measure speed in the benchmark script.",
    },
    schema: [],
  },
  create(context) {
    return {
      CallExpression(node) {
        const callee = node.callee;
        if (callee.type !== "MemberExpression" || callee.object.type !== "Identifier") return;
        const name = `${callee.object.name}.${propertyName(callee)}`;
        if (name === "Date.now" || name === "performance.now") context.report({ node, messageId: "wallClock", data: { name } });
      },
    };
  },
};

const waitingCalls = new Set(["setTimeout", "setInterval", "sleep", "waitForTimeout"]);

const noRealTimeWait = {
  meta: {
    type: "problem",
    messages: {
      realTimeWait:
        "`{{name}}` waits on real time, which races a slow machine. Wait for the event that means done (a Deferred, a queue item, a process exit, a log line, Playwright's auto-retrying expect), or drive Effect's Clock with TestClock.adjust.",
    },
    schema: [],
  },
  create(context) {
    return {
      CallExpression(node) {
        const callee = node.callee;
        const name = callee.type === "Identifier" ? callee.name : propertyName(callee);
        if (name !== undefined && waitingCalls.has(name)) context.report({ node, messageId: "realTimeWait", data: { name } });
      },
    };
  },
};

function hasTimingOption(node) {
  return (
    node?.type === "ObjectExpression" &&
    node.properties.some(
      (property) =>
        property.type === "Property" &&
        property.key.type === "Identifier" &&
        ["timeout", "retry", "retries", "repeats"].includes(property.key.name),
    )
  );
}

const noTestTimeoutOrRetries = {
  meta: {
    type: "problem",
    messages: {
      timeout:
        "A per-test timeout hides a test that waits on the wrong thing. Remove it: the project timeout is the ceiling, and a test that needs longer must wait for the event that means done.",
      retries: "Retries hide flaky tests. Remove them and fix the test so it waits for the event that means done.",
    },
    schema: [],
  },
  create(context) {
    return {
      CallExpression(node) {
        const callee = node.callee;
        const root = rootName(callee);
        if (root === undefined || !testFunctions.has(root)) {
          if (propertyName(callee) === "setConfig") context.report({ node, messageId: "timeout" });
          return;
        }
        const method = propertyName(callee);
        if (method === "setTimeout" || method === "slow") context.report({ node, messageId: "timeout" });
        if (method === "configure" && hasTimingOption(node.arguments[0])) context.report({ node, messageId: "retries" });
        if (callee.type === "Identifier" || method === "only" || method === "describe") {
          const [, second, third] = node.arguments;
          if (third?.type === "Literal" && typeof third.value === "number") context.report({ node: third, messageId: "timeout" });
          if (hasTimingOption(second) || hasTimingOption(third)) context.report({ node, messageId: "timeout" });
        }
      },
    };
  },
};

const noUnreasonedSkip = {
  meta: {
    type: "problem",
    messages: {
      skip: "`{{name}}` needs a comment on the line above saying why it is skipped and what will unskip it.",
    },
    schema: [],
  },
  create(context) {
    const source = context.sourceCode;
    return {
      CallExpression(node) {
        const callee = node.callee;
        const root = rootName(callee);
        const method = propertyName(callee);
        if (root === undefined || !testFunctions.has(root) || method === undefined || !skipMethods.has(method)) return;
        const line = node.loc.start.line;
        const reason = source.getAllComments().some((comment) => comment.loc.end.line === line - 1 && comment.value.trim() !== "");
        if (!reason) context.report({ node, messageId: "skip", data: { name: source.getText(callee) } });
      },
    };
  },
};

export const testHygiene = {
  meta: { name: "test-hygiene" },
  rules: {
    "no-wall-clock": noWallClock,
    "no-real-time-wait": noRealTimeWait,
    "no-test-timeout-or-retries": noTestTimeoutOrRetries,
    "no-unreasoned-skip": noUnreasonedSkip,
  },
};

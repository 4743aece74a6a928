import * as SchemaIssue from "effect/SchemaIssue";

/**
 * Describes a schema issue as one readable phrase per problem: `"sse.data": expected …, got …`.
 * `what` names the thing decoded, in "is not a field of <what>".
 */
export const issueDescriber = (what: string): ((issue: SchemaIssue.Issue) => string) => {
  const formatter = SchemaIssue.makeFormatterStandardSchemaV1({
    leafHook: (issue) => {
      switch (issue._tag) {
        case "MissingKey":
          return "is missing";
        case "UnexpectedKey":
          return `is not a field of ${what} (check its spelling)`;
        default:
          return SchemaIssue.defaultLeafHook(issue);
      }
    },
  });
  return (issue) =>
    formatter(issue)
      .issues.map(({ path, message }) => {
        const where = (path ?? [])
          .map((key) => (typeof key === "number" ? `[${key}]` : `.${String(key)}`))
          .join("")
          .slice(1);
        const text = message.replace(/^Expected/, "expected");
        if (where === "") return text;
        return text.startsWith("is ") ? `"${where}" ${text}` : `"${where}": ${text}`;
      })
      .join("; ");
};

/** A transcript line's schema issue, described. */
export const describeIssue = issueDescriber("this line type");

import * as SchemaIssue from "effect/SchemaIssue";

const leafHook: SchemaIssue.LeafHook = (issue) => {
  switch (issue._tag) {
    case "MissingKey":
      return "is missing";
    case "UnexpectedKey":
      return "is not a field of this line type (check its spelling)";
    default:
      return SchemaIssue.defaultLeafHook(issue);
  }
};

const formatter = SchemaIssue.makeFormatterStandardSchemaV1({ leafHook });

/** A schema issue as one readable phrase per problem: `"sse.data": expected …, got …`. */
export const describeIssue = (issue: SchemaIssue.Issue): string =>
  formatter(issue)
    .issues.map(({ path, message }) => {
      const where = (path ?? []).map((key) => (typeof key === "number" ? `[${key}]` : `.${String(key)}`)).join("").slice(1);
      const text = message.replace(/^Expected/, "expected");
      if (where === "") return text;
      return text.startsWith("is ") ? `"${where}" ${text}` : `"${where}": ${text}`;
    })
    .join("; ");

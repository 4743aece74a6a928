import { describe, expect, it } from "vitest";
import { commands } from "./commands.ts";
import { reproduceArguments } from "./reproduce.ts";

describe("a reproduce command's arguments, from the declarations", () => {
  it("are the command's word, its required options, the positional arguments, then its other options in the order it lists them", () => {
    expect(
      reproduceArguments(commands.bisect, { expectTimeout: 5000, grep: "adds tax", new: "b", old: "a", repeat: 2 }, ["s.e2e.ts"]),
    ).toEqual(["bisect", "--old", "a", "--new", "b", "s.e2e.ts", "--grep", "adds tax", "--repeat", "2", "--expect-timeout", "5000"]);
  });

  it("leave out what was not given, a single run, and the options that do not change the outcome", () => {
    const values = {
      base: "a",
      head: "b",
      repo: undefined,
      repeat: 1,
      out: "reports/x",
      shard: { index: 1, total: 2 },
      json: true,
      sequential: true,
      keep: true,
      publish: { remote: "origin", branch: "scenario-proofs", imageUrl: undefined },
    };
    expect(reproduceArguments(commands.prove, values, ["s.e2e.ts", "more"])).toEqual(["--base", "a", "--head", "b", "s.e2e.ts", "more"]);
  });
});

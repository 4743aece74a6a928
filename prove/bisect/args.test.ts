import { describe, expect, it } from "vitest";
import { parseCommand } from "../options/index.ts";
import { UsageError } from "../errors.ts";

const defaults = {
  repo: undefined,
  config: undefined,
  grep: undefined,
  keep: false,
  expectTimeout: undefined,
  repeat: 1,
  out: undefined,
  json: false,
  publish: undefined,
};

describe("the bisect command line", () => {
  it("reads both ends, the scenario and every option", () => {
    expect(
      parseCommand([
        "bisect",
        "--old",
        "v1.2.0",
        "--new",
        "main",
        "scenarios/x.e2e.ts",
        "--repo",
        "../app",
        "--config",
        "c.ts",
        "--grep",
        "stop",
        "--repeat",
        "3",
        "--out",
        "../bisect",
        "--json",
        "--keep",
        "--expect-timeout",
        "4000",
      ]),
    ).toEqual({
      kind: "bisect",
      options: {
        old: "v1.2.0",
        new: "main",
        scenario: "scenarios/x.e2e.ts",
        repo: "../app",
        config: "c.ts",
        grep: "stop",
        keep: true,
        expectTimeout: 4000,
        repeat: 3,
        out: "../bisect",
        json: true,
        publish: undefined,
      },
    });
    expect(
      parseCommand([
        "bisect",
        "--old",
        "v1",
        "--new",
        "HEAD",
        "s.e2e.ts",
        "--publish",
        "--branch",
        "proofs",
        "--image-url",
        "https://img.example/p/",
      ]),
    ).toMatchObject({
      options: { publish: { remote: "origin", branch: "proofs", imageUrl: "https://img.example/p/" } },
    });
  });

  it("leaves the config to be found, one run per commit, and the report folder chosen later", () => {
    expect(parseCommand(["bisect", "--old=v1", "--new=HEAD", "s.e2e.ts"])).toEqual({
      kind: "bisect",
      options: { old: "v1", new: "HEAD", scenario: "s.e2e.ts", ...defaults },
    });
    expect(parseCommand(["bisect", "--help"])).toEqual({ kind: "help" });
  });

  it.each([
    [["bisect", "--new", "HEAD", "s.e2e.ts"], "--old is required, e.g. --old v1.4.0."],
    [["bisect", "--old", "v1", "s.e2e.ts"], "--new is required, e.g. --new HEAD."],
    [["bisect", "--old", "v1", "--new", "HEAD"], "Name the scenario file, e.g. scenarios/my-bug.e2e.ts."],
    [
      ["bisect", "--old", "v1", "--new", "HEAD", "a.e2e.ts", "b.e2e.ts"],
      "bisect takes one scenario file; also got b.e2e.ts. Use --grep to pick one test of a file.",
    ],
    [["bisect", "--old", "v1", "--old", "v2", "--new", "HEAD", "s.e2e.ts"], 'Give each option once; got --old twice ("v1", "v2").'],
    [["bisect", "--old", "v1", "--new", "HEAD", "--new", "main", "s.e2e.ts"], 'Give each option once; got --new twice ("HEAD", "main").'],
    [["bisect", "--old=", "--new", "HEAD", "s.e2e.ts"], "--old is required, e.g. --old v1.4.0."],
    [["bisect", "--old", "v1", "--new", "HEAD", "s.e2e.ts", "--repeat", "0"], '--repeat takes a whole number of runs, 1 or more; got "0".'],
    [
      ["bisect", "--old", "v1", "--new", "HEAD", "s.e2e.ts", "--expect-timeout", "5s"],
      '--expect-timeout takes milliseconds, a whole number of 1 or more, e.g. --expect-timeout 3000; got "5s".',
    ],
    [["bisect", "--old", "v1", "--new", "HEAD", "s.e2e.ts", "--out", ""], "--out needs a value, e.g. --out ../reports."],
    [["bisect", "--old", "v1", "--new", "HEAD", "s.e2e.ts", "--repo="], "--repo needs a value, e.g. --repo ../my-app."],
    [["bisect", "--old", "v1", "--new", "HEAD", "s.e2e.ts", "--grep", ""], '--grep needs a value, e.g. --grep "shows the total".'],
    [["bisect", "--base", "v1", "--head", "HEAD", "s.e2e.ts"], "Unknown option '--base'"],
    [["bisect", "--old", "v1", "--new", "HEAD", "s.e2e.ts", "--sequential"], "Unknown option '--sequential'"],
    [
      ["bisect", "--old", "v1", "--new", "HEAD", "s.e2e.ts", "--branch", "proofs"],
      "--remote, --branch and --image-url say where --publish publishes; add --publish, or leave them out.",
    ],
  ])("refuses %j, saying what to change", (argv, detail) => {
    let thrown: unknown;
    try {
      parseCommand(argv, () => false);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(UsageError);
    expect((thrown as UsageError).detail).toContain(detail);
  });

  it("is a command, not a scenario named bisect", () => {
    let thrown: unknown;
    try {
      parseCommand(["bisec", "--old", "v1", "--new", "HEAD", "s.e2e.ts"], () => false);
    } catch (error) {
      thrown = error;
    }
    expect((thrown as UsageError).detail).toMatch(/^Unknown command "bisec", .* The commands are [a-z, ]*\bbisect\b/);
  });
});

import { describe, expect, it } from "vitest";
import { UsageError } from "../errors.ts";
import { parseCommand } from "../options/index.ts";

describe("the command line", () => {
  it("reads a proof with every option", () => {
    expect(
      parseCommand([
        "--base",
        "main",
        "--head",
        "fix",
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
        "out",
        "--json",
        "--sequential",
        "--keep",
      ]),
    ).toEqual({
      kind: "prove",
      options: {
        base: "main",
        head: "fix",
        scenario: "scenarios/x.e2e.ts",
        scenarios: ["scenarios/x.e2e.ts"],
        shard: undefined,
        repo: "../app",
        config: "c.ts",
        grep: "stop",
        repeat: 3,
        out: "out",
        json: true,
        sequential: true,
        keep: true,
        publish: undefined,
        expectTimeout: undefined,
      },
    });
  });

  it("leaves the config to be found, one run per side, both sides at once, and a report folder chosen later", () => {
    expect(parseCommand(["--base=main", "--head=HEAD", "s.e2e.ts"])).toEqual({
      kind: "prove",
      options: {
        base: "main",
        head: "HEAD",
        scenario: "s.e2e.ts",
        scenarios: ["s.e2e.ts"],
        shard: undefined,
        repo: undefined,
        config: undefined,
        grep: undefined,
        repeat: 1,
        out: undefined,
        json: false,
        sequential: false,
        keep: false,
        publish: undefined,
        expectTimeout: undefined,
      },
    });
  });

  it("reads several scenarios and folders, a shard, and where to publish", () => {
    const command = parseCommand([
      "--base",
      "main",
      "--head",
      "HEAD",
      "scenarios/a.e2e.ts",
      "scenarios/more",
      "--shard",
      "2/3",
      "--publish",
      "--branch",
      "proofs",
      "--image-url",
      "https://img.example/p",
    ]);
    expect(command).toMatchObject({
      kind: "prove",
      options: {
        scenario: "scenarios/a.e2e.ts",
        scenarios: ["scenarios/a.e2e.ts", "scenarios/more"],
        shard: { index: 2, total: 3 },
        publish: { remote: "origin", branch: "proofs", imageUrl: "https://img.example/p" },
      },
    });
    expect(parseCommand(["--base", "a", "--head", "b", "s.e2e.ts", "--publish"])).toMatchObject({
      options: { publish: { remote: "origin", branch: "scenario-proofs", imageUrl: undefined } },
    });
    expect(parseCommand(["publish", "reports/x", "--remote", "upstream"])).toEqual({
      kind: "publish",
      options: { dir: "reports/x", remote: "upstream", branch: "scenario-proofs", imageUrl: undefined },
    });
    expect(parseCommand(["--base", "a", "--head", "b", "s.e2e.ts", "--expect-timeout", "3000"])).toMatchObject({
      options: { expectTimeout: 3000 },
    });
    expect(parseCommand(["run", "--at", "a", "s.e2e.ts", "--expect-timeout", "2500"])).toMatchObject({ options: { expectTimeout: 2500 } });
    expect(parseCommand(["merge", "s1", "--publish", "--remote", "up"])).toMatchObject({
      options: { publish: { remote: "up", branch: "scenario-proofs" } },
    });
    expect(parseCommand(["merge", "shard-1", "shard-2", "--out", "all", "--json"])).toEqual({
      kind: "merge",
      options: { dirs: ["shard-1", "shard-2"], out: "all", json: true, publish: undefined },
    });
  });

  it("reads one side for git bisect run, init, and the demo with every output option of a proof", () => {
    expect(parseCommand(["run", "--at", "HEAD", "s.e2e.ts"])).toEqual({
      kind: "run",
      options: {
        at: "HEAD",
        scenario: "s.e2e.ts",
        repo: undefined,
        config: undefined,
        grep: undefined,
        keep: false,
        expectTimeout: undefined,
      },
    });
    expect(parseCommand(["init"])).toEqual({ kind: "init" });
    const defaults = {
      out: undefined,
      repeat: 1,
      json: false,
      sequential: false,
      keep: false,
      publish: undefined,
      expectTimeout: undefined,
    };
    expect(parseCommand(["demo"])).toEqual({ kind: "demo", options: { bugId: undefined, ...defaults } });
    expect(parseCommand(["demo", "all", "--out", "demo-reports"])).toEqual({
      kind: "demo",
      options: { bugId: "all", ...defaults, out: "demo-reports" },
    });
    expect(parseCommand(["demo", "stop-does-not-abort", "--json", "--repeat", "2", "--sequential", "--keep"])).toEqual({
      kind: "demo",
      options: {
        bugId: "stop-does-not-abort",
        out: undefined,
        repeat: 2,
        json: true,
        sequential: true,
        keep: true,
        publish: undefined,
        expectTimeout: undefined,
      },
    });
    expect(parseCommand([])).toEqual({ kind: "help" });
    expect(parseCommand(["--help"])).toEqual({ kind: "help" });
  });

  it("takes a first word that names a scenario folder, not a command", () => {
    expect(parseCommand(["scenarios", "--base", "a", "--head", "b"], (typed) => typed === "scenarios")).toMatchObject({
      kind: "prove",
      options: { scenarios: ["scenarios"] },
    });
    expect(parseCommand(["--base", "a", "--head", "b", "cart"], () => false)).toMatchObject({
      kind: "prove",
      options: { scenarios: ["cart"] },
    });
  });

  it.each([
    [["--head", "x", "s.e2e.ts"], "--base is required, e.g. --base main."],
    [["--base", "x", "s.e2e.ts"], "--head is required, e.g. --head HEAD."],
    [["--base", "a", "--head", "b"], "Name the scenario file (or files, or a folder of them), e.g. scenarios/my-bug.e2e.ts."],
    [
      ["run", "--at", "HEAD", "one.e2e.ts", "two.e2e.ts"],
      "run takes one scenario file; also got two.e2e.ts. Use --grep to pick one test of a file.",
    ],
    [
      ["--base", "a", "--head", "b", "s.e2e.ts", "--shard", "3/2"],
      '--shard takes <i>/<n>, the i-th of n slices with 1 ≤ i ≤ n, e.g. --shard 1/3; got "3/2".',
    ],
    [
      ["--base", "a", "--head", "b", "s.e2e.ts", "--shard", "1"],
      '--shard takes <i>/<n>, the i-th of n slices with 1 ≤ i ≤ n, e.g. --shard 1/3; got "1".',
    ],
    [
      ["--base", "a", "--head", "b", "s.e2e.ts", "--remote", "upstream"],
      "--remote, --branch and --image-url say where --publish publishes; add --publish, or leave them out.",
    ],
    [["--base", "a", "--head", "b", "s.e2e.ts", "--publish", "--branch="], "--branch needs a value, e.g. --branch scenario-proofs."],
    [
      ["--base", "a", "--head", "b", "s.e2e.ts", "--expect-timeout", "3s"],
      '--expect-timeout takes milliseconds, a whole number of 1 or more, e.g. --expect-timeout 3000; got "3s".',
    ],
    [["publish"], "publish takes one report folder (the one holding report.md, summary.md, compare.md or bisect.md)"],
    [
      ["publish", "a", "b"],
      "publish takes one report folder (the one holding report.md, summary.md, compare.md or bisect.md), e.g. publish reports/checkout/abc1234-def5678; got a b.",
    ],
    [["merge"], "merge takes the report folders of a proof's shards, e.g. merge shard-1 shard-2 --out reports/all."],
    [["--base", "a", "--head", "b", "s.e2e.ts", "--repeat", "0"], '--repeat takes a whole number of runs, 1 or more; got "0".'],
    [["--base", "a", "--head", "b", "s.e2e.ts", "--repeat", "two"], '--repeat takes a whole number of runs, 1 or more; got "two".'],
    [["--base", "a", "--head", "b", "s.e2e.ts", "--frobnicate"], "Unknown option '--frobnicate'"],
    [["run", "s.e2e.ts"], "--at is required, e.g. --at HEAD."],
    [["demo", "a", "b"], 'demo takes one bug id or "all"; got a b.'],
    [["demo", "--repeat", "0"], '--repeat takes a whole number of runs, 1 or more; got "0".'],
    [["init", "apps/web"], "init takes no arguments; got apps/web. Run it in the app's folder."],
    [["--base", "a", "--base", "b", "--head", "c", "s.e2e.ts"], 'Give each option once; got --base twice ("a", "b").'],
    [
      ["--base", "a", "--head=b", "--head", "c", "--head", "d", "s.e2e.ts", "--out", "x", "--out", "y"],
      'Give each option once; got --head 3 times ("b", "c", "d") and --out twice ("x", "y").',
    ],
    [["--base", "a", "--head", "b", "s.e2e.ts", "--repo="], "--repo needs a value, e.g. --repo ../my-app."],
    [["--base", "a", "--head", "b", "s.e2e.ts", "--config", ""], "--config needs a value, e.g. --config scenarios.config.ts."],
    [["--base", "a", "--head", "b", "s.e2e.ts", "--grep", ""], '--grep needs a value, e.g. --grep "shows the total".'],
    [["--base", "a", "--head", "b", "s.e2e.ts", "--out", ""], "--out needs a value, e.g. --out ../reports."],
    [["run", "--at", "HEAD", "s.e2e.ts", "--config="], "--config needs a value"],
    [
      ["frobnicate", "--base", "a", "--head", "b", "s.e2e.ts"],
      'Unknown command "frobnicate", and there is no scenario file or folder of that name. The commands are init, run, publish, merge, demo',
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
});

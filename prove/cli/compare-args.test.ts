import { describe, expect, it } from "vitest";
import { UsageError } from "../errors.ts";
import { parseCommand, usage } from "../options/index.ts";

describe("the compare command line", () => {
  it("reads every option, and leaves the threshold to the default when none is given", () => {
    expect(
      parseCommand([
        "compare",
        "--base",
        "main",
        "--head",
        "HEAD",
        "scenarios/x.e2e.ts",
        "--repo",
        "../app",
        "--config",
        "c.ts",
        "--grep",
        "cart",
        "--out",
        "out",
        "--json",
        "--sequential",
        "--keep",
        "--expect-timeout",
        "3000",
        "--threshold",
        "0.005",
      ]),
    ).toEqual({
      kind: "compare",
      options: {
        base: "main",
        head: "HEAD",
        scenario: "scenarios/x.e2e.ts",
        repo: "../app",
        config: "c.ts",
        grep: "cart",
        out: "out",
        json: true,
        sequential: true,
        keep: true,
        expectTimeout: 3000,
        threshold: 0.005,
        publish: undefined,
      },
    });
    expect(parseCommand(["compare", "--base", "a", "--head", "b", "s.e2e.ts", "--publish", "--remote", "upstream"])).toMatchObject({
      options: { publish: { remote: "upstream", branch: "scenario-proofs", imageUrl: undefined } },
    });
    expect(parseCommand(["compare", "--base=a", "--head=b", "s.e2e.ts"])).toMatchObject({
      options: { threshold: undefined, json: false, sequential: false, out: undefined },
    });
    expect(parseCommand(["compare", "--base", "a", "--head", "b", "s.e2e.ts", "--threshold", "0"])).toMatchObject({
      options: { threshold: 0 },
    });
    expect(parseCommand(["compare", "--base", "a", "--head", "b", "s.e2e.ts", "--threshold", ".5"])).toMatchObject({
      options: { threshold: 0.5 },
    });
    expect(parseCommand(["compare", "--help"])).toEqual({ kind: "help" });
    expect(usage).toContain("prove-scenario compare --base <ref> --head <ref> <scenario-file> [--threshold <share>]");
  });

  it.each([
    [
      ["--threshold", "5%"],
      '--threshold takes the share of changed pixels, from 0 to 1, at or below which a label counts as unchanged, e.g. --threshold 0.005 for half a percent (default 0.001); got "5%".',
    ],
    [["--threshold", "1.5"], 'got "1.5"'],
    [["--threshold", "-0.1"], "--threshold"],
    [["--threshold", ""], 'got ""'],
    [["--threshold", "1e-3"], 'got "1e-3"'],
    [["--repeat", "2"], "Unknown option '--repeat'"],
    [
      ["--image-url", "https://img.example/p/"],
      "--remote, --branch and --image-url say where --publish publishes; add --publish, or leave them out.",
    ],
    [
      ["other.e2e.ts"],
      "compare takes one scenario file, e.g. scenarios/checkout.e2e.ts; got s.e2e.ts other.e2e.ts. Use --grep to pick one test of a file.",
    ],
  ])("refuses %j, saying what to give", (extra, says) => {
    const parse = () => parseCommand(["compare", "--base", "a", "--head", "b", "s.e2e.ts", ...extra]);
    expect(parse).toThrow(UsageError);
    expect(parse).toThrow(says);
  });

  it("names the flag a comparison needs", () => {
    expect(() => parseCommand(["compare", "--head", "b", "s.e2e.ts"])).toThrow("--base is required, e.g. --base main.");
    expect(() => parseCommand(["compare", "--base", "a", "s.e2e.ts"])).toThrow("--head is required, e.g. --head HEAD.");
    expect(() => parseCommand(["compare", "--base", "a", "--head", "b"])).toThrow(
      "compare takes one scenario file, e.g. scenarios/checkout.e2e.ts.",
    );
  });
});

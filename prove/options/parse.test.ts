import { describe, expect, it } from "vitest";
import { UsageError } from "../errors.ts";
import { commandList } from "./commands.ts";
import { wordOf } from "./declaration.ts";
import { flagsOf, parseCommand } from "./parse.ts";

/** The UsageError's detail of a command line that does not fit. */
function refusal(argv: ReadonlyArray<string>): string {
  try {
    parseCommand(argv, () => false);
  } catch (error) {
    if (error instanceof UsageError) return error.detail;
    throw error;
  }
  throw new Error(`${argv.join(" ")} was read without a complaint`);
}

const words = (spec: (typeof commandList)[number]) => (wordOf(spec) === undefined ? [] : [wordOf(spec) ?? ""]);
const everyFlag = [...new Set(commandList.flatMap((spec) => flagsOf(spec).map((option) => option.flag)))];

describe("reading a command line by the declarations", () => {
  it.each(commandList.map((spec) => [spec.name, spec] as const))("%s refuses every option it does not declare", (_name, spec) => {
    const own = flagsOf(spec).map((option) => option.flag);
    const others = everyFlag.filter((flag) => !own.includes(flag));
    for (const flag of others) expect(refusal([...words(spec), `--${flag}`])).toContain(`Unknown option '--${flag}'`);
  });

  it.each(commandList.map((spec) => [spec.name, spec] as const))(
    "%s answers --help and -h with the help, before anything is missing",
    (_name, spec) => {
      expect(parseCommand([...words(spec), "--help"])).toEqual({ kind: "help" });
      expect(parseCommand([...words(spec), "-h"])).toEqual({ kind: "help" });
    },
  );

  it("reads a command's required options before its positional arguments, and its other options after them", () => {
    expect(refusal(["run", "one.e2e.ts", "two.e2e.ts"])).toBe("--at is required, e.g. --at HEAD.");
    expect(refusal(["bisect", "--old", "v1", "--new", "HEAD", "--repeat", "0"])).toBe(
      "Name the scenario file, e.g. scenarios/my-bug.e2e.ts.",
    );
    expect(refusal(["demo", "a", "b", "--repeat", "0"])).toBe('demo takes one bug id or "all"; got a b.');
  });

  it("gives merge's --out its own example, and publish's --remote and --branch their defaults", () => {
    expect(refusal(["merge", "shard-1", "--out", ""])).toBe("--out needs a value, e.g. --out reports/all.");
    expect(refusal(["publish", "reports/x", "--remote="])).toBe("--remote needs a value, e.g. --remote origin.");
    expect(parseCommand(["publish", "reports/x", "--branch", "proofs", "--image-url", "https://img.example/p"])).toEqual({
      kind: "publish",
      options: { dir: "reports/x", remote: "origin", branch: "proofs", imageUrl: "https://img.example/p" },
    });
  });

  it("names an empty --branch as such even without --publish", () => {
    expect(refusal(["merge", "shard-1", "--branch="])).toBe("--branch needs a value, e.g. --branch scenario-proofs.");
  });

  it("refuses a performance proof's flags that do not go together, naming them and the fix", () => {
    const proof = ["--base", "main", "--head", "HEAD", "s.e2e.ts"];
    expect(refusal([...proof, "--faster", "task", "--not-slower", "task"])).toBe(
      "--faster and --not-slower ask different questions of one proof; give one: --faster to prove a speed-up, --not-slower to guard against a slowdown.",
    );
    expect(refusal([...proof, "--margin", "5", "--cpu-slowdown", "4"])).toBe(
      "--margin and --cpu-slowdown say how a performance proof samples; add --faster <metric> or --not-slower <metric>, or leave them out.",
    );
    expect(refusal([...proof, "--faster", "task", "--repeat", "3"])).toBe(
      "--faster samples each side until its interval decides (at most --max-samples); leave --repeat out.",
    );
    expect(refusal([...proof, "other.e2e.ts", "--not-slower", "task"])).toBe(
      "--not-slower proves one scenario; name one scenario file (and --grep for one test), without --shard.",
    );
    expect(parseCommand([...proof, "--faster", "reply:task", "--margin", "20", "--max-samples", "8"])).toMatchObject({
      kind: "prove",
      options: { faster: "reply:task", notSlower: undefined, margin: 20, maxSamples: 8, cpuSlowdown: undefined },
    });
  });
});

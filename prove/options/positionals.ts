// Each command's positional arguments: how its synopsis shows them and how they are read.
import { UsageError } from "../errors.ts";
import type { Positionals } from "./declaration.ts";

/** One scenario file, for `run` and `bisect`. */
export const oneScenario = (command: "run" | "bisect"): Positionals<{ readonly scenario: string }> => ({
  synopsis: "<scenario-file>",
  help: "the scenario file; --grep picks one of its tests",
  read: (positionals) => {
    const [scenario, ...extra] = positionals;
    if (scenario === undefined) throw new UsageError({ detail: "Name the scenario file, e.g. scenarios/my-bug.e2e.ts." });
    if (extra.length > 0) {
      throw new UsageError({
        detail: `${command} takes one scenario file; also got ${extra.join(" ")}. Use --grep to pick one test of a file.`,
      });
    }
    return { scenario };
  },
});

export const scenarioList: Positionals<{ readonly scenario: string; readonly scenarios: ReadonlyArray<string> }> = {
  synopsis: "<scenario-file-or-folder>...",
  help: "the scenario file; with several files or a folder, each test in them is proved on its own",
  read: (positionals) => {
    const [scenario, ...rest] = positionals;
    if (scenario === undefined)
      throw new UsageError({ detail: "Name the scenario file (or files, or a folder of them), e.g. scenarios/my-bug.e2e.ts." });
    return { scenario, scenarios: [scenario, ...rest] };
  },
};

export const compareScenario: Positionals<{ readonly scenario: string }> = {
  synopsis: "<scenario-file>",
  help: "the scenario file; --grep picks one of its tests",
  read: (positionals) => {
    const [scenario, ...extra] = positionals;
    if (scenario === undefined || extra.length > 0) {
      throw new UsageError({
        detail: `compare takes one scenario file, e.g. scenarios/checkout.e2e.ts${extra.length > 0 ? `; got ${positionals.join(" ")}. Use --grep to pick one test of a file` : ""}.`,
      });
    }
    return { scenario };
  },
};

export const bugId: Positionals<{ readonly bugId: string | undefined }> = {
  synopsis: "[<bug-id>|all]",
  help: "a bug of the bundled zoo, or all of them one after the other; the default bug when left out",
  read: (positionals) => {
    if (positionals.length > 1) throw new UsageError({ detail: `demo takes one bug id or "all"; got ${positionals.join(" ")}.` });
    return { bugId: positionals[0] };
  },
};

export const reportDir: Positionals<{ readonly dir: string }> = {
  synopsis: "<report-dir>",
  help: "the report folder: a proof's, a multi-scenario proof's, a comparison's or a bisection's",
  read: (positionals) => {
    const [dir, ...extra] = positionals;
    if (dir === undefined || extra.length > 0) {
      throw new UsageError({
        detail: `publish takes one report folder (the one holding report.md, summary.md, compare.md or bisect.md), e.g. publish reports/checkout/abc1234-def5678${extra.length > 0 ? `; got ${positionals.join(" ")}` : ""}.`,
      });
    }
    return { dir };
  },
};

export const shardDirs: Positionals<{ readonly dirs: ReadonlyArray<string> }> = {
  synopsis: "<dir>...",
  help: "the report folders of a proof's shards",
  read: (positionals) => {
    if (positionals.length === 0)
      throw new UsageError({ detail: "merge takes the report folders of a proof's shards, e.g. merge shard-1 shard-2 --out reports/all." });
    return { dirs: positionals };
  },
};

export const noArguments: Positionals<object> = {
  synopsis: "",
  help: "",
  read: (positionals) => {
    if (positionals.length > 0)
      throw new UsageError({ detail: `init takes no arguments; got ${positionals.join(" ")}. Run it in the app's folder.` });
    return {};
  },
};

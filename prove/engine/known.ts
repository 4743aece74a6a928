import type { Commit } from "../git/git.ts";
import type { Scenario } from "./scenario.ts";

/** Where a command runs: the invoking checkout, the repository under test and the scenario config. */
export interface Place {
  readonly cwd: string;
  /** The invoking checkout's top folder (cwd when it is not in a repository). */
  readonly root: string;
  /** The repository whose commits are run. */
  readonly repo: string;
  readonly configFile: string;
}

/** What a command knows so far; a command stopped early reports from it. */
export interface Known {
  readonly place?: Place;
  readonly base?: Commit;
  readonly head?: Commit;
  /** The one scenario, for a command that runs one. */
  readonly scenario?: Scenario;
  /** The run's temporary folder, once made. */
  readonly runDir?: string;
  /** The report folder, once claimed. */
  readonly out?: string;
}

/** The scenario as a report names it: as listed once known, else as typed. */
export const reportedScenario = (known: Known, typed: string) => ({
  file: known.scenario?.file ?? typed,
  title: known.scenario?.test.title ?? null,
  sha256: known.scenario?.sha256 ?? null,
});

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

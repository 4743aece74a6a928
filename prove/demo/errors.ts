import * as Data from "effect/Data";

/** Errors of the demo sandbox; each message says what to change. */

export class UnknownBug extends Data.TaggedError("UnknownBug")<{ readonly bugId: string; readonly known: ReadonlyArray<string> }> {
  override get message(): string {
    return `There is no bug "${this.bugId}" in the zoo. Pass one of: ${this.known.join(", ")} (or "all").`;
  }
}

export class NoZoo extends Data.TaggedError("NoZoo")<{ readonly dir: string }> {
  override get message(): string {
    return (
      `The demo proves a bug of the bundled example app, and ${this.dir} is not there: the bug zoo ships with a clone of ` +
      "scenario-prover, not with the installed package. Clone the project and run `pnpm install && pnpm demo` in it."
    );
  }
}

export class BrokenBug extends Data.TaggedError("BrokenBug")<{ readonly bugId: string; readonly dir: string; readonly detail: string }> {
  override get message(): string {
    return `The zoo bug ${this.bugId} (${this.dir}) cannot be used: ${this.detail}`;
  }
}

export class SandboxFailed extends Data.TaggedError("SandboxFailed")<{
  readonly step: string;
  readonly command: string;
  readonly cwd: string;
  readonly detail: string;
}> {
  override get message(): string {
    return `Could not build the demo sandbox (${this.step}): \`${this.command}\` in ${this.cwd} failed: ${this.detail}`;
  }
}

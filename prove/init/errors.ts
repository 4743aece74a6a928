import * as Data from "effect/Data";

/** Errors of `prove-scenario init`; each message says what to change. Neither leaves a file written. */

export class InitRefused extends Data.TaggedError("InitRefused")<{
  /** The files that already exist, relative to the folder init ran in. */
  readonly files: ReadonlyArray<string>;
}> {
  override get message(): string {
    const [verb, them] = this.files.length === 1 ? ["exists", "it"] : ["exist", "them"];
    return (
      `${[this.files.slice(0, -1).join(", "), this.files.at(-1)].filter(Boolean).join(" and ")} already ${verb}, so init wrote nothing. ` +
      `Move or remove ${them} and run init again, or edit ${them} by hand.`
    );
  }
}

export class InitFailed extends Data.TaggedError("InitFailed")<{
  /** The file that stopped init (package.json, absolute). */
  readonly file: string;
  /** What is wrong with it and what to do. */
  readonly detail: string;
}> {
  override get message(): string {
    return `${this.file}: ${this.detail}`;
  }
}

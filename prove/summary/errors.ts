import * as Data from "effect/Data";

/** `merge` was given folders that do not make one proof; the message names them and what to pass instead. */
export class MergeRefused extends Data.TaggedError("MergeRefused")<{ readonly detail: string }> {
  override get message(): string {
    return `merge: ${this.detail}`;
  }
}
